/// A width and a height in pixels.
public struct PixelSize: Sendable, Hashable, Codable {
  /// The width in pixels.
  public var width: Int
  /// The height in pixels.
  public var height: Int

  /// A size of `width` × `height` pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// width × height, or `Int.max` when the product overflows.
  public var pixelCount: Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  /// Grows to hold `width` × `height` as well (each side separately, as a decoder's canvas grows).
  mutating func grow(toWidth width: Int, height: Int) {
    self.width = max(self.width, width)
    self.height = max(self.height, height)
  }
}

extension PixelSize? {
  mutating func grow(toWidth width: Int, height: Int) {
    if self == nil {
      self = PixelSize(width: width, height: height)
    } else {
      self!.grow(toWidth: width, height: height)
    }
  }

  mutating func grow(to size: PixelSize) { grow(toWidth: size.width, height: size.height) }
}
