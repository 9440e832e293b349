import Foundation
import PhotoMetadata

/// How the library's assets and batches become records, and back.
extension SyncRecord {
  /// The record name of a batch: `batch-<id>` (an asset's is its SHA-256, 64 hex digits: they never collide).
  static func batchName(_ id: String) -> String { "batch-" + id }

  /// The batch id a record name holds, if it is a batch's.
  static func batchID(fromName name: String) -> String? {
    name.hasPrefix("batch-") ? String(name.dropFirst(6)) : nil
  }

  /// The SHA-256 an asset record's name holds, if it is one (64 lowercase hex digits).
  static func sha256(fromName name: String) -> String? {
    name.count == 64 && SHA256Digest(hex: name) != nil && name == name.lowercased() ? name : nil
  }

  /// An asset's record: named by its SHA-256, its bytes the object file, its facts and name as fields, and its
  /// presence stamps.
  static func asset(
    _ asset: Asset, objectPath: String, home: (batch: String, key: PositionKey)?, presence: AssetPresence,
    systemFields: Data?, zone: SyncZoneID
  ) -> SyncRecord {
    var fields: [String: SyncField] = presenceFields(presence)
    fields.merge([
      FieldKey.bytes: .asset(path: objectPath),
      FieldKey.size: .int(asset.size),
      FieldKey.type: .string(asset.type.rawValue),
      FieldKey.importedAt: .date(asset.importedAt),
      FieldKey.locationStripped: .int(asset.locationStripped ? 1 : 0),
      FieldKey.assetID: .string(asset.id.rawValue),
    ]) { _, new in new }
    if let name = asset.name { fields[FieldKey.name] = .string(name) }
    if let metadata = asset.metadata, let json = try? JSONEncoder().encode(metadata) {
      fields[FieldKey.metadata] = .string(String(decoding: json, as: UTF8.self))
    }
    if let home {
      fields[FieldKey.homeBatch] = .string(home.batch)
      fields[FieldKey.homeKey] = .string(home.key.rawValue)
    }
    return SyncRecord(
      type: RecordType.asset, id: SyncRecordID(name: asset.sha256.hex, zone: zone), fields: fields,
      systemFields: systemFields)
  }

  /// An asset's tombstone: its presence stamps, and no bytes (saving it removes them from the server).
  static func tombstone(sha256: String, presence: AssetPresence, systemFields: Data?, zone: SyncZoneID)
    -> SyncRecord
  {
    var fields = presenceFields(presence)
    fields[FieldKey.bytes] = .cleared
    return SyncRecord(
      type: RecordType.asset, id: SyncRecordID(name: sha256, zone: zone), fields: fields,
      systemFields: systemFields)
  }

  private static func presenceFields(_ presence: AssetPresence) -> [String: SyncField] {
    [
      FieldKey.added: .int(presence.added.stamp), FieldKey.addedBy: .string(presence.added.device),
      FieldKey.removed: .int(presence.removed.stamp), FieldKey.removedBy: .string(presence.removed.device),
    ]
  }

  /// The presence stamps a record carries (none for a record without them).
  var presence: AssetPresence {
    AssetPresence(
      added: .init(
        stamp: fields[FieldKey.added]?.intValue ?? 0, device: fields[FieldKey.addedBy]?.stringValue ?? ""),
      removed: .init(
        stamp: fields[FieldKey.removed]?.intValue ?? 0, device: fields[FieldKey.removedBy]?.stringValue ?? "")
    )
  }

  /// A batch's record: its creation time and its membership.
  static func batch(
    id: String, createdAt: Double, membership: BatchMembership, systemFields: Data?, zone: SyncZoneID
  ) -> SyncRecord {
    SyncRecord(
      type: RecordType.batch, id: SyncRecordID(name: batchName(id), zone: zone),
      fields: [
        FieldKey.createdAt: .date(Date(timeIntervalSince1970: createdAt)),
        FieldKey.members: .string(membership.encoded),
      ], systemFields: systemFields)
  }

  /// The size of the bytes an asset record carries, for batching.
  var assetSize: Int64 { fields[FieldKey.size]?.intValue ?? 0 }
}

/// An asset record as a download reads it.
struct AssetRecordFields: Sendable, Hashable, Codable {
  var sha256: String
  var name: String?
  var assetID: String?
  var importedAt: Double?
  var locationStripped: Bool
  var homeBatch: String?
  var homeKey: String?
  var systemFields: Data?
  var addedStamp: Int64
  var addedBy: String
  var removedStamp: Int64
  var removedBy: String
  /// Whether the record carries the bytes (a tombstone does not).
  var hasBytes: Bool

  var presence: AssetPresence {
    AssetPresence(
      added: .init(stamp: addedStamp, device: addedBy), removed: .init(stamp: removedStamp, device: removedBy)
    )
  }

  init?(_ record: SyncRecord) {
    guard record.type == SyncRecord.RecordType.asset, let sha = SyncRecord.sha256(fromName: record.id.name)
    else { return nil }
    sha256 = sha
    name = record.fields[SyncRecord.FieldKey.name]?.stringValue
    assetID = record.fields[SyncRecord.FieldKey.assetID]?.stringValue
    importedAt = record.fields[SyncRecord.FieldKey.importedAt]?.dateValue?.timeIntervalSince1970
    locationStripped = record.fields[SyncRecord.FieldKey.locationStripped]?.intValue == 1
    homeBatch = record.fields[SyncRecord.FieldKey.homeBatch]?.stringValue
    homeKey = record.fields[SyncRecord.FieldKey.homeKey]?.stringValue
    systemFields = record.systemFields
    let presence = record.presence
    (addedStamp, addedBy) = (presence.added.stamp, presence.added.device)
    (removedStamp, removedBy) = (presence.removed.stamp, presence.removed.device)
    hasBytes = record.fields[SyncRecord.FieldKey.bytes]?.assetPath != nil
  }

  /// As the ledger keeps it for a download to retry.
  var json: String {
    (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  static func from(json: String) -> AssetRecordFields? {
    try? JSONDecoder().decode(AssetRecordFields.self, from: Data(json.utf8))
  }
}
