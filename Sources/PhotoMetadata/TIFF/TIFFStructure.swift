/// The directories of one TIFF structure, found by following IFD0's chain and its sub-IFD pointers.
struct TIFFStructure {
  var ifd0: IFD
  var exif: IFD?
  var gps: IFD?
  /// IFD1, the thumbnail directory of an EXIF block (EXIF 2.32 §4.5.4).
  var ifd1: IFD?
  var subIFDs: [IFD] = []
  /// Exif and GPS IFDs that could not be read, when the structure was read with optional parts as warnings.
  var skipped: [MetadataWarning] = []

  /// Every directory reached, for overlap checks when erasing.
  var all: [IFD] { [ifd0] + [exif, gps, ifd1].compactMap { $0 } + subIFDs }
}

extension TIFFReader {
  /// Reads IFD0, IFD1 and every directory reachable through pointer tags (Exif, GPS, SubIFDs).
  ///
  /// - Parameter tolerating: when true, damage costs only the part it touches (issue 26), as exiftool reads
  ///   such files: a directory is read with ``directory(at:tolerating:)`` (damaged entries left out, a cut
  ///   table read to the cut), and an Exif, GPS, IFD1 or SubIFD directory that cannot be read at all (a
  ///   pointer past the end, into the header or back to a directory already read) is left out. Each is
  ///   recorded in ``TIFFStructure/skipped``; IFD0 still describes the image. Readers pass true; the location
  ///   stripper passes false, since it must see every GPS byte.
  /// - Throws: ``MetadataError/corrupt(_:)`` "IFD loop" when a pointer leads back to a directory already
  ///   read; ``MetadataError/limitExceeded(_:)`` past `maxIFDs` directories or `maxIFDDepth` levels (only
  ///   for IFD0 itself when tolerating).
  func structure(tolerating: Bool = false) throws(MetadataError) -> TIFFStructure {
    var visited: Set<Int> = []
    let ifd0 = try visit(firstIFDOffset, &visited, tolerating: tolerating)
    var result = TIFFStructure(ifd0: ifd0)
    result.noteDamage(of: ifd0, named: "IFD0")
    try follow(ifd0, depth: 1, tolerating: tolerating, into: &result, &visited)
    if ifd0.nextOffset != 0 {
      do {
        let ifd1 = try visit(ifd0.nextOffset, &visited, tolerating: tolerating)
        result.ifd1 = ifd1
        result.noteDamage(of: ifd1, named: "IFD1")
        try follow(ifd1, depth: 1, tolerating: tolerating, into: &result, &visited)
      } catch {
        guard tolerating else { throw error }
        if case .io = error { throw error }
        result.skipped.append(MetadataWarning(part: .thumbnail, reason: "IFD1: \(error.warningReason)"))
      }
    }
    return result
  }

  private func visit(_ offset: Int, _ visited: inout Set<Int>, tolerating: Bool) throws(MetadataError) -> IFD
  {
    guard visited.insert(base + offset).inserted else { throw .corrupt("IFD loop at offset \(offset)") }
    guard visited.count <= limits.maxIFDs else { throw .limitExceeded("more than \(limits.maxIFDs) IFDs") }
    return try directory(at: offset, tolerating: tolerating)
  }

  private func follow(
    _ ifd: IFD, depth: Int, tolerating: Bool, into result: inout TIFFStructure, _ visited: inout Set<Int>
  ) throws(MetadataError) {
    for entry in ifd.entries where TIFFTag.pointers.contains(entry.tag) {
      guard tolerating else {
        try follow(entry, depth: depth, tolerating: tolerating, into: &result, &visited)
        continue
      }
      do {
        try follow(entry, depth: depth, tolerating: tolerating, into: &result, &visited)
      } catch {
        if case .io = error { throw error }
        let name = Self.directoryName(entry.tag)
        let part: MetadataWarning.Part = entry.tag == TIFFTag.subIFDs ? .tiffDirectory : .exif
        result.skipped.append(MetadataWarning(part: part, reason: "\(name): \(error.warningReason)"))
      }
    }
  }

  /// How a warning names the directory a pointer tag leads to.
  static func directoryName(_ tag: UInt16) -> String {
    switch tag {
    case TIFFTag.gpsIFD: "the GPS IFD"
    case TIFFTag.subIFDs: "a SubIFD"
    default: "the Exif IFD"
    }
  }

  /// Follows one pointer entry to the directories it names, and on from them.
  private func follow(
    _ entry: IFDEntry, depth: Int, tolerating: Bool, into result: inout TIFFStructure,
    _ visited: inout Set<Int>
  ) throws(MetadataError) {
    guard depth < limits.maxIFDDepth else { throw .limitExceeded("IFD nesting deeper than \(depth)") }
    guard [3, 4, 13, 16, 18].contains(entry.type) else { return }
    for offset in try integers(entry).prefix(limits.maxIFDs) where offset != 0 {
      let child = try visit(offset, &visited, tolerating: tolerating)
      switch entry.tag {
      case TIFFTag.exifIFD where result.exif == nil: result.exif = child
      case TIFFTag.gpsIFD where result.gps == nil: result.gps = child
      case TIFFTag.subIFDs: result.subIFDs.append(child)
      default: break
      }
      result.noteDamage(of: child, named: Self.directoryName(entry.tag))
      try follow(child, depth: depth + 1, tolerating: tolerating, into: &result, &visited)
    }
  }
}

extension TIFFStructure {
  /// Records what a tolerant read left out of `ifd` as warnings.
  mutating func noteDamage(of ifd: IFD, named name: String) {
    let part: MetadataWarning.Part =
      switch name {
      case "IFD1": .thumbnail
      case "the Exif IFD", "the GPS IFD": .exif
      default: .tiffDirectory
      }
    skipped += ifd.damage.map { MetadataWarning(part: part, reason: "\(name): \($0)") }
  }
}
