import Foundation

/// What an app syncs (through CloudKit, its own server…) so another device can find the same photo.
///
/// Two handles, as DESIGN.md's "Scale" section says: the ``CloudIdentifier`` finds the photo in the user's
/// Photos library on the other device; the SHA-256 names the app's own copy, which PhotoIntake stores by
/// content hash, so a device that already holds those bytes needs nothing more.
public struct PhotoSyncRecord: Sendable, Hashable, Codable {
  /// The iCloud Photos identity; nil when the photo has none (not uploaded yet, iCloud Photos off).
  public var cloudIdentifier: CloudIdentifier?
  /// The SHA-256 of the app's copy; nil when the app kept no copy.
  public var sha256: SHA256Digest?

  /// A record of a photo by its cloud identifier, its bytes' hash, or both.
  public init(cloudIdentifier: CloudIdentifier?, sha256: SHA256Digest?) {
    self.cloudIdentifier = cloudIdentifier
    self.sha256 = sha256
  }

  private enum CodingKeys: String, CodingKey {
    case cloudIdentifier, sha256
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    cloudIdentifier = try container.decodeIfPresent(CloudIdentifier.self, forKey: .cloudIdentifier)
    if let hex = try container.decodeIfPresent(String.self, forKey: .sha256) {
      guard let digest = SHA256Digest(hex: hex) else {
        throw DecodingError.dataCorruptedError(
          forKey: .sha256, in: container, debugDescription: "not 64 hexadecimal characters")
      }
      sha256 = digest
    } else {
      sha256 = nil
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(cloudIdentifier, forKey: .cloudIdentifier)
    // The hex text, not the digest's structure: other platforms (a server, Android) read this too.
    try container.encodeIfPresent(sha256?.hex, forKey: .sha256)
  }
}

/// A list of ``PhotoSyncRecord``s in the user's order, with a format version, as one JSON document.
public struct PhotoSyncPayload: Sendable, Hashable, Codable {
  /// The format this PhotoIntake writes and reads.
  public static let currentVersion = 1

  /// The payload's format version (``currentVersion`` when made here).
  public var version: Int
  /// One record per photo, in the order they were given.
  public var records: [PhotoSyncRecord]

  /// A payload of the current version holding `records`.
  public init(records: [PhotoSyncRecord]) {
    version = Self.currentVersion
    self.records = records
  }

  /// Why a payload could not be read.
  public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload was written by a newer PhotoIntake.
    case unsupportedVersion(Int)
    /// The bytes are not a payload.
    case malformed(reason: String)

    public var description: String {
      switch self {
      case .unsupportedVersion(let version):
        "The synced photo list has format version \(version), newer than this app understands "
          + "(\(PhotoSyncPayload.currentVersion)). Update the app on this device."
      case .malformed(let reason):
        "The synced photo list could not be read (\(reason)). It may be damaged; sync it again from the "
          + "other device."
      }
    }
  }

  /// Compact JSON with sorted keys, so equal payloads are equal bytes.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding plain strings and integers cannot fail.
    return try! encoder.encode(self)
  }

  /// Reads a payload.
  ///
  /// - Throws: ``Error/unsupportedVersion(_:)`` for newer formats, ``Error/malformed(reason:)`` otherwise.
  public static func decode(_ data: Data) throws(Error) -> PhotoSyncPayload {
    struct Header: Decodable { var version: Int }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch {
      throw .malformed(reason: "no format version")
    }
    guard header.version <= currentVersion, header.version >= 1 else {
      throw .unsupportedVersion(header.version)
    }
    do {
      return try JSONDecoder().decode(PhotoSyncPayload.self, from: data)
    } catch {
      throw .malformed(reason: "\(error)")
    }
  }
}
