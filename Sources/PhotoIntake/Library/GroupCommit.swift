import Foundation
import PhotoMetadata

/// One staged item to commit: the file and everything its row records.
struct CommitRequest: Sendable {
  var staged: StagedFile
  var type: MediaType
  var name: String?
  var batch: BatchRecord
  var position: Int
  var metadata: MediaMetadata?
  var locationStripped: Bool
  /// The id a new asset gets, when it must be a given one (a download keeps the id its record carries).
  var assetID: AssetID? = nil
  /// When a new asset counts as imported (a download keeps its first import's time).
  var importedAt: Date? = nil
  /// Sync ledger work written in the same transaction as the row (see `SyncLedger.noteCommitted`).
  var sync: SyncCommitNote? = nil
}

/// What committing a staged file did.
enum CommitOutcome: Sendable {
  /// New bytes: a new asset.
  case imported(Asset)
  /// Bytes the library already had: the existing asset, now also listed in this batch.
  case duplicate(Asset)
}

/// Why one item's commit failed: the manifest's or the file system's own error, kept whole so that the
/// importer can tell the user exactly what happened (a full disk, a failed fsync, a refused permission).
enum CommitFailure: Error, Sendable, Equatable {
  case manifest(DatabaseError)
  case storage(SystemError)
  /// Part of the library is not what it should be (an `objects/ab` that is a link or a file).
  case damagedLayout(String)
}

/// The commit order of DESIGN.md for a group of staged items, sharing every wait on the disk but the files'
/// own fsyncs:
///
/// 1. the sinks fsynced each staged file (its data is durable);
/// 2. one transaction (`synchronous=FULL`) commits an intent for every item that places bytes, naming the
///    object and the staged inode, so that a crash from here on leaves a record of exactly what to undo;
/// 3. each staged inode is linked into `objects/ab/<sha256>` (`linkat`, which never replaces anything);
/// 4. each distinct `objects/ab` folder of the group is fsynced once (the new names are durable);
/// 5. one transaction commits every item's row (or listing), deletes the group's intents and records the items'
///    identities (id, name, batch, position, import time, strip status) in the manifest's outbox;
/// 6. that transaction's frame is appended to the identity journal beside the objects and fsynced
///    (``IdentityJournal``), so that the identities survive the manifest's loss.
///
/// Only when ``commit(_:)`` returns may the group's items be acknowledged: a crash in any window leaves
/// either the intents (undone by the next writer), or the rows with their frame in the outbox (appended by the
/// next writer), or both rows and frame, never an acknowledged item without its row and its identity record.
/// Bytes the library already has give the existing asset, listed in the new batch too; if that asset's object
/// is missing or damaged, the new bytes take its place, and whatever was there is moved to `lost+found/`,
/// never deleted. Items share a group only with different bytes (see ``CommitQueue``).
///
/// One item's failure is that item's result: a link that fails undoes that item's intent alone; a folder
/// whose fsync fails fails the items placed in it; a transaction that fails for the group is retried one item
/// at a time.
///
/// A composition of the ``Manifest`` and the ``ObjectStore``, and nothing else: the library runs it for each
/// group its ``CommitQueue`` forms, on its own executor (a dispatch queue, never the cooperative pool, where the
/// short file-system look-ups run), and publishes the change it returns. The transactions run on the
/// manifest's executor, the links and folder fsyncs on an I/O lane, so that the library serves other calls
/// (the next items joining the queue) while the disk flushes.
struct GroupCommit: Sendable {
  let manifest: Manifest
  let store: ObjectStore
  /// The writer's token, recorded with each intent.
  let token: String

  /// What an item's commit needs, as the group learns it.
  fileprivate enum Need: Sendable {
    /// The existing asset's object is intact: the item is only listed.
    case listing
    /// The item's bytes are placed in `folder`: new bytes, or a copy replacing a damaged object.
    case placing(into: Directory)
    case failed(CommitFailure)
  }

  /// Commits the group on `library`'s executor; returns each item's result, in order, and the change to publish.
  func commit(_ requests: [CommitRequest], on library: isolated Library) async -> (
    results: [Result<CommitOutcome, CommitFailure>], change: LibraryChange
  ) {
    var results = [Result<CommitOutcome, CommitFailure>?](repeating: nil, count: requests.count)
    var change = LibraryChange()
    let existing: [Asset?]
    do {
      existing = try await manifest.assets(withSHA256: requests.map(\.staged.digest))
    } catch {
      discard(requests)
      return (requests.map { _ in .failure(.manifest(error)) }, change)
    }
    // The group's fan-out folders, made (and made durable) where missing, before any intent names them.
    let digests = requests.map(\.staged.digest)
    let folders = await BlockingLanes.io.run { [store] in store.placingFolders(for: digests) }
    let needs = zip(zip(requests, existing), folders).map { item, folder -> Need in
      let (request, existing) = item
      switch folder {
      case .failure(.notRegular):
        return .failed(.damagedLayout("objects/\(request.staged.digest.hex.prefix(2)) is not a folder"))
      case .failure(.system(let error)): return .failed(.storage(error))
      case .success(let folder):
        if let existing, store.isIntact(existing.sha256, size: existing.size) { return .listing }
        return .placing(into: folder)
      }
    }
    var placing: [Int] = []
    for (index, need) in needs.enumerated() {
      switch need {
      case .listing: break
      case .placing: placing.append(index)
      case .failed(let failure): results[index] = .failure(failure)
      }
    }
    var intents: [Int: Intent] = [:]
    let recorded = await manifest.recordPlacements(placing.map { requests[$0].staged }, token: token)
    for (index, result) in zip(placing, recorded) {
      switch result {
      case .success(let intent): intents[index] = intent
      case .failure(let error): results[index] = .failure(.manifest(error))
      }
    }
    let linking = placing.filter { intents[$0] != nil && needs[$0].folder != nil }
    if !linking.isEmpty {
      CrashPoint.afterIntentCommit.reach()
      let staged = linking.map { requests[$0].staged }
      let into = linking.compactMap { needs[$0].folder }
      let failures = await BlockingLanes.io.run { [store] in store.place(staged, in: into) }
      for (index, failure) in zip(linking, failures) {
        guard let failure, let intent = intents.removeValue(forKey: index) else { continue }
        await forget(intent)
        results[index] = .failure(.storage(failure))
      }
    }
    let going = requests.indices.filter { results[$0] == nil }
    let rows = going.map { index in
      let request = requests[index]
      return RowRequest(
        digest: request.staged.digest, size: request.staged.size, type: request.type, name: request.name,
        metadata: request.metadata, locationStripped: request.locationStripped, batch: request.batch,
        position: request.position, existing: existing[index], placed: needs[index].isPlacing,
        intent: intents[index], assetID: request.assetID, importedAt: request.importedAt, sync: request.sync)
    }
    let (outcomes, frames) = going.isEmpty ? ([], []) : await manifest.commitRows(rows)
    if outcomes.contains(where: { if case .success = $0 { true } else { false } }) {
      CrashPoint.afterCommit.reach()
    }
    // The committed transactions' identity records go into the journal before any item is acknowledged.
    let journalFailure = await journal(frames)
    for (index, outcome) in zip(going, outcomes) {
      if case .success(let committed) = outcome, let journalFailure {
        // The row is committed but its identity is not durable beside the bytes: not acknowledged. The row
        // stays (the change is published); the next write appends what the manifest's outbox holds.
        switch committed {
        case .inserted(let asset): change.inserted.append(asset.id)
        case .listed(let asset, let repaired): if repaired { change.updated.append(asset.id) }
        }
        results[index] = .failure(journalFailure)
        continue
      }
      switch outcome {
      case .success(.inserted(let asset)):
        change.inserted.append(asset.id)
        results[index] = .success(.imported(asset))
      case .success(.listed(let asset, let repaired)):
        if repaired { change.updated.append(asset.id) }
        results[index] = .success(.duplicate(asset))
      case .failure(let error):
        if let intent = intents[index] { await forget(intent) }
        results[index] = .failure(.manifest(error))
      }
    }
    // The staged names go once the objects hold the bytes (or the item failed): a crash before this leaves
    // them to recovery, which sweeps this writer's staging files.
    discard(requests)
    return (results.map { $0! }, change)
  }

  /// Appends the committed transactions' frames (and any earlier ones still waiting) to the identity journal
  /// and makes them durable; returns the failure, if any.
  private func journal(_ frames: [JournalFrame]) async -> CommitFailure? {
    guard !frames.isEmpty else { return nil }
    let journal: IdentityJournal
    do { journal = try store.writableJournal() } catch { return .storage(error) }
    if let failure = await manifest.flushJournal(to: journal) { return failure }
    CrashPoint.afterJournal.reach()
    return nil
  }

  /// Undoes an intent of this writer after its operation failed. If that fails too (the disk is gone), the
  /// intent stays recorded and the end of the write, or the next writer, undoes it.
  private func forget(_ intent: Intent) async {
    _ = try? await manifest.undo(intent, in: store)
  }

  /// Removes the staged names (blocking: on the library's executor).
  private func discard(_ requests: [CommitRequest]) {
    for request in requests { request.staged.discard() }
  }
}

extension Manifest {
  /// Undoes `intent` (see ``undo(_:removing:)``), removing its object from `store` only if it is still the
  /// recorded inode: how the library composes the two for recovery, removals and failed commits.
  @discardableResult
  func undo(_ intent: Intent, in store: ObjectStore) throws(DatabaseError) -> ObjectStore.Removal? {
    try undo(intent) { intent throws(SystemError) in
      try store.remove(intent.digest, device: intent.device, inode: intent.inode)
    }
  }
}

extension GroupCommit.Need {
  fileprivate var isPlacing: Bool { folder != nil }
  /// The fan-out folder an item being placed goes into.
  fileprivate var folder: Directory? { if case .placing(let folder) = self { folder } else { nil } }
}
