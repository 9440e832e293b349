/// What an EXIF block or TIFF file says about a photo, before the container's own facts are merged in.
struct ExifFacts {
  var orientation: Orientation?
  var make: String?
  var model: String?
  var lens: String?
  var captureDate: CaptureDate?
  var location: GPSLocation?
  /// IFD0 ImageWidth/ImageLength (TIFF files), or those of the full-resolution sub-IFD of a raw file.
  var imageWidth: Int?
  var imageHeight: Int?
  /// Exif PixelXDimension/PixelYDimension (EXIF 2.32 §4.6.5): a fallback only, editors leave it stale.
  var pixelXDimension: Int?
  var pixelYDimension: Int?
  /// The IFD1 JPEG thumbnail, absolute in the input.
  var thumbnail: Range<Int>?
  var hasICCProfile = false
  /// XMP carried in TIFF tag 700 (TIFF files and raws).
  var xmp: [UInt8]?
  var livePhotoID: String?
  var isDNG = false
  /// Exif and GPS IFDs that could not be read; IFD0's facts are still here (issue 26: a damaged optional part
  /// costs only that part).
  var warnings: [MetadataWarning] = []
  /// What a tolerant read left out of IFD0 (``IFD/damage``): the failure of a TIFF file whose size it cost.
  var ifd0Damage: [String] = []

  /// Reads the facts of the TIFF structure at `base` in `input`.
  static func read(_ input: Input, base: Int, limits: MetadataReader.Limits) throws(MetadataError)
    -> ExifFacts
  {
    let reader = try TIFFReader(input: input, base: base, limits: limits)
    return try read(reader, reader.structure(tolerating: true))
  }

  static func read(_ reader: TIFFReader, _ structure: TIFFStructure) throws(MetadataError) -> ExifFacts {
    var facts = ExifFacts()
    facts.warnings = structure.skipped
    let ifd0 = structure.ifd0
    facts.ifd0Damage = ifd0.damage
    if let entry = ifd0[TIFFTag.orientation], let value = try reader.integer(entry) {
      facts.orientation = Orientation(rawValue: value)
    }
    // Optional values: one that cannot be read (longer than the value limit) costs only itself.
    func optional<T>(_ part: MetadataWarning.Part, _ body: () throws(MetadataError) -> T?)
      throws(MetadataError)
      -> T?
    {
      do {
        return try body()
      } catch {
        if case .io = error { throw error }
        facts.warnings.append(MetadataWarning(part: part, reason: "IFD0: \(error.warningReason)"))
        return nil
      }
    }
    if let entry = ifd0[TIFFTag.make] {
      facts.make = try optional(.tiffDirectory) { () throws(MetadataError) in try reader.string(entry) }
    }
    if let entry = ifd0[TIFFTag.model] {
      facts.model = try optional(.tiffDirectory) { () throws(MetadataError) in try reader.string(entry) }
    }
    facts.hasICCProfile = ifd0[TIFFTag.iccProfile] != nil
    facts.isDNG = ifd0[TIFFTag.dngVersion] != nil
    if let entry = ifd0[TIFFTag.xmp], [1, 7].contains(entry.type) {
      facts.xmp = try optional(.xmp) { () throws(MetadataError) in try reader.bytes(entry) }
    }
    try readDimensions(reader, structure, into: &facts)

    // The Exif and GPS IFDs are optional parts: a value there that cannot be read costs that IFD's facts, as
    // a pointer that cannot be followed does (``TIFFStructure/skipped``).
    if let exif = structure.exif {
      do {
        try readExifIFD(reader, exif, ifd0, into: &facts)
      } catch {
        if case .io = error { throw error }
        facts.warnings.append(MetadataWarning(part: .exif, reason: "the Exif IFD: \(error.warningReason)"))
      }
    }
    if let gps = structure.gps {
      do {
        facts.location = try location(reader, gps)
      } catch {
        if case .io = error { throw error }
        facts.warnings.append(MetadataWarning(part: .exif, reason: "the GPS IFD: \(error.warningReason)"))
      }
    }
    if let ifd1 = structure.ifd1, let start = ifd1[TIFFTag.jpegInterchangeFormat],
      let length = ifd1[TIFFTag.jpegInterchangeFormatLength],
      let offset = try reader.integer(start), let count = try reader.integer(length), count > 0
    {
      let position = reader.base + offset
      if position <= reader.input.size, count <= reader.input.size - position {
        facts.thumbnail = position..<(position + count)
      } else {
        // A thumbnail past the end (a file cut short, a stale offset) costs only the thumbnail.
        facts.warnings.append(
          MetadataWarning(part: .thumbnail, reason: "IFD1's JPEG thumbnail lies past the end of the file"))
      }
    }
    return facts
  }

  /// Lens, pixel dimensions, capture date and the Apple maker note's content identifier from the Exif IFD.
  private static func readExifIFD(
    _ reader: TIFFReader, _ exif: IFD, _ ifd0: IFD, into facts: inout ExifFacts
  ) throws(MetadataError) {
    if let entry = exif[TIFFTag.lensModel] { facts.lens = try reader.string(entry) }
    if let entry = exif[TIFFTag.pixelXDimension] { facts.pixelXDimension = try reader.integer(entry) }
    if let entry = exif[TIFFTag.pixelYDimension] { facts.pixelYDimension = try reader.integer(entry) }
    facts.captureDate = try captureDate(reader, exif, ifd0)
    if let entry = exif[TIFFTag.makerNote], [1, 7].contains(entry.type), entry.byteCount >= 16,
      entry.byteCount <= reader.limits.maxValueBytes,
      let note = try? reader.bytes(entry)
    {
      // Vendor data: a damaged maker note must not make the photo unreadable, so errors are dropped.
      facts.livePhotoID = AppleMakerNote.contentIdentifier(note)
    }
  }

  /// Pixel dimensions of a TIFF file: IFD0's, unless IFD0 is a reduced image (NewSubfileType bit 0, as in
  /// DNG and NEF) and a sub-IFD holds the full-resolution one (DNG 1.6 §"SubIFDs").
  private static func readDimensions(
    _ reader: TIFFReader, _ structure: TIFFStructure, into facts: inout ExifFacts
  )
    throws(MetadataError)
  {
    func size(_ ifd: IFD) throws(MetadataError) -> (Int, Int)? {
      guard let w = ifd[TIFFTag.imageWidth], let h = ifd[TIFFTag.imageLength],
        let width = try reader.integer(w), let height = try reader.integer(h)
      else { return nil }
      return (width, height)
    }
    func isReduced(_ ifd: IFD) throws(MetadataError) -> Bool {
      guard let entry = ifd[TIFFTag.newSubfileType] else { return false }
      return (try reader.integer(entry) ?? 0) & 1 == 1
    }
    var best = try size(structure.ifd0)
    let reduced = try isReduced(structure.ifd0)
    if best == nil || reduced {
      for sub in structure.subIFDs where try !isReduced(sub) {
        if let candidate = try size(sub) {
          best = candidate
          break
        }
      }
    }
    facts.imageWidth = best?.0
    facts.imageHeight = best?.1
  }

  /// DateTimeOriginal with its offset and sub-seconds (EXIF 2.32 §4.6.5, tags 0x9003, 0x9011, 0x9291),
  /// falling back to DateTimeDigitized.
  private static func captureDate(_ reader: TIFFReader, _ exif: IFD, _ ifd0: IFD) throws(MetadataError)
    -> CaptureDate?
  {
    let pairs: [(UInt16, UInt16, UInt16)] = [
      (TIFFTag.dateTimeOriginal, TIFFTag.offsetTimeOriginal, TIFFTag.subSecTimeOriginal),
      (TIFFTag.dateTimeDigitized, TIFFTag.offsetTimeDigitized, TIFFTag.subSecTimeDigitized),
    ]
    for (dateTag, offsetTag, subSecTag) in pairs {
      guard let entry = exif[dateTag], let text = try reader.string(entry) else { continue }
      let offset = try reader.string(exif[offsetTag])
      let subSec = try reader.string(exif[subSecTag])
      if let date = DateParsing.exif(text, subSeconds: subSec, offset: offset) { return date }
    }
    return nil
  }

  /// Latitude, longitude, altitude and fix time from the GPS IFD (EXIF 2.32 §4.6.6).
  private static func location(_ reader: TIFFReader, _ gps: IFD) throws(MetadataError) -> GPSLocation? {
    func degrees(_ tag: UInt16, _ refTag: UInt16, negative: String) throws(MetadataError) -> Double? {
      guard let entry = gps[tag] else { return nil }
      let parts = try reader.rationals(entry)
      guard parts.count >= 1, let d = parts[0] else { return nil }
      let m = parts.count > 1 ? (parts[1] ?? 0) : 0
      let s = parts.count > 2 ? (parts[2] ?? 0) : 0
      var value = d + m / 60 + s / 3600
      if let ref = gps[refTag], try reader.string(ref)?.uppercased() == negative { value = -value }
      return value
    }
    guard let latitude = try degrees(TIFFTag.gpsLatitude, TIFFTag.gpsLatitudeRef, negative: "S"),
      let longitude = try degrees(TIFFTag.gpsLongitude, TIFFTag.gpsLongitudeRef, negative: "W"),
      abs(latitude) <= 90, abs(longitude) <= 180
    else { return nil }
    var location = GPSLocation(latitude: latitude, longitude: longitude)
    if let entry = gps[TIFFTag.gpsAltitude], let altitude = try reader.rationals(entry).first ?? nil {
      let below = try reader.integer(gps[TIFFTag.gpsAltitudeRef])
      location.altitude = below == 1 ? -altitude : altitude
    }
    if let dateEntry = gps[TIFFTag.gpsDateStamp], let date = try reader.string(dateEntry),
      let timeEntry = gps[TIFFTag.gpsTimeStamp]
    {
      let parts = try reader.rationals(timeEntry)
      if parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2] {
        location.timestamp = DateParsing.gpsTimestamp(date: date, hour: h, minute: m, second: s)
      }
    }
    return location
  }
}
