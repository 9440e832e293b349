/// What ``Library/repair()`` did. Nothing is ever deleted but renditions (caches the library made): whatever
/// does not belong is moved into `lost+found/`.
public struct RepairReport: Sendable, Hashable, Codable {
  /// An entry moved into `lost+found/`: where it was and where it is now, relative to the library.
  public struct Move: Sendable, Hashable, Codable {
    /// Where the entry was.
    public var from: String
    /// Where it is now, under `lost+found/` (or `lost+found.<n>`: a `lost+found` that was not a folder).
    public var to: String
    /// Why it did not belong ("a symbolic link", "bytes that do not match its name", …).
    public var reason: String
  }

  /// What undoing interrupted writes did first.
  public var recovery = RecoveryReport()
  /// Whether the manifest was missing, empty or unreadable and was made anew.
  public var rebuiltManifest = false
  /// Assets given back their ids, names, batches and places from the identity journal, after the manifest was
  /// lost or set aside as damaged.
  public var restored: [AssetID] = []
  /// Assets made for valid objects that had no row, in the batch ``adoptedBatch``.
  public var adopted: [AssetID] = []
  /// The batch that holds the adopted assets (named for the repair), if any were adopted.
  public var adoptedBatch: BatchID?
  /// Entries that were not valid objects, staging files or renditions, moved aside.
  public var moved: [Move] = []
  /// Rendition files of objects the library no longer has (and unfinished rendition writes), deleted.
  public var removedRenditions = 0
  /// Assets whose bytes are missing or are not a file, marked damaged.
  public var damaged: [AssetID] = []
  /// Fan-out folders that could not be opened or read (relative to the library): left as they were, their
  /// assets neither adopted nor marked; the rest of the library was repaired.
  public var unreadable: [String] = []

  /// An empty report: nothing was repaired.
  public init() {}
}
