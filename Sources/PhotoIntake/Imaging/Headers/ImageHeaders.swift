import PhotoMetadata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What imaging must know about a file before it decodes anything: the format (from the bytes), the declared
/// size and the largest canvas of any frame, page, tile or grid, the orientation and the embedded previews
/// that may stand in for the image.
///
/// A thin view of ``MetadataReader``: the same bounded header reads the importer uses, with the pixel cap
/// lifted (``ThumbnailPlan`` applies the renditions' own limit) and the previews narrowed to those a decoder
/// here can show:
/// - MPF images only when they are large thumbnails (``EmbeddedPreview/isDisplayPreview``), never a gain map
///   or disparity image;
/// - for HEIF, the primary image's first `thmb` item, the one libheif's and ImageIO's thumbnail calls return.
package enum ImageHeaders {
  /// Reads the headers of the image at `path`.
  ///
  /// - Throws: ``ImagingError/unsupportedContent(type:)`` for bytes that are not a still image,
  ///   ``ImagingError/malformed(reason:)`` for damaged headers, ``ImagingError/fileNotFound`` and other I/O
  ///   errors.
  package static func read(fileAt path: String) throws(ImagingError) -> MediaMetadata {
    try survey(fileAt: path).metadata
  }

  /// Reads the headers of the image at `path`, and what they say about the cost of decoding it (frames,
  /// tiles referenced, a JPEG's coding process, a PNG's interlacing) for ``DecodeCost``.
  ///
  /// - Throws: as ``read(fileAt:)``.
  package static func survey(fileAt path: String) throws(ImagingError)
    -> (metadata: MediaMetadata, shape: DecodeShape)
  {
    let file = try HeaderFile(path: path)
    // Sniffed first, so that a movie or an empty file says what it is rather than how its headers fail.
    try checkIsImage(file.bytes(at: 0, length: MediaType.sniffLength))
    var metadata: MediaMetadata
    let survey: CanvasScanner.Survey
    do {
      metadata = try MetadataReader.read(fileAt: path, limits: limits)
      // Every frame, page, tile and grid, so that the bomb guard sees what a decoder would allocate.
      survey = try CanvasScanner.survey(fileAt: path, limits: limits)
      metadata.largestCanvas = survey.largestCanvas
    } catch {
      throw imagingError(error)
    }
    let usable = try usable(metadata)
    return (usable, try DecodeShape.read(file, type: usable.type, survey: survey))
  }

  /// The pixels of one coded picture of the movie or image sequence at `path`, from its codec configuration
  /// (``PhotoMetadata/MediaMetadata/codedSize``): what a decoder allocates per frame, whatever the track header
  /// claims. nil when the headers cannot be read or state no coded size (the backend then checks the size its
  /// demuxer reports).
  package static func codedPixels(ofMovieAt path: String) -> Int? {
    (try? MetadataReader.read(fileAt: path, limits: limits))?.codedSize?.pixelCount
  }

  /// The in-memory form: for a file already read through a descriptor (a rendition), and for tests.
  static func read(bytes: [UInt8]) throws(ImagingError) -> MediaMetadata {
    try checkIsImage(bytes)
    var metadata: MediaMetadata
    do {
      metadata = try MetadataReader.read(bytes: bytes, limits: limits)
      metadata.largestCanvas = try CanvasScanner.largestCanvas(bytes: bytes, limits: limits)
    } catch {
      throw imagingError(error)
    }
    return try usable(metadata)
  }

  private static func checkIsImage(_ prefix: [UInt8]) throws(ImagingError) {
    guard let type = MediaType.sniff(prefix) else { throw .unsupportedContent(type: nil) }
    guard type.isImage else { throw .unsupportedContent(type: type) }
  }

  private static var limits: MetadataReader.Limits {
    var limits = MetadataReader.Limits()
    limits.maxPixels = .max
    return limits
  }

  private static func usable(_ metadata: MediaMetadata) throws(ImagingError) -> MediaMetadata {
    guard metadata.type.isImage else { throw .unsupportedContent(type: metadata.type) }
    var metadata = metadata
    var seenHEIFThumbnail = false
    metadata.previews = metadata.previews.filter { preview in
      guard preview.isDisplayPreview else { return false }
      guard preview.kind == .heifThumbnail else { return true }
      defer { seenHEIFThumbnail = true }
      return !seenHEIFThumbnail
    }
    return metadata
  }

  private static func imagingError(_ error: MetadataError) -> ImagingError {
    switch error {
    case .unsupported: .unsupportedContent(type: nil)
    case .io(let code) where code == ENOENT || code == ENOTDIR: .fileNotFound
    case .io(let code) where code == EACCES || code == EPERM: .permissionDenied
    case .io(let code): .ioError(operation: "read", code: code)
    case .truncated, .corrupt, .limitExceeded, .cannotStrip: .malformed(reason: error.headerReason)
    }
  }
}

extension MetadataError {
  /// The reason as ``ImagingError/malformed(reason:)`` words it ("the headers are …").
  fileprivate var headerReason: String {
    switch self {
    case .truncated: "the file is incomplete"
    case .corrupt(let reason): reason
    case .limitExceeded(let what): "a safety limit was reached (\(what))"
    default: description
    }
  }
}
