/// The facts of one photo or movie, read from its container headers and metadata segments.
///
/// Every field is optional where the file may not carry it. Values are as the file states them, except
/// ``width`` and ``height``, which come from the codec headers (SOF, IHDR, `ispe`, VP8*, `tkhd`) rather than
/// from EXIF, which editors often leave stale.
public struct MediaMetadata: Sendable, Hashable, Codable {
  /// The format, decided from the bytes.
  public var type: MediaType
  /// Stored pixel width, before orientation is applied.
  public var width: Int?
  /// Stored pixel height, before orientation is applied.
  public var height: Int?
  /// How the stored pixels must be turned to show the picture upright.
  public var orientation: Orientation
  /// When the photo was taken, as the camera recorded it.
  public var captureDate: CaptureDate?
  /// Where the photo was taken.
  public var location: GPSLocation?
  /// The camera's maker (EXIF `Make`).
  public var make: String?
  /// The camera's model (EXIF `Model`).
  public var model: String?
  /// The lens (EXIF `LensModel`).
  public var lens: String?
  /// Whether an ICC colour profile is embedded.
  public var hasICCProfile: Bool
  /// Whether an HDR gain map is embedded (Apple HDR gain map, ISO 21496-1, or Ultra HDR).
  public var hasGainMap: Bool
  /// Embedded reduced-size images, for the rendition fast path.
  public var previews: [EmbeddedPreview]
  /// Pairs a Live Photo's still with its movie (Apple MakerNote 0x11 / `com.apple.quicktime.content.identifier`).
  public var livePhotoID: String?
  /// Movie duration in seconds.
  public var duration: Double?
  /// The type a file name or type hint claimed, when it disagrees with the bytes (which decide ``type``).
  public var hintedType: MediaType?
  /// The largest canvas a decoder may allocate for any frame, page, tile or grid of the file, when someone
  /// looked (``CanvasScanner``; imaging's header pass does, ``MetadataReader`` does not, since a GIF must be
  /// walked to its end). Bomb guards check it as well as ``width`` × ``height``.
  public var largestCanvas: PixelSize? = nil
  /// Which kind of HDR gain map is embedded; nil in facts recorded before the kind was looked for (then only
  /// ``hasGainMap`` is known).
  public var hdrGainMap: HDRGainMap? = nil
  /// Whether a depth or disparity map is embedded (HEIF depth auxiliary image, MPF disparity image, Google
  /// `GDepth` / dynamic-depth XMP).
  public var hasDepth = false
  /// Whether the file holds a stereo pair (HEIF `ster` entity group, as spatial photos have; MPF multi-frame
  /// disparity images).
  public var isStereoPair = false
  /// Whether the image has an alpha channel (HEIF/AVIF alpha auxiliary image, PNG colour type or `tRNS`,
  /// WebP VP8X alpha flag).
  public var hasAlpha = false
  /// For an image sequence or burst (``MediaType/heics``), how many frames its track holds.
  public var frameCount: Int? = nil
  /// For a movie or an image sequence, the size of its coded pictures as its codec configuration states
  /// it (the H.264 or HEVC sequence parameter set a decoder allocates frames from), when it could be read.
  /// The track header's size (``width`` × ``height``) is only a claim; this one prices a decode
  /// (``declaredPixelCount``).
  public var codedSize: PixelSize? = nil
  /// Optional parts that were damaged and skipped; every other fact is complete.
  public var warnings: [MetadataWarning] = []

  /// Facts about a file of type `type`; what was not found stays nil.
  public init(
    type: MediaType, width: Int? = nil, height: Int? = nil, orientation: Orientation = .up,
    captureDate: CaptureDate? = nil, location: GPSLocation? = nil, make: String? = nil,
    model: String? = nil, lens: String? = nil, hasICCProfile: Bool = false, hasGainMap: Bool = false,
    previews: [EmbeddedPreview] = [], livePhotoID: String? = nil, duration: Double? = nil,
    hintedType: MediaType? = nil
  ) {
    self.type = type
    self.width = width
    self.height = height
    self.orientation = orientation
    self.captureDate = captureDate
    self.location = location
    self.make = make
    self.model = model
    self.lens = lens
    self.hasICCProfile = hasICCProfile
    self.hasGainMap = hasGainMap
    self.previews = previews
    self.livePhotoID = livePhotoID
    self.duration = duration
    self.hintedType = hintedType
  }

  /// Declared pixel count, used to refuse decompression bombs before any decode: the coded pictures' size
  /// when the codec configuration states it (``codedSize``: a movie is decoded at the size its stream codes,
  /// whatever its track header claims), else width × height.
  public var declaredPixelCount: Int? {
    if let codedSize { return codedSize.pixelCount }
    guard let width, let height else { return nil }
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }
}

/// The kind of HDR gain map a photo carries.
public enum HDRGainMap: String, Sendable, Hashable, Codable, CaseIterable {
  /// No gain map.
  case none
  /// Apple's gain map: a HEIF auxiliary image of type `urn:com:apple:photo:2020:aux:hdrgainmap`, or a JPEG
  /// MPF image marked with Apple's `HDRGainMap` XMP.
  case apple
  /// ISO 21496-1: a HEIF `tmap` item, or a JPEG gain map described by ISO 21496-1 metadata or the Adobe /
  /// Ultra HDR `hdrgm:` XMP it standardises.
  ///
  /// In a JPEG the gain map is an MPF image, and only its own metadata counts: a primary image whose
  /// `hdrgm:` XMP or ISO 21496-1 APP2 outlived the gain-map image (an editor dropped it) has ``none``.
  case iso
}

extension MediaMetadata {
  private enum NewKeys: String, CodingKey {
    case type, width, height, orientation, captureDate, location, make, model, lens, hasICCProfile, hasGainMap
    case previews, livePhotoID, duration, hintedType, largestCanvas, hdrGainMap, hasDepth, isStereoPair
    case hasAlpha, frameCount, warnings, codedSize
  }

  /// Decodes facts stored by any version: fields added later (gain-map kind, depth, stereo, alpha, frame
  /// count, warnings) default to "not found" when absent, so manifests written before them stay readable.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: NewKeys.self)
    self.init(type: try c.decode(MediaType.self, forKey: .type))
    width = try c.decodeIfPresent(Int.self, forKey: .width)
    height = try c.decodeIfPresent(Int.self, forKey: .height)
    orientation = try c.decodeIfPresent(Orientation.self, forKey: .orientation) ?? .up
    captureDate = try c.decodeIfPresent(CaptureDate.self, forKey: .captureDate)
    location = try c.decodeIfPresent(GPSLocation.self, forKey: .location)
    make = try c.decodeIfPresent(String.self, forKey: .make)
    model = try c.decodeIfPresent(String.self, forKey: .model)
    lens = try c.decodeIfPresent(String.self, forKey: .lens)
    hasICCProfile = try c.decodeIfPresent(Bool.self, forKey: .hasICCProfile) ?? false
    hasGainMap = try c.decodeIfPresent(Bool.self, forKey: .hasGainMap) ?? false
    previews = try c.decodeIfPresent([EmbeddedPreview].self, forKey: .previews) ?? []
    livePhotoID = try c.decodeIfPresent(String.self, forKey: .livePhotoID)
    duration = try c.decodeIfPresent(Double.self, forKey: .duration)
    hintedType = try c.decodeIfPresent(MediaType.self, forKey: .hintedType)
    largestCanvas = try c.decodeIfPresent(PixelSize.self, forKey: .largestCanvas)
    hdrGainMap = try c.decodeIfPresent(HDRGainMap.self, forKey: .hdrGainMap)
    hasDepth = try c.decodeIfPresent(Bool.self, forKey: .hasDepth) ?? false
    isStereoPair = try c.decodeIfPresent(Bool.self, forKey: .isStereoPair) ?? false
    hasAlpha = try c.decodeIfPresent(Bool.self, forKey: .hasAlpha) ?? false
    frameCount = try c.decodeIfPresent(Int.self, forKey: .frameCount)
    warnings = try c.decodeIfPresent([MetadataWarning].self, forKey: .warnings) ?? []
    codedSize = try c.decodeIfPresent(PixelSize.self, forKey: .codedSize)
  }

  /// Records a gain map of `kind`; an ISO 21496-1 description wins over Apple's (iOS 18 writes both).
  mutating func noteGainMap(_ kind: HDRGainMap) {
    guard kind != .none else { return }
    hasGainMap = true
    if hdrGainMap != .iso { hdrGainMap = kind }
  }
}

/// EXIF orientation (EXIF 2.32 §4.6.5, tag 0x0112): how to transform stored pixels to display them upright.
public enum Orientation: Int, Sendable, Hashable, Codable, CaseIterable {
  /// 1: as stored.
  case up = 1
  /// 2: mirrored left to right.
  case upMirrored = 2
  /// 3: turned 180°.
  case down = 3
  /// 4: mirrored top to bottom.
  case downMirrored = 4
  /// 5: mirrored along the top-left to bottom-right diagonal.
  case leftMirrored = 5
  /// 6: stored turned 90° counter-clockwise; display by turning 90° clockwise.
  case right = 6
  /// 7: mirrored along the top-right to bottom-left diagonal.
  case rightMirrored = 7
  /// 8: stored turned 90° clockwise; display by turning 90° counter-clockwise.
  case left = 8

  /// Whether width and height swap when the orientation is applied.
  public var swapsDimensions: Bool { rawValue >= 5 }
}

/// A capture time as the camera wrote it, with its UTC offset when the file records one.
public struct CaptureDate: Sendable, Hashable, Codable {
  /// The local date and time as written, normalised to `YYYY-MM-DDTHH:MM:SS[.fff]` (ISO 8601, no offset).
  public var local: String
  /// The offset from UTC in seconds east (e.g. +02:00 → 7200), when known.
  public var offsetSeconds: Int?
  /// Seconds since 1970-01-01T00:00:00Z, when the offset is known (or the source is in UTC, as QuickTime is).
  public var utcTimestamp: Double?

  /// A capture date as written in the file, with its offset from UTC and a UTC timestamp when known.
  public init(local: String, offsetSeconds: Int? = nil, utcTimestamp: Double? = nil) {
    self.local = local
    self.offsetSeconds = offsetSeconds
    self.utcTimestamp = utcTimestamp
  }

  /// The offset as `+HH:MM` / `-HH:MM`, as EXIF OffsetTimeOriginal spells it.
  public var offsetString: String? {
    guard let offsetSeconds else { return nil }
    let sign = offsetSeconds < 0 ? "-" : "+"
    let minutes = abs(offsetSeconds) / 60
    let hh = String(minutes / 60), mm = String(minutes % 60)
    return sign + String(repeating: "0", count: 2 - min(2, hh.count)) + hh + ":"
      + String(repeating: "0", count: 2 - min(2, mm.count)) + mm
  }
}

/// A position on Earth in WGS 84 decimal degrees (south and west negative).
public struct GPSLocation: Sendable, Hashable, Codable {
  /// Degrees north of the equator (south negative).
  public var latitude: Double
  /// Degrees east of Greenwich (west negative).
  public var longitude: Double
  /// Metres above sea level (negative below).
  public var altitude: Double?
  /// The GPS fix time as `YYYY-MM-DDTHH:MM:SSZ`, when recorded.
  public var timestamp: String?

  /// A position in decimal degrees.
  public init(latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: String? = nil) {
    self.latitude = latitude
    self.longitude = longitude
    self.altitude = altitude
    self.timestamp = timestamp
  }
}

/// A reduced-size image stored inside a file, which can be decoded instead of the full image.
public struct EmbeddedPreview: Sendable, Hashable, Codable {
  /// Where the preview is stored.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// The EXIF IFD1 JPEG thumbnail (EXIF 2.32 §4.5.4), usually 160×120.
    case exifThumbnail
    /// An image of a Multi-Picture Format file (CIPA DC-007), e.g. a large preview or a gain map.
    case mpfImage
    /// A HEIF thumbnail item (`thmb` reference, ISO/IEC 23008-12 §6.4.2).
    case heifThumbnail
    /// A picture a camera stored in a raw file beside its sensor data (`RawPreviews`): a JPEG in a TIFF
    /// directory, a maker note, RW2's JpgFromRaw, RAF's header or CR3's `PRVW` box, or 8-bit RGB samples in a
    /// TIFF directory (``EmbeddedPreview/type`` `.tiff`). Stored unturned, like the raw: the file's orientation
    /// applies to it.
    case rawPreview
  }

  /// Where the preview is stored.
  public var kind: Kind
  /// The preview's coded format (`.jpeg` for EXIF/MPF; `.heic` or `.avif` for HEIF thumbnail items). A raw
  /// file's ``Kind/rawPreview`` is `.jpeg`, or `.tiff` for uncompressed samples: `width` × `height` pixels of
  /// 8-bit RGB, row after row, in the `length` bytes at `offset`.
  public var type: MediaType
  /// The preview's width in pixels, when declared.
  public var width: Int?
  /// The preview's height in pixels, when declared.
  public var height: Int?
  /// Absolute byte offset of the preview's coded data in the file, when it is one contiguous range.
  public var offset: Int?
  /// Byte length of that range.
  public var length: Int?
  /// The HEIF item ID of a thumbnail item, whose decoder configuration (`hvcC`, `av1C`) lives in its
  /// properties rather than in the byte range.
  public var itemID: Int?
  /// For an MPF image, its MP Type code (CIPA DC-007 §5.2.3.3.1): 0x010001/0x010002 are large thumbnails
  /// (previews); 0x020001…0x020003 multi-frame images; 0 is used for gain maps (Ultra HDR, Apple HDR).
  public var mpfTypeCode: Int?

  /// Whether this is an image meant to be shown in place of the primary one: EXIF and HEIF thumbnails, and
  /// MPF large thumbnails. Gain maps and disparity images are not.
  public var isDisplayPreview: Bool {
    switch kind {
    case .exifThumbnail, .heifThumbnail, .rawPreview: true
    case .mpfImage: mpfTypeCode == 0x01_0001 || mpfTypeCode == 0x01_0002
    }
  }

  /// A preview of the given kind, type, size and location.
  public init(
    kind: Kind, type: MediaType, width: Int? = nil, height: Int? = nil, offset: Int? = nil,
    length: Int? = nil, itemID: Int? = nil, mpfTypeCode: Int? = nil
  ) {
    self.kind = kind
    self.type = type
    self.width = width
    self.height = height
    self.offset = offset
    self.length = length
    self.itemID = itemID
    self.mpfTypeCode = mpfTypeCode
  }
}
