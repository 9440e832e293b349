import Foundation
import PhotoMetadata

/// The library's identities as the journal tells them: the state its frames build, replayed in order.
///
/// The rules are the manifest's own, so that replaying the journal gives what the manifest held: a new asset
/// whose bytes another live asset already holds is listed as that asset (as a commit that finds the bytes
/// committed meanwhile does); a removal takes the asset and all its listings; a snapshot starts anew.
struct IdentityModel: Sendable {
  /// What the journal knows of one asset.
  struct Identity: Sendable, Equatable {
    var id: AssetID
    var digest: SHA256Digest
    var name: String?
    var size: Int64
    var type: MediaType?
    var importedAt: Double
    var locationStripped: Bool
    /// Its first listing (the batch and position the asset row carries).
    var batch: BatchRecord
    var position: Int
  }

  /// A place in a batch: (batch sequence, position).
  struct Slot: Hashable, Sendable, Comparable {
    var batchSequence: Int64
    var position: Int

    static func < (a: Slot, b: Slot) -> Bool {
      (a.batchSequence, a.position) < (b.batchSequence, b.position)
    }
  }

  private(set) var assets: [AssetID: Identity] = [:]
  /// The live asset holding each object.
  private(set) var byDigest: [SHA256Digest: AssetID] = [:]
  /// Which asset is listed at each place.
  private(set) var listings: [Slot: AssetID] = [:]
  private(set) var batches: [Int64: BatchRecord] = [:]
  /// The newest frame applied.
  private(set) var sequence: UInt64 = 0
  /// Frames that could not be applied (not JSON the journal writes), and gaps in the sequence.
  private(set) var problems: [String] = []

  init() {}

  /// Replays `frames` (oldest first). Starts at the newest snapshot; a frame that repeats or precedes one already
  /// applied is skipped (a frame appended twice after a crash).
  init(frames: [JournalFrame]) {
    let start = frames.lastIndex { frame in
      IdentityRecord.decode(frame.payload)?.first?.op == .snapshot
    }
    for frame in frames[(start ?? 0)...] { apply(frame) }
  }

  mutating func apply(_ frame: JournalFrame) {
    guard frame.sequence > sequence || sequence == 0 else { return }
    guard let records = IdentityRecord.decode(frame.payload) else {
      problems.append("journal frame \(frame.sequence) does not hold identity records")
      return
    }
    if sequence != 0 && frame.sequence != sequence + 1 && records.first?.op != .snapshot {
      problems.append("journal frames \(sequence + 1)…\(frame.sequence - 1) are missing")
    }
    sequence = frame.sequence
    for record in records { apply(record) }
  }

  private mutating func apply(_ record: IdentityRecord) {
    switch record.op {
    case .snapshot:
      assets = [:]
      byDigest = [:]
      listings = [:]
      batches = [:]
    case .asset:
      guard let id = record.id, let digest = record.digest, let batch = record.batchRecord,
        let position = record.position
      else { return }
      batches[batch.sequence] = batches[batch.sequence] ?? batch
      if let holder = byDigest[digest], holder != id {
        // The bytes were another asset's already: listed as it.
        listings[Slot(batchSequence: batch.sequence, position: position)] = holder
        return
      }
      if assets[id] != nil {
        // An asset already here listed once more (sync listing a photo this device has in another batch): its
        // row keeps its first listing, as the manifest's does; only the listing is new.
        listings[Slot(batchSequence: batch.sequence, position: position)] = id
        return
      }
      assets[id] = Identity(
        id: id, digest: digest, name: record.name, size: record.size ?? 0, type: record.mediaType,
        importedAt: record.importedAt ?? 0, locationStripped: record.locationStripped ?? false, batch: batch,
        position: position)
      byDigest[digest] = id
      listings[Slot(batchSequence: batch.sequence, position: position)] = id
    case .listing:
      guard let id = record.id, assets[id] != nil, let batch = record.batchRecord,
        let position = record.position
      else { return }
      batches[batch.sequence] = batches[batch.sequence] ?? batch
      listings[Slot(batchSequence: batch.sequence, position: position)] = id
    case .remove:
      guard let id = record.id, let identity = assets.removeValue(forKey: id) else { return }
      if byDigest[identity.digest] == id { byDigest[identity.digest] = nil }
      listings = listings.filter { $0.value != id }
    case .order:
      guard let batch = record.batchRecord, let order = record.order else { return }
      reorder(batch, order)
    case .rename:
      guard let id = record.id, assets[id] != nil else { return }
      assets[id]?.name = record.name
    }
  }

  /// Lists `order` in `batch` (positions 0, 1, …) instead of what it listed, and points each asset whose first
  /// listing was in the batch at its first remaining listing, as the manifest does (`rewriteListings`).
  private mutating func reorder(_ batch: BatchRecord, _ order: [AssetID]) {
    batches[batch.sequence] = batches[batch.sequence] ?? batch
    var touched = Set(order)
    for (slot, id) in listings where slot.batchSequence == batch.sequence { touched.insert(id) }
    listings = listings.filter { $0.key.batchSequence != batch.sequence }
    for (position, id) in order.enumerated() where assets[id] != nil {
      listings[Slot(batchSequence: batch.sequence, position: position)] = id
    }
    let moving = Set(touched.filter { assets[$0]?.batch.sequence == batch.sequence })
    guard !moving.isEmpty else { return }
    var first: [AssetID: Slot] = [:]
    for (slot, id) in listings where moving.contains(id) {
      if let known = first[id], known < slot { continue }
      first[id] = slot
    }
    for (id, slot) in first {
      guard let place = batches[slot.batchSequence] else { continue }
      assets[id]?.batch = place
      assets[id]?.position = slot.position
    }
  }

  /// Every listing in batch order.
  var orderedListings: [(slot: Slot, id: AssetID)] {
    listings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// The records that rebuild this state from nothing: a snapshot. Each asset's own record (with the listing its
  /// row carries) comes before its other listings.
  var snapshotRecords: [IdentityRecord] {
    var records = [IdentityRecord.snapshotMarker]
    let ordered = orderedListings
    var own: Set<Slot> = []
    for (slot, id) in ordered {
      guard let identity = assets[id], identity.batch.sequence == slot.batchSequence,
        identity.position == slot.position
      else { continue }
      own.insert(slot)
      records.append(identity.record(listedIn: identity.batch, at: identity.position))
    }
    for (slot, id) in ordered where !own.contains(slot) {
      guard let identity = assets[id], let batch = batches[slot.batchSequence] else { continue }
      records.append(.listing(id, digest: identity.digest, batch: batch, position: slot.position))
    }
    return records
  }
}

extension IdentityModel.Identity {
  /// The asset record of this identity, listed in `batch` at `position`.
  func record(listedIn batch: BatchRecord, at position: Int) -> IdentityRecord {
    IdentityRecord(
      op: .asset, id: id, sha256: digest.hex, name: name, size: size, type: type?.rawValue,
      importedAt: importedAt, locationStripped: locationStripped, batch: batch.id,
      batchSequence: batch.sequence, batchCreatedAt: batch.createdAt, position: position)
  }
}
