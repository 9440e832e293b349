extension MediaType {
  /// How many leading bytes ``sniff(_:)`` needs to decide every format it knows.
  ///
  /// ISOBMFF files (HEIF, AVIF, CR3, MP4, MOV) name their brands in the `ftyp` box, which may list many
  /// compatible brands; TIFF-based raw formats are told apart by their first IFD's tags. 4 KiB covers both
  /// in every file seen in practice; a shorter prefix gives a less specific answer, never a wrong one.
  public static let sniffLength = 4096

  /// Decides the media type from the first bytes of a file (at least ``sniffLength`` when available).
  ///
  /// Returns nil for content that is not a photo or movie format PhotoIntake supports.
  ///
  /// ```swift
  /// let type = MediaType.sniff(prefix)   // .heic for an iPhone photo named "IMG_0001.JPG"
  /// ```
  public static func sniff(_ prefix: some Collection<UInt8>) -> MediaType? {
    let bytes = Array(prefix.prefix(sniffLength))
    guard bytes.count >= 4 else { return nil }
    // JPEG: SOI followed by any marker (ITU T.81 B.1.1.2); EXIF files continue with APP1, JFIF with APP0.
    if bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF || hasEarlyMarker(bytes) { return .jpeg }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
      return .webp
    }
    if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      return sniffTIFF(bytes)
    }
    // Raws with a TIFF structure under a magic of their own: Olympus ORF ("IIRO", "IIRS", "MMOR") and
    // Panasonic RW2 / Leica RWL ("IIU\0"), as libraw and exiftool identify them.
    if bytes.starts(with: Array("IIRO".utf8)) || bytes.starts(with: Array("IIRS".utf8))
      || bytes.starts(with: Array("MMOR".utf8))
    {
      return .orf
    }
    if bytes.starts(with: [0x49, 0x49, 0x55, 0x00]) { return .rw2 }
    // Fujifilm RAF: a 16-byte magic, then its version and the camera's name.
    if bytes.starts(with: Array("FUJIFILMCCD-RAW ".utf8)) { return .raf }
    // Canon CRW: a CIFF heap ("II" or "MM", the header's length, "HEAPCCDR"; CIFF 1.0r4 §2.1).
    if bytes.count >= 14, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D,
      Array(bytes[6..<14]) == Array("HEAPCCDR".utf8)
    {
      return .crw
    }
    // Minolta MRW: its block list, big-endian ("\0MRM"); Sigma X3F: "FOVb".
    if bytes.starts(with: [0x00, 0x4D, 0x52, 0x4D]) { return .mrw }
    if bytes.starts(with: Array("FOVb".utf8)) { return .x3f }
    // BigTIFF (magic 43, libtiff 4): scanners and microscopes write it, cameras do not; read as TIFF.
    if bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
      return .tiff
    }
    if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) { return sniffISOBMFF(bytes) }
    // Old QuickTime files may start with other top-level atoms (ISO/IEC 14496-12 4.2; QTFF "Atoms").
    if bytes.count >= 8 {
      let atom = String(decoding: bytes[4..<8], as: UTF8.self)
      if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(atom) { return .mov }
    }
    return nil
  }

  /// Whether a marker that may follow SOI (APPn, COM, DQT, SOFn, DHT, DRI, SOS, RSTn) starts within the 32
  /// bytes after it. A few damaged bytes right after SOI are skipped by libjpeg, which reads on to the next
  /// marker ("Corrupt JPEG data: N extraneous bytes before marker") and decodes the picture; the JPEG reader
  /// then confirms that marker's segment before it reads on.
  ///
  /// Further on, only a marker whose segment the JPEG reader confirms (a frame header in T.81's ranges, a
  /// segment that ends on the next marker) counts: libjpeg skips any number of bytes to it (a writer that
  /// padded its segments, a file with a run of every byte value after SOI), and random bytes after 0xFF 0xD8
  /// hold no such segment.
  private static func hasEarlyMarker(_ bytes: [UInt8]) -> Bool {
    let window = bytes.dropFirst(2).prefix(33)
    let early = zip(window, window.dropFirst()).contains { first, code in
      first == 0xFF
        && ((0xC0...0xCF).contains(code) || (0xD0...0xD7).contains(code) || (0xDA...0xEF).contains(code)
          || code == 0xFE)
    }
    if early { return true }
    let prefix = Input(bytes: bytes)
    return ((try? JPEGSegments.confirmedMarker(prefix, after: 2, within: bytes.count - 2)) ?? nil) != nil
  }

  /// TIFF and the raw formats built on it (CR2, NEF, ARW, DNG, PEF, SRW).
  private static func sniffTIFF(_ bytes: [UInt8]) -> MediaType {
    // CR2: "CR" and major version 2 right after the TIFF header (Canon CR2 spec, byte 8).
    if bytes.count >= 11, bytes[8] == 0x43, bytes[9] == 0x52, bytes[10] == 0x02 { return .cr2 }
    let little = bytes[0] == 0x49
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 2 <= bytes.count else { return nil }
      return little
        ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
      return hi << 16 | lo
    }
    guard let ifd = u32(4), let count = u16(ifd), count < 1024 else { return .tiff }
    var make = ""
    var hasSubIFDs = false
    var isReduced = false
    var photometric: Int?
    for index in 0..<count {
      let entry = ifd + 2 + index * 12
      guard let tag = u16(entry) else { break }
      if tag == 0xC612 { return .dng }  // DNGVersion (DNG 1.6 spec, tag 50706)
      // SubIFDs (TIFF Technical Note 1): where raws keep the sensor data.
      if tag == 0x014A { hasSubIFDs = true }
      // NewSubfileType bit 0: IFD0 is a reduced image, as a raw's preview is (TIFF 6.0 §8).
      if tag == 0x00FE, let type = u16(entry + 2), type == 3 || type == 4,
        let value = type == 3 ? u16(entry + 8) : u32(entry + 8)
      {
        isReduced = value & 1 == 1
      }
      if tag == 0x0106, let value = u16(entry + 8) { photometric = value }
      if tag == 0x010F, let length = u32(entry + 4), let offset = u32(entry + 8), length > 4,
        offset + length <= bytes.count
      {
        make = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self).uppercased()
      }
    }
    return rawTIFFType(make: make, hasSubIFDs: hasSubIFDs, isReduced: isReduced, photometric: photometric)
  }

  /// Which raw a TIFF structure is, from IFD0's Make, whether it has SubIFDs, whether it is a reduced image
  /// (NewSubfileType bit 0) and its PhotometricInterpretation; `.tiff` when it is none. Sniffing decides from
  /// the first 4 KiB, and the TIFF reader again from the whole of IFD0 (a Make whose value lies further).
  static func rawTIFFType(make: String, hasSubIFDs: Bool, isReduced: Bool, photometric: Int?) -> MediaType {
    let make = make.uppercased()
    // A TIFF exported from a Nikon or Sony photo keeps the Make; only raws have the raw image in a SubIFD.
    // A Nikon scanner's TIFF may have SubIFDs too (a reduced copy), but its IFD0 is the full image; a NEF's
    // IFD0 is its small preview.
    if make.hasPrefix("NIKON"), hasSubIFDs, isReduced { return .nef }
    if make.hasPrefix("SONY"), hasSubIFDs { return .arw }
    // Pentax and Samsung raws keep the sensor data in IFD0 (PhotometricInterpretation 32803, a colour filter
    // array) or behind SubIFDs; a TIFF those cameras' software exported is RGB without SubIFDs.
    let isSensorData = photometric == 32803 || hasSubIFDs
    if make.hasPrefix("PENTAX") || make.hasPrefix("ASAHI"), isSensorData || isReduced { return .pef }
    if make.hasPrefix("SAMSUNG"), isSensorData { return .srw }
    return .tiff
  }

  /// HEIF, AVIF, CR3 and the MPEG-4 family, from the `ftyp` brands (ISO/IEC 14496-12 4.3).
  private static func sniffISOBMFF(_ bytes: [UInt8]) -> MediaType? {
    let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    let end = min(max(size, 16), bytes.count)
    let major = String(decoding: bytes[8..<12], as: UTF8.self)
    var brands = [major]
    var at = 16
    while at + 4 <= end {
      brands.append(String(decoding: bytes[at..<(at + 4)], as: UTF8.self))
      at += 4
    }
    // The major brand decides when it is specific; compatible brands break ties (ISO/IEC 23008-12 Annex B).
    let order: [(String, MediaType)] = [
      ("crx ", .cr3), ("avif", .avif), ("avis", .avif), ("heic", .heic), ("heix", .heic),
      ("heim", .heic), ("heis", .heic), ("hevc", .heic), ("hevx", .heic), ("mif1", .heif), ("msf1", .heif),
      ("qt  ", .mov), ("M4V ", .m4v), ("M4VH", .m4v), ("M4VP", .m4v),
    ]
    // `mif1`/`msf1` only say "some HEIF"; a specific compatible brand (heic, avif) is more telling.
    for (brand, type) in order where major == brand && major != "mif1" && major != "msf1" { return type }
    for (brand, type) in order where brands.contains(brand) { return type }
    let mp4Brands: Set<String> = [
      "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "3gp4", "3gp5",
      "MSNV", "f4v ",
    ]
    if brands.contains(where: mp4Brands.contains) { return .mp4 }
    return nil
  }
}
