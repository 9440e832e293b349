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
  public var sha256: SHA256Digest
  /// Size in bytes.
  public var size: Int64
  /// The format, decided from the bytes.
  public var type: MediaType
  /// The sanitized original name, for display only.
  public var name: String?
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
  public var inserted: [AssetID] = []
  public var removed: [AssetID] = []
  public var updated: [AssetID] = []

  public init(inserted: [AssetID] = [], removed: [AssetID] = [], updated: [AssetID] = []) {
    self.inserted = inserted
    self.removed = removed
    self.updated = updated
  }
}

public struct VerificationReport: Sendable, Hashable, Codable {
  public var checked = 0
  public var damaged: [DamagedAsset] = []
  /// Entries under `objects/` that no row references (an object whose row was lost with the manifest's
  /// log, a file someone put there, a link or a folder), relative to the library. Kept: repairing the library
  /// adopts the valid objects and moves the rest to `lost+found/`.
  public var unreferenced: [String] = []
  /// Objects placed by an import that was interrupted; the next write undoes them.
  public var interrupted = 0
  /// Whether every asset's bytes are intact and nothing stray is stored.
  public var isClean: Bool { damaged.isEmpty && unreferenced.isEmpty }

  public struct DamagedAsset: Sendable, Hashable, Codable {
    public var id: AssetID
    public var damage: Asset.Damage
  }
}
