/// Reads QuickTime and MPEG-4 movies (and Canon CR3, which is built on ISOBMFF): duration and creation
/// date from `mvhd`, the video track's size and rotation from `tkhd`, location from `©xyz` user data or
/// the `com.apple.quicktime.location.ISO6709` key, and the Live Photo content identifier.
enum QuickTimeReader {
  static let locationKey = "com.apple.quicktime.location.ISO6709"
  static let contentIdentifierKey = "com.apple.quicktime.content.identifier"
  static let creationDateKey = "com.apple.quicktime.creationdate"
  /// User-data atoms that carry a place (QTFF "User data atoms"; 3GPP TS 26.244 `loci`).
  static let locationAtoms: Set<String> = ["\u{A9}xyz", "loci"]

  static func read(_ input: Input, type: MediaType, limits: MetadataReader.Limits) throws(MetadataError)
    -> MediaMetadata
  {
    let layout = try QuickTimeLayout(input, limits: limits, toleratingCut: true)
    var metadata = MediaMetadata(type: type)
    if let (damage, last) = layout.cut {
      metadata.warnings.append(HEIFReader.remainderWarning(damage, after: last, input))
    }
    if let size = layout.videoSize {
      metadata.width = size.0
      metadata.height = size.1
    }
    metadata.codedSize = layout.codedSize
    // The track header's size is the display size: it may differ from the coded one (non-square pixels, a
    // scaled track), but not by more than a factor of 4 on a side in any movie a camera or editor writes.
    // Past that it is no size of these pictures (a 64×64 stream in a track claiming 65535×65535): the coded
    // size is shown instead, and the claim named.
    if let coded = layout.codedSize, let width = metadata.width, let height = metadata.height,
      !(coded.width / 4...coded.width * 4).contains(width)
        || !(coded.height / 4...coded.height * 4).contains(height)
    {
      metadata.warnings.append(
        MetadataWarning(
          part: .trackHeader,
          reason: "the track claims \(width)×\(height) pixels, but its pictures are coded at "
            + "\(coded.width)×\(coded.height)"))
      metadata.width = coded.width
      metadata.height = coded.height
    }
    metadata.orientation = layout.videoTransform?.orientation ?? .up
    if let timescale = layout.timescale, timescale > 0, let duration = layout.duration,
      duration != UInt64.max, duration != UInt64(UInt32.max)
    {
      metadata.duration = Double(duration) / Double(timescale)
    }
    for item in layout.metadataItems where item.dataType == 1 && item.value.count <= 4096 {
      let text = String(
        decoding: try input.read(at: item.value.lowerBound, count: item.value.count), as: UTF8.self)
      switch item.key {
      case locationKey: metadata.location = metadata.location ?? ISO6709.parse(text)
      case contentIdentifierKey: metadata.livePhotoID = text
      case creationDateKey: metadata.captureDate = DateParsing.iso8601(text) ?? metadata.captureDate
      case "com.apple.quicktime.make": metadata.make = text
      case "com.apple.quicktime.model": metadata.model = text
      default: continue
      }
    }
    for atom in layout.userData where atom.payload.count <= 4096 {
      switch atom.type {
      case "\u{A9}xyz", "\u{A9}mak", "\u{A9}mod":
        // QuickTime international text: 16-bit length, 16-bit language, text (QTFF "User data text").
        let bytes = try input.read(at: atom.payload.lowerBound, count: atom.payload.count)
        guard bytes.count >= 4 else { continue }
        let length = min(Int(bytes.u16(at: 0, bigEndian: true)), bytes.count - 4)
        let text = String(decoding: bytes[4..<(4 + length)], as: UTF8.self)
        if atom.type == "\u{A9}xyz" {
          metadata.location = metadata.location ?? ISO6709.parse(text)
        } else if atom.type == "\u{A9}mak" {
          metadata.make = metadata.make ?? text
        } else {
          metadata.model = metadata.model ?? text
        }
      case "loci":
        let bytes = try input.read(at: atom.payload.lowerBound, count: atom.payload.count)
        metadata.location = metadata.location ?? locationInformation(bytes)
      default: continue
      }
    }
    if metadata.captureDate == nil, let creation = layout.creationTime {
      metadata.captureDate = DateParsing.quickTime(creation)
    }
    if type == .cr3 { try readCanon(layout, input, limits, into: &metadata) }
    return metadata
  }

  /// 3GPP `loci` (3GPP TS 26.244 §8.4.2.5): version/flags, language, name, role, then longitude, latitude
  /// and altitude as signed 16.16 fixed point.
  static func locationInformation(_ bytes: [UInt8]) -> GPSLocation? {
    var reader = ByteReader(bytes, at: 6)
    _ = reader.cString()
    guard (try? reader.u8()) != nil, let lon = try? reader.u32(), let lat = try? reader.u32(),
      let alt = try? reader.u32()
    else { return nil }
    let fixed = { (value: UInt32) in Double(Int32(bitPattern: value)) / 65536 }
    guard abs(fixed(lat)) <= 90, abs(fixed(lon)) <= 180 else { return nil }
    return GPSLocation(latitude: fixed(lat), longitude: fixed(lon), altitude: fixed(alt))
  }

  /// CR3 keeps IFD0 in `CMT1`, the Exif IFD in `CMT2` and the GPS IFD in `CMT4`, each a TIFF structure of
  /// its own (Canon CR3 format as documented by exiftool's Canon tables and lclevy/canon_cr3).
  private static func readCanon(
    _ layout: QuickTimeLayout, _ input: Input, _ limits: MetadataReader.Limits,
    into metadata: inout MediaMetadata
  ) throws(MetadataError) {
    func reader(_ name: String) throws(MetadataError) -> (TIFFReader, IFD)? {
      guard let box = layout.canon[name] else { return nil }
      guard box.payload.count <= limits.maxValueBytes else {
        throw .limitExceeded("a \(box.payload.count)-byte \(name)")
      }
      let tiff = try TIFFReader(
        input: Input(bytes: try input.read(at: box.payload.lowerBound, count: box.payload.count)), base: 0,
        limits: limits)
      return (tiff, try tiff.directory(at: tiff.firstIFDOffset))
    }
    var facts = ExifFacts()
    if let (tiff, ifd) = try reader("CMT1") { facts = try ExifFacts.read(tiff, TIFFStructure(ifd0: ifd)) }
    if let (tiff, ifd) = try reader("CMT2") {
      let exif = try ExifFacts.read(tiff, TIFFStructure(ifd0: IFD.empty, exif: ifd))
      facts.captureDate = exif.captureDate
      facts.lens = exif.lens
      facts.pixelXDimension = exif.pixelXDimension
      facts.pixelYDimension = exif.pixelYDimension
    }
    if let (tiff, ifd) = try reader("CMT4") {
      facts.location = try ExifFacts.read(tiff, TIFFStructure(ifd0: IFD.empty, gps: ifd)).location
    }
    metadata.merge(facts)
    metadata.orientation = facts.orientation ?? .up
    metadata.width = facts.pixelXDimension ?? facts.imageWidth
    metadata.height = facts.pixelYDimension ?? facts.imageHeight
  }
}

extension IFD {
  static let empty = IFD(position: 0, entries: [], nextOffset: 0)
}
