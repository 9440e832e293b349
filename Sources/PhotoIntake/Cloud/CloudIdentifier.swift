/// A photo's identity across a user's devices: the string form of PhotoKit's `PHCloudIdentifier`
/// (`stringValue`).
///
/// Local identifiers (`PHAsset.localIdentifier`) differ from device to device; a cloud identifier names the
/// same iCloud Photos asset everywhere, so it is what an app syncs (WWDC21 "Improve access to Photos in your
/// app"). Treat the text as opaque.
public struct CloudIdentifier: RawRepresentable, Sendable, Hashable, Codable, Comparable,
  CustomStringConvertible
{
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public var description: String { rawValue }
  public static func < (lhs: CloudIdentifier, rhs: CloudIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The outcome of looking one identifier up, mirroring PhotoKit's `PHCloudIdentifierMapping` and
/// `PHLocalIdentifierMapping`: a value, or one of the errors their documentation names.
public enum IdentifierLookup<Value: Sendable & Hashable>: Sendable, Hashable {
  /// Exactly one match.
  case found(Value)
  /// No match (`PHPhotosError.identifierNotFound`, 3201): not in this library, not uploaded yet, or deleted.
  case notFound
  /// Several matches (`PHPhotosError.multipleIdentifiersFound`, 3202); PhotoKit lists the local identifiers
  /// under `PHLocalIdentifiersErrorKey`. The app chooses, or asks the user.
  case multipleFound(candidates: [String])
  /// Another failure (for instance no read access), with its description.
  case failed(reason: String)

  /// The value, when there was exactly one match.
  public var value: Value? { if case .found(let value) = self { value } else { nil } }

  /// The outcome a failed PhotoKit lookup stands for, from its `NSError`: `PHPhotosErrorDomain` 3201
  /// (`identifierNotFound`) is ``notFound``; 3202 (`multipleIdentifiersFound`) is ``multipleFound(candidates:)``
  /// with the identifiers PhotoKit lists under `PHLocalIdentifiersErrorKey`; anything else is ``failed(reason:)``.
  public init(failureDomain domain: String, code: Int, candidates: [String]?, reason: String) {
    switch (domain, code) {
    case ("PHPhotosErrorDomain", 3201): self = .notFound
    case ("PHPhotosErrorDomain", 3202): self = .multipleFound(candidates: candidates ?? [])
    default: self = .failed(reason: "\(reason) (\(domain) \(code))")
    }
  }
}

/// Something that maps local identifiers to cloud identifiers and back, in batches: the Photos library on
/// Apple platforms (`cloudIdentifierMappings(forLocalIdentifiers:)`, `localIdentifierMappings(for:)`), a
/// simulated library in tests.
public protocol CloudIdentifierResolving: Sendable {
  /// The cloud identifier of each local identifier; every input has an entry.
  func cloudIdentifierMappings(forLocalIdentifiers identifiers: [String]) async
    -> [String: IdentifierLookup<CloudIdentifier>]

  /// The local identifier of each cloud identifier on this device; every input has an entry.
  func localIdentifierMappings(for identifiers: [CloudIdentifier]) async
    -> [CloudIdentifier: IdentifierLookup<String>]
}
