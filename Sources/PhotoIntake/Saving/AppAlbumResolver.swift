import Foundation

/// Where the app remembers the local identifier of each album it created (`UserDefaults` on Apple platforms).
public protocol AppAlbumStore: Sendable {
  /// The local identifier recorded for the app's album of this name.
  func identifier(forAlbum name: String) -> String?
  /// Records (or, with nil, forgets) the local identifier of the app's album of this name.
  func setIdentifier(_ identifier: String?, forAlbum name: String)
}

/// Finds the app's own album by the persistent local identifier it was created with, never by its title, and
/// creates it once.
///
/// Matching albums by title goes wrong twice: a user album of the same name receives the app's photos, and two
/// saves that run at once both find no album and both create one. So the album's `localIdentifier` (PhotoKit's
/// `placeholderForCreatedAssetCollection`) is recorded when it is created and looked up by that identifier
/// afterwards; saves that ask at the same time share one creation; an album the user deleted is created again.
///
/// ```swift
/// let resolver = AppAlbumResolver(store: UserDefaultsAlbumStore())
/// let album = try await resolver.album(named: "Trips", exists: { id in fetch(id) != nil },
///                                      create: { name in try await createAlbum(titled: name) })
/// ```
public actor AppAlbumResolver {
  private let store: any AppAlbumStore
  private var creating: [String: Task<String, any Error>] = [:]

  /// A resolver that records identifiers in `store`.
  public init(store: any AppAlbumStore) { self.store = store }

  /// The local identifier of the app's album `name`: the recorded one while `exists` confirms it, otherwise
  /// one made by `create` (at most one creation per name at a time) and recorded.
  ///
  /// - Throws: what `create` throws; nothing is recorded then.
  public func album(
    named name: String, exists: @Sendable (String) async -> Bool,
    create: @escaping @Sendable (String) async throws -> String
  ) async throws -> String {
    if let running = creating[name] { return try await running.value }
    if let known = store.identifier(forAlbum: name), await exists(known) { return known }
    // Checked again: another call may have started a creation while `exists` was awaited.
    if let running = creating[name] { return try await running.value }
    let store = store
    let task = Task<String, any Error> {
      let identifier = try await create(name)
      store.setIdentifier(identifier, forAlbum: name)
      return identifier
    }
    creating[name] = task
    defer { creating[name] = nil }
    return try await task.value
  }
}

/// An ``AppAlbumStore`` in `UserDefaults`, under `PhotoIntake.appAlbum.<name>`.
public struct UserDefaultsAlbumStore: AppAlbumStore {
  /// The suite, or nil for `UserDefaults.standard`.
  public let suiteName: String?

  /// A store in the standard defaults, or in a suite shared with the app's extensions.
  public init(suiteName: String? = nil) { self.suiteName = suiteName }

  public func identifier(forAlbum name: String) -> String? {
    defaults.string(forKey: Self.key(name))
  }

  public func setIdentifier(_ identifier: String?, forAlbum name: String) {
    defaults.set(identifier, forKey: Self.key(name))
  }

  private var defaults: UserDefaults {
    suiteName.flatMap(UserDefaults.init(suiteName:)) ?? .standard
  }

  private static func key(_ name: String) -> String { "PhotoIntake.appAlbum." + name }
}
