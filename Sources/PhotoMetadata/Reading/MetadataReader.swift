/// Reads the facts of a photo or movie from its container headers and metadata segments.
///
/// Only headers and metadata are read, never pixel data, and every read is bounded by ``Limits``:
///
/// ```swift
/// let metadata = try MetadataReader.read(fileAt: "/tmp/IMG_0001.HEIC")
/// print(metadata.type, metadata.width ?? 0, metadata.location?.latitude ?? 0)
/// ```
public enum MetadataReader {
  /// Hard caps that keep a crafted file from costing unbounded time or memory.
  public struct Limits: Sendable, Hashable {
    /// Total bytes read from the input (headers, metadata blocks, box headers).
    public var maxBytesRead = 64 << 20
    /// Bytes of one metadata value: an EXIF value, an XMP packet, a HEIF Exif item, the HEIF `meta` box.
    public var maxValueBytes = 8 << 20
    /// Entries in one TIFF/EXIF directory (TIFF allows 65535; cameras write fewer than 300).
    public var maxIFDEntries = 4096
    /// Directories reached in one TIFF structure.
    public var maxIFDs = 64
    /// Levels of sub-directory pointers.
    public var maxIFDDepth = 8
    /// JPEG marker segments before the image data.
    public var maxSegments = 4096
    /// ISOBMFF boxes visited, over the whole file.
    public var maxBoxes = 100_000
    /// ISOBMFF box nesting.
    public var maxBoxDepth = 16
    /// PNG, RIFF and GIF chunks or blocks visited.
    public var maxChunks = 1 << 20
    /// HEIF items, properties and extents.
    public var maxItems = 50_000
    /// Declared width × height above which the file is refused as a decompression bomb.
    public var maxPixels = 1 << 30

    /// The default limits described on each property.
    public init() {}

    /// The default limits.
    public static let `default` = Limits()
  }

  /// Reads a file with bounded `pread` calls.
  ///
  /// The file-name extension, or `hint` when given (a picker's suggested name or type identifier, for a
  /// staged file whose own name says nothing), is used only to report a disagreement: when it names another
  /// type than the bytes, the result's ``MediaMetadata/hintedType`` says so and the bytes decide.
  ///
  /// - Throws: ``MetadataError``: `.unsupported` for unknown content, `.truncated`, `.corrupt`,
  ///   `.limitExceeded`, `.io(errno)` when the file cannot be opened or read.
  public static func read(fileAt path: String, hint: String? = nil, limits: Limits = .default)
    throws(MetadataError) -> MediaMetadata
  {
    let input = try Input(path: path, budget: limits.maxBytesRead)
    return try read(input, hint: extensionHint(hint ?? path), limits: limits)
  }

  /// Reads a file already in memory (tests, fuzzers, data handed over by a picker).
  ///
  /// - Parameter hint: a file name, extension or type identifier the bytes are claimed to be.
  public static func read(bytes: [UInt8], hint: String? = nil, limits: Limits = .default)
    throws(MetadataError)
    -> MediaMetadata
  {
    let input = Input(bytes: bytes, budget: limits.maxBytesRead)
    return try read(input, hint: hint.map(extensionHint), limits: limits)
  }

  static func read(_ input: Input, hint: String?, limits: Limits) throws(MetadataError) -> MediaMetadata {
    let type = try sniff(input)
    var metadata: MediaMetadata
    switch type {
    case .jpeg: metadata = try JPEGReader.read(input, limits: limits)
    case .png: metadata = try PNGReader.read(input, limits: limits)
    case .gif: metadata = try GIFReader.read(input, limits: limits)
    case .webp: metadata = try WebPReader.read(input, limits: limits)
    case .tiff, .dng, .cr2, .nef, .arw, .orf, .rw2, .pef, .srw:
      metadata = try TIFFFileReader.read(input, type: type, limits: limits)
    case .raf: metadata = try RAFReader.read(input, limits: limits)
    case .crw: metadata = try CRWReader.read(input, limits: limits)
    case .mrw: metadata = try MRWReader.read(input, limits: limits)
    case .x3f: metadata = try X3FReader.read(input, limits: limits)
    case .heic, .heif, .heics, .avif: metadata = try HEIFReader.read(input, type: type, limits: limits)
    case .mov, .mp4, .m4v, .cr3: metadata = try QuickTimeReader.read(input, type: type, limits: limits)
    }
    metadata.hdrGainMap = metadata.hdrGainMap ?? (metadata.hasGainMap ? .iso : HDRGainMap.none)
    // A sequence named .heic or .heif is not misnamed: phones and cameras give bursts those names.
    let sequenceNamedHEIF = { (hinted: MediaType) in
      metadata.type == .heics && [.heic, .heif].contains(hinted)
    }
    if let hint, let hinted = MediaType(hint: hint), hinted != metadata.type, !sequenceNamedHEIF(hinted) {
      metadata.hintedType = hinted
    }
    if let pixels = metadata.declaredPixelCount, pixels > limits.maxPixels {
      throw .limitExceeded("\(metadata.width ?? 0)×\(metadata.height ?? 0) declared pixels")
    }
    return metadata
  }

  static func sniff(_ input: Input) throws(MetadataError) -> MediaType {
    let prefix = try input.readAvailable(at: 0, count: MediaType.sniffLength)
    guard let type = MediaType.sniff(prefix) else {
      throw isCutSignature(prefix) ? .truncated : .unsupported
    }
    return type
  }

  /// Whether a file too short to identify is the start of a known signature (a download cut short).
  static func isCutSignature(_ prefix: [UInt8]) -> Bool {
    guard !prefix.isEmpty, prefix.count < 12 else { return false }
    let signatures: [[UInt8]] = [
      [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8),
      Array("GIF87a".utf8), Array("RIFF".utf8), [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],
      [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
    ]
    let matches = signatures.contains { signature in
      let count = min(signature.count, prefix.count)
      return Array(signature.prefix(count)) == Array(prefix.prefix(count))
    }
    if matches { return true }
    // ISOBMFF: a box size, then "ftyp".
    return prefix.count > 4 && Array("ftyp".utf8).starts(with: prefix[4...].prefix(4))
  }

  /// "photo.JPG" → "JPG"; a bare extension or type identifier is returned as is.
  static func extensionHint(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return name }
    if name.hasPrefix("public.") || name.contains("/") || name.filter({ $0 == "." }).count > 1 {
      return name
    }
    return String(name[name.index(after: dot)...])
  }
}

extension MediaMetadata {
  /// Fills the fields still unknown from `facts` (EXIF first, then XMP, in the callers), and keeps the
  /// warnings of the IFDs it skipped.
  /// Orientation is not merged: each container decides which source rules (HEIF ignores EXIF's).
  mutating func merge(_ facts: ExifFacts) {
    make = make ?? facts.make
    model = model ?? facts.model
    lens = lens ?? facts.lens
    captureDate = captureDate ?? facts.captureDate
    location = location ?? facts.location
    hasICCProfile = hasICCProfile || facts.hasICCProfile
    livePhotoID = livePhotoID ?? facts.livePhotoID
    warnings += facts.warnings
  }
}
