/// What ``Library/recoverInterruptedWork()`` found and did.
///
/// Recovery only undoes what an unfinished write recorded that it was doing; anything else it meets is kept
/// and listed in ``kept``.
public struct RecoveryReport: Sendable, Hashable, Codable {
  /// Staging files of interrupted writes (named for a writer that recorded itself), deleted.
  public var removedStagingFiles = 0
  /// Objects an interrupted import had placed but never acknowledged (recorded with their inode, and
  /// referenced by no row), deleted.
  public var undoneObjects = 0
  /// Removals that were interrupted after the asset's row was gone, completed.
  public var completedRemovals = 0
  /// Paths (relative to the library) that a record pointed at but that were not what it recorded — another
  /// file, a link, a folder — kept where they are.
  public var kept: [String] = []

  /// An empty report: nothing was undone.
  public init() {}

  /// Whether recovery found anything to do.
  public var isEmpty: Bool { self == RecoveryReport() }
}
