import Foundation
import PhotoMetadata

/// The stable identity of an asset in a library (a UUID), independent of its bytes and its name.
public struct AssetID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  static func make() -> AssetID { AssetID(rawValue: UUID().uuidString.lowercased()) }
  public var description: String { rawValue }
  public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One import session (one picker session, one `intake import` run).
public struct BatchID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  static func make() -> BatchID { BatchID(rawValue: UUID().uuidString.lowercased()) }
  public var description: String { rawValue }
}

/// A photo or movie the library owns: its bytes are in `objects/ab/<sha256>`, exactly as received.
public struct Asset: Sendable, Hashable, Codable, Identifiable {
  public var id: AssetID
  /// The SHA-256 of the bytes, which names the object file.
  public var sha256: SHA256Digest
  /// Size in bytes.
  public var size: Int64
  /// The format, decided from the bytes.
  public var type: MediaType
  /// The sanitized original name, for display only.
  public var name: String?
  /// When the bytes were first stored.
  public var importedAt: Date
  /// The batch this listing row is about (the first batch for ``Library/asset(_:)``).
  public var batch: BatchID
  /// Position in that batch, in the user's order (0-based).
  public var position: Int
  /// Set when the library found the asset's bytes missing or altered; such assets are never dropped silently.
  public var damage: Damage?
  /// The facts read from the bytes at import (nil for assets imported before metadata was recorded, or whose
  /// metadata could not be read).
  public var metadata: MediaMetadata?
  /// Whether the stored bytes are a copy with the location removed (``Importer/Configuration/stripLocation``);
  /// false means they are exactly the bytes received.
  public var locationStripped: Bool = false

  /// Why an asset's bytes can no longer be trusted, as ``Library/verify(progress:)`` finds.
  public enum Damage: String, Sendable, Hashable, Codable {
    /// The object file is gone.
    case missing
    /// The object's bytes no longer hash to ``Asset/sha256``.
    case hashMismatch
    /// Where the object belongs there is a symbolic link, a FIFO, a device or a folder (left alone).
    case notAFile
  }
}

/// What changed in a library, for a grid to update without reloading.
public struct LibraryChange: Sendable, Hashable {
  /// Assets added.
  public var inserted: [AssetID] = []
  /// Assets removed.
  public var removed: [AssetID] = []
  /// Assets whose record changed (metadata, damage).
  public var updated: [AssetID] = []

  /// A change with the given ids.
  public init(inserted: [AssetID] = [], removed: [AssetID] = [], updated: [AssetID] = []) {
    self.inserted = inserted
    self.removed = removed
    self.updated = updated
  }

  /// Whether nothing changed.
  var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && updated.isEmpty }
}

/// What ``Library/verify(progress:)`` found.
public struct VerificationReport: Sendable, Hashable, Codable {
  /// The number of assets whose bytes were re-hashed.
  public var checked = 0
  /// Assets whose bytes are missing or altered, and marked so.
  public var damaged: [DamagedAsset] = []
  /// Entries under `objects/` that no row references (an object whose row was lost with the manifest's
  /// log, a file someone put there, a link or a folder), relative to the library. Kept: repairing the library
  /// adopts the valid objects and moves the rest to `lost+found/`.
  public var unreferenced: [String] = []
  /// Objects whose placement is recorded as unfinished: an import still in flight (this process's or another's),
  /// or one that was interrupted, which the next write undoes. Not damage.
  public var interrupted = 0
  /// Fan-out folders or objects that could not be opened or read (permissions, an I/O error), relative to the
  /// library: their assets were neither checked nor marked. Each is one item; the rest is verified.
  public var unreadable: [String] = []
  /// Whether every asset's bytes are intact, nothing stray is stored and everything could be read.
  public var isClean: Bool { damaged.isEmpty && unreferenced.isEmpty && unreadable.isEmpty }

  /// An asset whose bytes are missing or altered.
  public struct DamagedAsset: Sendable, Hashable, Codable {
    /// The asset.
    public var id: AssetID
    /// What is wrong with its bytes.
    public var damage: Asset.Damage
  }
}
