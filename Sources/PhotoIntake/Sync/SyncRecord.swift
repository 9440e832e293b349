import Foundation

/// A record zone of the user's private database, as CloudKit's `CKRecordZone.ID` names it (the owner is
/// always the current user: PhotoIntake syncs only the private database).
public struct SyncZoneID: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The zone's name.
  public var name: String

  /// A zone by name.
  public init(name: String) { self.name = name }

  /// The custom zone PhotoIntake keeps a library's records in. A custom zone (not the default zone) is what
  /// gives change tokens, atomic batches and the "user deleted the zone" signal.
  public static let library = SyncZoneID(name: "PhotoIntakeLibrary")

  public var description: String { name }
}

/// A record's identity: its zone and name, as `CKRecord.ID`.
public struct SyncRecordID: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The record's zone.
  public var zone: SyncZoneID
  /// The record's name, unique in its zone.
  public var name: String

  /// A record name in a zone.
  public init(name: String, zone: SyncZoneID = .library) {
    self.name = name
    self.zone = zone
  }

  public var description: String { "\(zone.name)/\(name)" }
}

/// One value of a record's field: the kinds of `CKRecordValue` PhotoIntake uses.
public enum SyncField: Sendable, Hashable {
  /// A string (`NSString`).
  case string(String)
  /// An integer (`NSNumber`).
  case int(Int64)
  /// A date (`NSDate`).
  case date(Date)
  /// A file whose bytes travel beside the record (`CKAsset`): the path of a file to upload when saving; the
  /// path of the downloaded copy when fetched, valid only while the event that carries it is handled.
  case asset(path: String)
  /// No value: saving it removes the field (and an asset's bytes) from the server's record. A field a saved
  /// record does not mention keeps its value on the server, as with `CKRecord.changedKeys`.
  case cleared

  /// The string, if this is one.
  public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
  /// The integer, if this is one.
  public var intValue: Int64? { if case .int(let value) = self { value } else { nil } }
  /// The date, if this is one.
  public var dateValue: Date? { if case .date(let value) = self { value } else { nil } }
  /// The file's path, if this is an asset.
  public var assetPath: String? { if case .asset(let path) = self { path } else { nil } }
}

/// A record as CloudKit's `CKRecord` carries it, in portable form: its type, identity, fields, and the server's
/// system fields (change tag, creation data) as the opaque bytes `CKRecord.encodeSystemFields(with:)` writes.
///
/// Saving a record with the system fields last received from the server is how CloudKit knows which version
/// the change was made on: an older version is refused with ``SyncError/Code/serverRecordChanged``.
public struct SyncRecord: Sendable, Hashable {
  /// The record type (`CKRecord.RecordType`).
  public var type: String
  /// The record's identity.
  public var id: SyncRecordID
  /// The fields, by key.
  public var fields: [String: SyncField]
  /// The server's system fields, opaque; nil for a record the server has never seen.
  public var systemFields: Data?

  /// A record of `type` named `id`.
  public init(type: String, id: SyncRecordID, fields: [String: SyncField] = [:], systemFields: Data? = nil) {
    self.type = type
    self.id = id
    self.fields = fields
    self.systemFields = systemFields
  }

  /// The record types PhotoIntake writes.
  public enum RecordType {
    /// A photo or movie: named by the SHA-256 of its bytes (64 lowercase hex digits), its bytes a `CKAsset`.
    public static let asset = "PhotoIntakeAsset"
    /// A batch (one import session): its members and their order.
    public static let batch = "PhotoIntakeBatch"
  }

  /// The field keys PhotoIntake writes.
  public enum FieldKey {
    /// Asset: the bytes (`CKAsset`).
    public static let bytes = "bytes"
    /// Asset: the size in bytes.
    public static let size = "size"
    /// Asset: the format (`MediaType.rawValue`), decided from the bytes.
    public static let type = "type"
    /// Asset: the sanitized display name.
    public static let name = "name"
    /// Asset: when it was first imported.
    public static let importedAt = "importedAt"
    /// Asset: 1 when the stored bytes are a copy without location.
    public static let locationStripped = "locationStripped"
    /// Asset: the facts read at import (JSON of `MediaMetadata`).
    public static let metadata = "metadata"
    /// Asset: the id it was given where it was first imported, kept by the devices it reaches.
    public static let assetID = "assetID"
    /// Asset: the batch it was imported into, and its key there, where it is listed until that batch's own
    /// record arrives.
    public static let homeBatch = "homeBatch"
    /// Asset: its `PositionKey` in the home batch.
    public static let homeKey = "homeKey"
    /// Asset: the stamp of its last import (`HybridLogicalClock`), and the device that made it.
    public static let added = "added"
    /// Asset: the device of ``added``.
    public static let addedBy = "addedBy"
    /// Asset: the stamp of its last removal (0: never removed); a record whose removal is later than its import
    /// is a tombstone, without bytes.
    public static let removed = "removed"
    /// Asset: the device of ``removed``.
    public static let removedBy = "removedBy"
    /// Batch: when it was created.
    public static let createdAt = "createdAt"
    /// Batch: the members and their order (`BatchMembership`'s encoded text).
    public static let members = "members"
  }
}

/// A record deleted on the server, as a fetch reports it.
public struct SyncRecordDeletion: Sendable, Hashable {
  /// The deleted record.
  public var id: SyncRecordID
  /// Its type.
  public var type: String

  /// A deletion of the record `id` of `type`.
  public init(id: SyncRecordID, type: String) {
    self.id = id
    self.type = type
  }
}
