import PhotoMetadata

/// A downsampled JPEG of a library asset, kept in the library's `renditions/` folder.
public struct Rendition: Sendable, Hashable {
  /// The longest side it was made for, in pixels, and the key it is stored under: the requested size, or the
  /// photo's own longest side when that is smaller (no rendition is ever upscaled or made twice).
  public var size: Int
  /// The JPEG file. Read it, never write it: it may be replaced atomically at any time.
  public var path: String
  /// Pixel width of the JPEG (upright).
  public var width: Int
  /// Pixel height of the JPEG (upright).
  public var height: Int
  /// What was decoded to make it, when this call made it; nil when an existing rendition was found.
  public var source: Thumbnail.Source?

  /// A rendition of a given size at `path`, as the store describes it.
  public init(size: Int, path: String, width: Int, height: Int, source: Thumbnail.Source?) {
    self.size = size
    self.path = path
    self.width = width
    self.height = height
    self.source = source
  }

  /// Whether this call made the rendition (rather than finding it).
  public var wasCreated: Bool { source != nil }
}

/// The renditions of one imported item, made in the background of an import session.
public struct RenditionReport: Sendable {
  /// Position of the item in the batch (as in ``ItemReport/index``).
  public var index: Int
  /// The asset the renditions belong to.
  public var asset: AssetID
  /// The renditions, or why they could not be made. A failure here never affects the import.
  public var result: Result<[Rendition], ImagingError>

  /// The report for the item at `index`.
  public init(index: Int, asset: AssetID, result: Result<[Rendition], ImagingError>) {
    self.index = index
    self.asset = asset
    self.result = result
  }
}
