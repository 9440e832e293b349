/// A fully received, fsynced item in `staging/`, ready to be committed: its bytes are durable, and the commit
/// gives its inode a second name in `objects/` (``ObjectStore/place(_:)``).
struct StagedFile: Sendable {
  /// The staging folder.
  var folder: Directory
  /// Its name there (`<writer token>-<uuid>.part`).
  var name: String
  /// For messages, and for readers that take a path (the metadata parsers).
  var path: String { folder.path(of: name) }
  /// The SHA-256 of its bytes, which names its object.
  var digest: SHA256Digest
  var size: Int64
  /// The first bytes, for sniffing.
  var prefix: [UInt8]
  /// The inode, which an intent records so that recovery can tell this file from any other of the same name.
  var device: UInt64
  var inode: UInt64

  /// Deletes the staged name (the bytes stay if an object links to them). Blocks: on a lane.
  func discard() { try? folder.unlink(name) }
}
