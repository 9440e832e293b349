/// A media format, decided from the bytes of a file and never from its name or a type hint.
///
/// The raw value is the short name used in the library manifest, in JSON output and on the command line.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
  /// JPEG (JFIF or EXIF).
  case jpeg
  /// PNG.
  case png
  /// GIF.
  case gif
  /// WebP.
  case webp
  /// HEIF with an HEVC-coded image.
  case heic
  /// HEIF with another codec.
  case heif
  /// A HEIF image sequence or burst: its pictures are the samples of a `pict` track (brand `msf1`,
  /// ISO/IEC 23008-12 §7), with no `meta` box of items. The bytes decide it when ``MetadataReader`` finds
  /// the track and no items; sniffing the first bytes alone says ``heic`` or ``heif``.
  case heics
  /// AVIF (HEIF with an AV1-coded image).
  case avif
  /// TIFF.
  case tiff
  /// Adobe DNG raw.
  case dng
  /// Canon CR2 raw.
  case cr2
  /// Nikon NEF raw.
  case nef
  /// Sony ARW raw.
  case arw
  /// Canon CR3 raw.
  case cr3
  /// Olympus / OM System ORF raw (TIFF structure with its own magic, `IIRO`, `IIRS` or `MMOR`).
  case orf
  /// Panasonic RW2 raw, and Leica's RWL of the same layout (TIFF structure with magic 0x55, `IIU\0`).
  case rw2
  /// Pentax PEF raw.
  case pef
  /// Fujifilm RAF raw (a header of its own, an embedded JPEG with the EXIF, then the sensor data).
  case raf
  /// Samsung SRW raw.
  case srw
  /// Canon CRW raw, the Camera Image File Format (CIFF) of Canon's cameras before the CR2: a heap of records of
  /// its own, not TIFF.
  case crw
  /// Konica Minolta MRW raw: blocks of Minolta's own, one of them a TIFF structure with the EXIF.
  case mrw
  /// Sigma / Foveon X3F raw: a header with the image's size, sections listed by a directory at the end.
  case x3f
  /// QuickTime movie.
  case mov
  /// MPEG-4 video.
  case mp4
  /// Apple MPEG-4 video.
  case m4v

  /// Whether the format holds a still image (as opposed to a movie).
  public var isImage: Bool {
    switch self {
    case .mov, .mp4, .m4v: false
    default: true
    }
  }

  /// Whether the format holds a movie.
  public var isMovie: Bool { !isImage }

  /// Whether the format is a camera raw: sensor data that a raw developer turns into a picture. PhotoIntake
  /// keeps raws byte for byte and shows the preview the camera embedded in them; it never develops one.
  public var isRaw: Bool {
    switch self {
    case .dng, .cr2, .cr3, .nef, .arw, .orf, .rw2, .pef, .raf, .srw, .crw, .mrw, .x3f: true
    default: false
    }
  }

  /// The usual file-name extension, without the dot.
  public var preferredFilenameExtension: String {
    switch self {
    case .jpeg: "jpg"
    case .tiff: "tif"
    default: rawValue
    }
  }

  /// The Uniform Type Identifier Apple platforms use for the format.
  public var uniformTypeIdentifier: String {
    switch self {
    case .jpeg: "public.jpeg"
    case .png: "public.png"
    case .gif: "com.compuserve.gif"
    case .webp: "org.webmproject.webp"
    case .heic: "public.heic"
    case .heif: "public.heif"
    case .heics: "public.heics"
    case .avif: "public.avif"
    case .tiff: "public.tiff"
    case .dng: "com.adobe.raw-image"
    case .cr2: "com.canon.cr2-raw-image"
    case .nef: "com.nikon.raw-image"
    case .arw: "com.sony.arw-raw-image"
    case .cr3: "com.canon.cr3-raw-image"
    case .orf: "com.olympus.raw-image"
    case .rw2: "com.panasonic.rw2-raw-image"
    case .pef: "com.pentax.raw-image"
    case .raf: "com.fuji.raw-image"
    case .srw: "com.samsung.raw-image"
    case .crw: "com.canon.crw-raw-image"
    case .mrw: "com.konicaminolta.raw-image"
    case .x3f: "com.sigma.raw-image"
    case .mov: "com.apple.quicktime-movie"
    case .mp4: "public.mpeg-4"
    case .m4v: "com.apple.m4v-video"
    }
  }

  /// The MIME type, for HTML and HTTP.
  public var mimeType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .gif: "image/gif"
    case .webp: "image/webp"
    case .heic: "image/heic"
    case .heif: "image/heif"
    case .heics: "image/heic-sequence"
    case .avif: "image/avif"
    case .tiff, .dng, .cr2, .nef, .arw: "image/tiff"
    case .cr3: "image/x-canon-cr3"
    case .orf: "image/x-olympus-orf"
    case .rw2: "image/x-panasonic-rw2"
    case .pef: "image/x-pentax-pef"
    case .raf: "image/x-fuji-raf"
    case .srw: "image/x-samsung-srw"
    case .crw: "image/x-canon-crw"
    case .mrw: "image/x-minolta-mrw"
    case .x3f: "image/x-sigma-x3f"
    case .mov: "video/quicktime"
    case .mp4: "video/mp4"
    case .m4v: "video/x-m4v"
    }
  }

  /// The media type a file-name extension or a type identifier suggests, if any.
  ///
  /// Use it only to report a disagreement with the bytes (``sniff(_:)`` decides the type).
  public init?(hint: String) {
    let lowered = hint.lowercased()
    let key = lowered.hasPrefix(".") ? String(lowered.dropFirst()) : lowered
    switch key {
    case "jpg", "jpeg", "jpe", "public.jpeg", "image/jpeg": self = .jpeg
    case "png", "public.png", "image/png": self = .png
    case "gif", "com.compuserve.gif", "image/gif": self = .gif
    case "webp", "org.webmproject.webp", "image/webp": self = .webp
    case "heic", "public.heic", "image/heic": self = .heic
    case "heics", "heifs", "public.heics", "image/heic-sequence", "image/heif-sequence": self = .heics
    case "heif", "hif", "public.heif", "image/heif": self = .heif
    case "avif", "public.avif", "image/avif": self = .avif
    case "tif", "tiff", "public.tiff", "image/tiff": self = .tiff
    case "dng", "com.adobe.raw-image": self = .dng
    case "cr2", "com.canon.cr2-raw-image": self = .cr2
    case "nef", "nrw", "com.nikon.raw-image", "com.nikon.nrw-raw-image": self = .nef
    case "arw", "com.sony.arw-raw-image": self = .arw
    case "cr3", "com.canon.cr3-raw-image": self = .cr3
    case "orf", "com.olympus.raw-image", "com.olympus.or-raw-image": self = .orf
    case "rw2", "rwl", "com.panasonic.rw2-raw-image", "com.leica.rwl-raw-image": self = .rw2
    case "pef", "com.pentax.raw-image": self = .pef
    case "raf", "com.fuji.raw-image": self = .raf
    case "srw", "com.samsung.raw-image": self = .srw
    case "crw", "com.canon.crw-raw-image": self = .crw
    case "mrw", "com.konicaminolta.raw-image", "com.minolta.raw-image": self = .mrw
    case "x3f", "com.sigma.raw-image", "com.sigma.x3f-raw-image": self = .x3f
    case "mov", "qt", "com.apple.quicktime-movie", "video/quicktime": self = .mov
    case "mp4", "public.mpeg-4", "video/mp4": self = .mp4
    case "m4v", "com.apple.m4v-video", "video/x-m4v": self = .m4v
    default: return nil
    }
  }
}
