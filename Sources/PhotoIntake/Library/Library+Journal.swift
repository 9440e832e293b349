extension Library {
  /// Appends the frames of transactions just committed (and any earlier ones still waiting) to the identity
  /// journal and makes them durable. Only then are the changes they record acknowledged.
  func appendToJournal() async throws(Error) {
    let journal: IdentityJournal
    do { journal = try store.writableJournal() } catch { throw Error(error) }
    switch await manifest.flushJournal(to: journal) {
    case nil: return
    case .manifest(let error)?: throw Error(error)
    case .storage(let error)?: throw Error(error)
    case .damagedLayout(let what)?: throw .damagedLayout(what)
    }
  }

  /// Brings the journal and the manifest into step when a writer takes its turn, before anything else is undone:
  ///
  /// 1. a manifest behind its journal lost commits: the write is refused, and repair rebuilds it;
  /// 2. frames the manifest committed but the journal lacks (a crash between the two) are appended from the
  ///    outbox; when the outbox cannot supply them all (a journal lost or begun late), a snapshot of the manifest
  ///    starts the journal anew.
  func reconcileJournal() async throws(Error) {
    do {
      let journal = try await BlockingLanes.io.run { [store] () throws(SystemError) in
        try store.writableJournal()
      }
      let tail = try await BlockingLanes.io.run { () throws(SystemError) in try journal.tail() }
      let applied = try await manifest.appliedJournalSequence() ?? 0
      if tail.sequence > applied {
        throw Error.manifestBehindJournal(applied: applied, journal: tail.sequence)
      }
      var outbox: [JournalFrame] = []
      if tail.sequence < applied {
        outbox = try await manifest.outbox(after: tail.sequence)
        if outbox.map(\.sequence) != Array(tail.sequence + 1...applied) { outbox = [] }
      }
      let frames = outbox
      let neverJournaled = applied == 0 ? try await manifest.hasAssets() : false
      if tail.sequence < applied && frames.isEmpty || neverJournaled {
        // Nothing in the journal can be trusted to be complete: one frame holding everything replaces it.
        let snapshot = try await manifest.snapshot()
        try await BlockingLanes.io.run { () throws(SystemError) in try journal.compact(with: snapshot) }
        await manifest.noteJournaled(snapshot.sequence)
        return
      }
      if !frames.isEmpty {
        try await BlockingLanes.io.run { () throws(SystemError) in try journal.append(frames) }
      }
      await manifest.noteJournaled(applied)
    } catch {
      throw Error(anyFailure: error)
    }
  }
}

extension Library {
  /// Checks the manifest before a full reading of it: refuses it as damaged
  /// (``Library/Error/manifestDamaged(reason:)``) when SQLite's quick check fails or it lacks commits its identity
  /// journal records, instead of answering from it. Reads every page of the manifest: for full listings, not for
  /// a page of a grid.
  ///
  /// - Throws: ``Error/manifestDamaged(reason:)``, which repairing the library mends.
  public func checkManifest() async throws(Error) {
    let manifest = manifest
    let journal = store.journal
    try await BlockingLanes.io.run { () throws(Error) in
      try JournalCheck.check(manifest, journal: journal)
      try manifest.refuseIfDamagedForReading()
    }
  }
}

extension Library.Error {
  /// The manifest lacks transactions its identity journal records: its log was cut short (damaged bytes that
  /// SQLite silently stops at) or an older copy was put back.
  static func manifestBehindJournal(applied: UInt64, journal: UInt64) -> Library.Error {
    .manifestDamaged(
      reason:
        "it lacks the last \(journal - applied) of the changes its identity journal records, as a damaged "
        + "write-ahead log does")
  }
}

/// The check of a manifest against its identity journal that every opening makes: one read of the journal's end
/// and one of the manifest's applied sequence, whatever the library's size.
enum JournalCheck {
  /// Refuses a manifest that lacks commits its journal records.
  ///
  /// The journal is read first: a frame is only ever appended after its transaction committed, so any frame seen
  /// then is in a manifest read afterwards, unless that manifest lost it.
  static func check(_ manifest: Manifest, journal: IdentityJournal?) throws(Library.Error) {
    guard let journal, let tail = try? journal.tail() else { return }
    let applied: UInt64?
    do {
      applied = try manifest.readNow { database throws(DatabaseError) in try database.appliedJournalSequence()
      }
    } catch {
      throw Library.Error(error)
    }
    if let applied, tail.sequence > applied {
      throw .manifestBehindJournal(applied: applied, journal: tail.sequence)
    }
  }
}
