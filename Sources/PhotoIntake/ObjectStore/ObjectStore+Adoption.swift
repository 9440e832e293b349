extension ObjectStore {
  /// When ``takeIn(_:in:copying:)`` gives an object an inode of its own.
  enum Ownership: Sendable {
    /// Always: bytes the library did not write (an object without a row or record, put there by someone).
    case always
    /// Only when the inode may be someone else's too: it has more than one link, or it can be written.
    case whenShared
  }

  /// Takes in the object named for `digest` in its fan-out folder `folder` (repair adopting an object without a
  /// row, or restoring one its identity record names), so that it is the library's own, like an imported one.
  ///
  /// An inode another name shares (a hard link from outside the library) would let writes there change the
  /// stored bytes; a writable one, any holder of a descriptor. So the bytes are copied into `staging/` while
  /// they are hashed, the copy is made read-only and fsynced, and, if it hashes to `digest`, renamed over the
  /// object (the folder fsynced): the library's name now holds an inode of its own, and the outside name keeps
  /// the old one. Nothing of the user's is lost: the name replaced held these very bytes.
  ///
  /// - Returns: the facts of the object's bytes; nil when it is not a regular file whose bytes hash to its name
  ///   (then nothing was changed).
  /// - Throws: a failure to make or place the copy (a full disk); the object is left as it was.
  func takeIn(_ digest: SHA256Digest, in folder: Directory, copying rule: Ownership) throws(SystemError)
    -> ContentFacts?
  {
    guard let (source, status) = try? folder.openRegularFile(digest.hex) else { return nil }
    let shared = status.st_nlink > 1 || status.st_mode & 0o222 != 0
    guard rule == .always || shared else {
      return (try? reader.facts(of: source)).flatMap { $0.digest == digest ? $0 : nil }
    }
    let copy = try DurableFile.create(in: staging, name: stagingName(token: "repair"))
    do {
      let tally = ContentTally()
      try reader.read(source, tallying: tally, failure: { $0 }) { chunk throws(SystemError) in
        try copy.write(chunk)
      }
      let facts = tally.finish()
      guard facts.digest == digest else {
        copy.discard()
        return nil
      }
      try copy.seal(readOnly: true)
      try copy.publish(as: digest.hex, in: folder, .replacing, syncFolder: true)
      return facts
    } catch {
      copy.discard()
      throw error
    }
  }
}
