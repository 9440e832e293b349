import PhotoIntake

extension SimulatedPhotoLibrary {
  /// An album the app can see.
  public struct Album: Sendable, Hashable {
    /// The album's identifier.
    public var localIdentifier: String
    /// The album's name.
    public var title: String
  }

  /// Saves a new asset, as `PHAssetCreationRequest` in `performChanges` does.
  ///
  /// Needs add-only or read-write access. With add-only access the asset is created but the app cannot read
  /// it back. With limited access the new asset joins the user's selection, so the app sees what it saved.
  /// Saving into an album needs read-write access; with limited access, only into an album the app created.
  ///
  /// - Returns: the new asset's local identifier (the placeholder's `localIdentifier`).
  /// - Throws: ``Error/accessDenied`` or ``Error/accessRestricted``; ``Error/notFound(_:)`` for an album the app
  ///   cannot see.
  @discardableResult
  public func saveAsset(_ fixture: AssetFixture, toAlbum album: String? = nil) throws(Error) -> String {
    let (addOnly, readWrite, albumVisible) = state.withLock { state in
      (
        state.status(for: .addOnly), state.status(for: .readWrite),
        album.map { state.world.albums[$0] != nil } ?? true
      )
    }
    if addOnly == .restricted { throw .accessRestricted }
    guard addOnly.isGranted else { throw .accessDenied }
    if let album {
      guard readWrite.isGranted else { throw .accessDenied }
      guard albumVisible else { throw .notFound(album) }
    }
    let identifier = insert(fixture, storage: .local, createdByApp: true, cloudIdentifier: nil)
    account?.upload(from: self, localIdentifier: identifier)
    if let album {
      mutate { $0.albums[album]?.assets.append(identifier) }
    }
    return identifier
  }

  /// Creates an album (`PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle:)`).
  ///
  /// Needs read-write access; limited access may create albums and then sees only those it created.
  ///
  /// - Returns: the album's local identifier.
  @discardableResult
  public func createAlbum(title: String) throws(Error) -> String {
    let status = authorizationStatus(for: .readWrite)
    if status == .restricted { throw .accessRestricted }
    guard status.isGranted else { throw .accessDenied }
    return createStoredAlbum(title: title, createdByApp: true, assets: [])
  }

  /// Adds assets the app can see to an album it can see.
  public func addAssets(_ identifiers: [String], toAlbum album: String) throws(Error) {
    let problem: Error? = state.withLock { state in
      let world = state.world
      guard state.status(for: .readWrite).isGranted else { return .accessDenied }
      guard world.albums[album] != nil else { return .notFound(album) }
      return identifiers.first { world.assets[$0] == nil }.map { .notFound($0) }
    }
    if let problem { throw problem }
    mutate { state in
      for identifier in identifiers where state.albums[album]?.assets.contains(identifier) == false {
        state.albums[album]?.assets.append(identifier)
      }
    }
  }

  /// The albums the app can see (`PHAssetCollection.fetchAssetCollections(with: .album, …)`).
  public func fetchAlbums() -> [Album] {
    state.withLock { state in
      let visible = state.world.albums
      return state.albumOrder.compactMap { key in
        guard visible[key] != nil, let album = state.albums[key] else { return nil }
        return Album(localIdentifier: album.localIdentifier, title: album.title)
      }
    }
  }

  func createStoredAlbum(title: String, createdByApp: Bool, assets: [String]) -> String {
    let number = configuration.deviceNumber
    return mutate { state in
      state.counter += 1
      let identifier = String(format: "%08X-0000-4000-A000-%012X/L0/040", number, state.counter)
      state.albums[identifier] = StoredAlbum(
        localIdentifier: identifier, title: title, createdByApp: createdByApp,
        assets: assets.filter { state.assets[$0] != nil })
      state.albumOrder.append(identifier)
      return identifier
    }
  }
}
