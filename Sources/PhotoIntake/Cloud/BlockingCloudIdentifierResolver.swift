/// A ``CloudIdentifierResolving`` over lookups that block, run on threads of PhotoIntake's own.
///
/// `PHPhotoLibrary.cloudIdentifierMappings(forLocalIdentifiers:)` and `localIdentifierMappings(for:)` are
/// synchronous and "expensive" (PHCloudIdentifier.h): they query the Photos database, and for a long list take
/// long enough to hold a thread. Called from an `async` method they would hold one of the cooperative pool's
/// few threads (one per core), stalling every other task of the app. This resolver runs them on the
/// package's blocking lanes instead and suspends the calling task meanwhile. The Apple layer's
/// `PhotoLibraryCloudIdentifiers` is one of these.
public struct BlockingCloudIdentifierResolver: CloudIdentifierResolving {
  private let cloud: @Sendable ([String]) -> [String: IdentifierLookup<CloudIdentifier>]
  private let local: @Sendable ([CloudIdentifier]) -> [CloudIdentifier: IdentifierLookup<String>]

  /// A resolver that runs `cloud` (local → cloud identifiers) and `local` (cloud → local identifiers) off the
  /// cooperative pool.
  public init(
    cloud: @escaping @Sendable ([String]) -> [String: IdentifierLookup<CloudIdentifier>],
    local: @escaping @Sendable ([CloudIdentifier]) -> [CloudIdentifier: IdentifierLookup<String>]
  ) {
    self.cloud = cloud
    self.local = local
  }

  public func cloudIdentifierMappings(forLocalIdentifiers identifiers: [String]) async
    -> [String: IdentifierLookup<CloudIdentifier>]
  {
    let cloud = self.cloud
    return await BlockingLanes.io.run { cloud(identifiers) }
  }

  public func localIdentifierMappings(for identifiers: [CloudIdentifier]) async
    -> [CloudIdentifier: IdentifierLookup<String>]
  {
    let local = self.local
    return await BlockingLanes.io.run { local(identifiers) }
  }
}
