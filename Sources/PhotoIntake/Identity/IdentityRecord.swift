import Foundation
import PhotoMetadata

/// One fact about an asset's identity, as the identity journal keeps it beside the objects: what `repair` needs to
/// give every object back its id, name, batches and order when the manifest is lost or damaged.
///
/// Records are written in groups (one ``JournalFrame`` per manifest transaction that changes identity) and
/// replayed in order by ``IdentityModel``. Their JSON form is the journal's: a field added later is optional, so
/// that an older journal still replays.
struct IdentityRecord: Codable, Sendable, Equatable {
  enum Operation: String, Codable, Sendable {
    /// A new asset, listed in its first batch: id, bytes, name, import time, strip status and listing.
    case asset
    /// An existing asset listed in one more batch (its bytes imported again).
    case listing
    /// The asset and all its listings are gone.
    case remove
    /// Every asset and listing of the library as the manifest held them: the state before this frame no longer
    /// matters (written when a journal is begun for an existing library, and when it is compacted).
    case snapshot
    /// A batch's whole listing, in order (positions 0, 1, …), replacing the one before: the user re-ordered it,
    /// or sync did with another device's edit. An asset whose first listing was in the batch moves to its first
    /// remaining listing.
    case order
    /// An asset's display name changed (sync, with another device's edit).
    case rename
  }

  var op: Operation
  var id: AssetID?
  var sha256: String?
  var name: String?
  var size: Int64?
  var type: String?
  /// Seconds since 1970, as the manifest stores it.
  var importedAt: Double?
  var locationStripped: Bool?
  /// The batch of a listing: its id, its place in import order (the manifest's sequence) and its creation time.
  var batch: BatchID?
  var batchSequence: Int64?
  var batchCreatedAt: Double?
  var position: Int?
  /// The assets of an ``Operation/order`` record, in their new order.
  var order: [AssetID]?

  /// The record of a new asset listed in `batch` at `position`.
  static func asset(_ asset: Asset, batch: BatchRecord) -> IdentityRecord {
    IdentityRecord(
      op: .asset, id: asset.id, sha256: asset.sha256.hex, name: asset.name, size: asset.size,
      type: asset.type.rawValue, importedAt: asset.importedAt.timeIntervalSince1970,
      locationStripped: asset.locationStripped, batch: batch.id, batchSequence: batch.sequence,
      batchCreatedAt: batch.createdAt, position: asset.position)
  }

  /// The record of an existing asset listed in `batch` at `position` too.
  static func listing(_ id: AssetID, digest: SHA256Digest, batch: BatchRecord, position: Int)
    -> IdentityRecord
  {
    IdentityRecord(
      op: .listing, id: id, sha256: digest.hex, batch: batch.id, batchSequence: batch.sequence,
      batchCreatedAt: batch.createdAt, position: position)
  }

  /// The record of a removal.
  static func remove(_ id: AssetID, digest: SHA256Digest) -> IdentityRecord {
    IdentityRecord(op: .remove, id: id, sha256: digest.hex)
  }

  /// The record of `batch` listing `assets`, in that order.
  static func order(_ batch: BatchRecord, assets: [AssetID]) -> IdentityRecord {
    IdentityRecord(
      op: .order, batch: batch.id, batchSequence: batch.sequence, batchCreatedAt: batch.createdAt,
      order: assets)
  }

  /// The record of an asset's new display name (nil: none).
  static func rename(_ id: AssetID, to name: String?) -> IdentityRecord {
    IdentityRecord(op: .rename, id: id, name: name)
  }

  static let snapshotMarker = IdentityRecord(op: .snapshot)

  var digest: SHA256Digest? { sha256.flatMap(SHA256Digest.init(hex:)) }
  var mediaType: MediaType? { type.flatMap(MediaType.init(rawValue:)) }

  /// The batch this record lists the asset in, when it has one.
  var batchRecord: BatchRecord? {
    guard let batch, let batchSequence else { return nil }
    return BatchRecord(id: batch, sequence: batchSequence, createdAt: batchCreatedAt ?? 0)
  }
}

extension IdentityRecord {
  /// The payload of a frame: the records of one transaction, as JSON.
  static func encode(_ records: [IdentityRecord]) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding plain strings, numbers and booleans cannot fail.
    return Array((try? encoder.encode(records)) ?? Data("[]".utf8))
  }

  /// The records of a frame's payload; nil when the payload is not what ``encode(_:)`` makes.
  static func decode(_ payload: [UInt8]) -> [IdentityRecord]? {
    try? JSONDecoder().decode([IdentityRecord].self, from: Data(payload))
  }
}
