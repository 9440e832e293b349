/// What ``LocationStripper`` changed in a file.
public struct StripReport: Sendable, Hashable, Codable {
  /// The format, decided from the bytes.
  public var type: MediaType
  /// One line per removed item, e.g. "EXIF GPS IFD (9 tags)", "XMP exif:GPSLatitude", "QuickTime ©xyz".
  public var removed: [String]
  /// Bytes that differ between the original and the copy (overwritten or removed).
  public var changedByteCount: Int
  /// The original's size in bytes.
  public var originalSize: Int
  /// The copy's size in bytes (smaller only when whole PNG chunks were removed).
  public var strippedSize: Int

  /// Whether the file carried a location that was removed.
  public var removedLocation: Bool { !removed.isEmpty }

  /// A report of what stripping removed.
  public init(type: MediaType, removed: [String], changedByteCount: Int, originalSize: Int, strippedSize: Int)
  {
    self.type = type
    self.removed = removed
    self.changedByteCount = changedByteCount
    self.originalSize = originalSize
    self.strippedSize = strippedSize
  }
}
