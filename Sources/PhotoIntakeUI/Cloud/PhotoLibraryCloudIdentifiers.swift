#if canImport(Photos)
  import Foundation
  import Photos
  import PhotoIntake

  /// The Photos library as the core's ``CloudIdentifierResolving``: ``CloudIdentifierMapper`` batches and orders
  /// the lookups; this only forwards them to `cloudIdentifierMappings(forLocalIdentifiers:)` and
  /// `localIdentifierMappings(for:)` and turns each answer into an ``IdentifierLookup``
  /// (`PHPhotosError.identifierNotFound` 3201 → not found; `multipleIdentifiersFound` 3202 → the candidates
  /// PhotoKit lists under `PHLocalIdentifiersErrorKey`).
  ///
  /// The lookups need read access and are expensive: "call these methods only once after loading from and before
  /// saving to persistent storage" (PHCloudIdentifier.h).
  ///
  /// ```swift
  /// let mapper = CloudIdentifierMapper(resolver: PhotoLibraryCloudIdentifiers())
  /// let records = await mapper.syncRecords(for: selection, library: library)
  /// ```
  public struct PhotoLibraryCloudIdentifiers: CloudIdentifierResolving {
    public let library: PHPhotoLibrary

    public init(library: PHPhotoLibrary = .shared()) { self.library = library }

    public func cloudIdentifierMappings(forLocalIdentifiers identifiers: [String]) async
      -> [String: IdentifierLookup<CloudIdentifier>]
    {
      await resolver.cloudIdentifierMappings(forLocalIdentifiers: identifiers)
    }

    public func localIdentifierMappings(for identifiers: [CloudIdentifier]) async
      -> [CloudIdentifier: IdentifierLookup<String>]
    {
      await resolver.localIdentifierMappings(for: identifiers)
    }

    /// The blocking PhotoKit calls, run on PhotoIntake's own threads (``BlockingCloudIdentifierResolver``).
    private var resolver: BlockingCloudIdentifierResolver {
      // PHPhotoLibrary is Sendable (NS_SWIFT_SENDABLE in PHPhotoLibrary.h): the lanes' closures take it as is.
      let library = self.library
      return BlockingCloudIdentifierResolver(
        cloud: { identifiers in
          var answers: [String: IdentifierLookup<CloudIdentifier>] = [:]
          for (identifier, result) in library.cloudIdentifierMappings(
            forLocalIdentifiers: identifiers)
          {
            switch result {
            case .success(let cloud):
              answers[identifier] = .found(CloudIdentifier(rawValue: cloud.stringValue))
            case .failure(let error): answers[identifier] = Self.lookup(error)
            }
          }
          return answers
        },
        local: { identifiers in
          let mappings = library.localIdentifierMappings(
            for: identifiers.map { PHCloudIdentifier(stringValue: $0.rawValue) })
          var answers: [CloudIdentifier: IdentifierLookup<String>] = [:]
          for (cloud, result) in mappings {
            let key = CloudIdentifier(rawValue: cloud.stringValue)
            switch result {
            case .success(let local): answers[key] = .found(local)
            case .failure(let error): answers[key] = Self.lookup(error)
            }
          }
          return answers
        })
    }

    private static func lookup<Value: Sendable & Hashable>(_ error: any Error) -> IdentifierLookup<Value> {
      let ns = error as NSError
      return IdentifierLookup(
        failureDomain: ns.domain, code: ns.code,
        candidates: ns.userInfo[PHLocalIdentifiersErrorKey] as? [String],
        reason: ns.localizedDescription)
    }
  }
#endif
