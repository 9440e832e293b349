#if canImport(ImageIO)
  /// The platform's ``ThumbnailGenerating`` implementation: ImageIO on Apple platforms.
  public typealias PlatformThumbnailer = ImageIOThumbnailer
#elseif canImport(CVips)
  /// The platform's ``ThumbnailGenerating`` implementation: libvips on Linux.
  public typealias PlatformThumbnailer = VipsThumbnailer
#endif
