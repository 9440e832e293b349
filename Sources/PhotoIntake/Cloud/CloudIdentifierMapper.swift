/// Maps identifiers in batches, in the caller's order, with each lookup's outcome.
///
/// PhotoKit's documentation calls these lookups expensive and asks apps to do them sparingly, at load and save
/// points (`cloudIdentifierMappings(forLocalIdentifiers:)`). The mapper sends each distinct identifier once,
/// in batches of ``batchSize``, and answers in the order it was asked, repeats included.
///
/// ```swift
/// let mapper = CloudIdentifierMapper(resolver: photoLibrary)
/// let records = await mapper.syncRecords(for: selection, library: library)
/// let payload = try PhotoSyncPayload(records: records).encoded()   // store it in CloudKit
/// ```
public struct CloudIdentifierMapper: Sendable {
  /// What answers the lookups: PhotoKit on a device, the simulator in tests.
  public let resolver: any CloudIdentifierResolving
  /// The most identifiers sent in one call.
  public let batchSize: Int

  /// A mapper that asks `resolver` at most `batchSize` identifiers at a time.
  public init(resolver: any CloudIdentifierResolving, batchSize: Int = 200) {
    self.resolver = resolver
    self.batchSize = Swift.max(1, batchSize)
  }

  /// The cloud identifier of each local identifier, in order.
  public func cloudIdentifiers(forLocalIdentifiers identifiers: [String]) async
    -> [IdentifierLookup<CloudIdentifier>]
  {
    var answers: [String: IdentifierLookup<CloudIdentifier>] = [:]
    for batch in Self.batches(of: identifiers, size: batchSize) {
      let found = await resolver.cloudIdentifierMappings(forLocalIdentifiers: batch)
      for identifier in batch {
        answers[identifier] = found[identifier] ?? .failed(reason: "the library gave no answer for it")
      }
    }
    return identifiers.map { answers[$0]! }
  }

  /// The local identifier of each cloud identifier on this device, in order.
  public func localIdentifiers(for identifiers: [CloudIdentifier]) async -> [IdentifierLookup<String>] {
    var answers: [CloudIdentifier: IdentifierLookup<String>] = [:]
    for batch in Self.batches(of: identifiers, size: batchSize) {
      let found = await resolver.localIdentifierMappings(for: batch)
      for identifier in batch {
        answers[identifier] = found[identifier] ?? .failed(reason: "the library gave no answer for it")
      }
    }
    return identifiers.map { answers[$0]! }
  }

  /// What to sync for a selection: each item's cloud identifier (when its asset identifier maps to one) and
  /// the SHA-256 of the app's own copy, in the user's order.
  ///
  /// - Parameter library: the app's library, for the content hashes; nil leaves them out.
  public func syncRecords(for selection: PhotoSelection, library: Library?) async -> [PhotoSyncRecord] {
    let local = selection.items.compactMap(\.assetIdentifier)
    let lookups = await cloudIdentifiers(forLocalIdentifiers: local)
    var cloud: [String: IdentifierLookup<CloudIdentifier>] = [:]
    for (identifier, lookup) in zip(local, lookups) { cloud[identifier] = lookup }
    var records: [PhotoSyncRecord] = []
    for item in selection.items {
      let lookup = item.assetIdentifier.flatMap { cloud[$0] }
      let digest = try? await library?.asset(item.asset)?.sha256
      records.append(PhotoSyncRecord(cloudIdentifier: lookup?.value, sha256: digest ?? nil))
    }
    return records
  }

  /// Finds synced photos on this device, in the records' order.
  public func resolve(_ records: [PhotoSyncRecord]) async -> [IdentifierLookup<String>] {
    let identifiers = records.compactMap(\.cloudIdentifier)
    let lookups = await localIdentifiers(for: identifiers)
    var answers: [CloudIdentifier: IdentifierLookup<String>] = [:]
    for (identifier, lookup) in zip(identifiers, lookups) { answers[identifier] = lookup }
    return records.map { record in
      record.cloudIdentifier.flatMap { answers[$0] } ?? .notFound
    }
  }

  /// Distinct values in first-seen order, cut into batches.
  static func batches<Value: Hashable>(of values: [Value], size: Int) -> [[Value]] {
    var seen = Set<Value>()
    let distinct = values.filter { seen.insert($0).inserted }
    return stride(from: 0, to: distinct.count, by: size).map {
      Array(distinct[$0..<Swift.min($0 + size, distinct.count)])
    }
  }
}
