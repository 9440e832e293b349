/// Makes small, upright JPEG pictures of image files without decoding them at full size.
///
/// Every implementation follows the same plan (`ThumbnailPlan`): read the declared size and embedded previews
/// from the headers, refuse a decompression bomb before any decode, decode an embedded preview when one is at
/// least as large as the request (the fast path), and otherwise decode the primary image reduced while it loads
/// (JPEG DCT scaling, WebP scaling) where the format allows. The result is 8-bit sRGB with the orientation
/// applied and no metadata.
///
/// The default implementation is ``PlatformThumbnailer``: ``VipsThumbnailer`` (libvips) on Linux and
/// `ImageIOThumbnailer` on Apple platforms.
///
/// ```swift
/// let thumbnailer = PlatformThumbnailer()
/// let thumbnail = try thumbnailer.thumbnail(ofFileAt: path, request: ThumbnailRequest(maxPixelSize: 320))
/// print(thumbnail.width, thumbnail.height, thumbnail.source)
/// ```
///
/// Calls block the calling thread while they decode (milliseconds for a preview, up to a second for a large
/// HEIC); run them on a task, as ``RenditionStore`` does.
public protocol ThumbnailGenerating: Sendable {
  /// A thumbnail of the image at `path` whose longest side is at most `request.maxPixelSize`.
  ///
  /// - Throws: ``ImagingError``: ``ImagingError/tooManyPixels(declared:limit:)`` before any decode for a bomb,
  ///   ``ImagingError/unsupportedContent(type:)``, ``ImagingError/malformed(reason:)`` or
  ///   ``ImagingError/decodeFailed(reason:)`` for files that cannot be shown.
  func thumbnail(ofFileAt path: String, request: ThumbnailRequest) throws(ImagingError) -> Thumbnail

  /// Thumbnails of several sizes at once (largest first is not required). Implementations decode the source
  /// once where they can and reduce the larger result for the smaller sizes.
  ///
  /// - Returns: one thumbnail per element of `sizes`, in the same order.
  func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest) throws(ImagingError)
    -> [Thumbnail]
}

extension ThumbnailGenerating {
  /// Makes each size on its own.
  public func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest) throws(ImagingError)
    -> [Thumbnail]
  {
    try thumbnailsOneByOne(ofFileAt: path, sizes: sizes, request: request)
  }

  /// Each size made on its own with ``thumbnail(ofFileAt:request:)``: the default of
  /// ``thumbnails(ofFileAt:sizes:request:)``, and what a generator that overrides it does for files it has no
  /// shared decode for.
  func thumbnailsOneByOne(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest) throws(ImagingError)
    -> [Thumbnail]
  {
    var result: [Thumbnail] = []
    for size in sizes {
      var single = request
      single.maxPixelSize = size
      result.append(try thumbnail(ofFileAt: path, request: single))
    }
    return result
  }
}
