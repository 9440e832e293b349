import PhotoIntake
import PhotoIntakeTesting
import Testing

struct AlbumTests {
  @Test func limitedAccessCreatesAlbumsAndSeesOnlyItsOwn() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    let holiday = library.add([.photo(), .photo()])
    let userAlbum = library.user.createAlbum("Holiday", with: holiday)
    library.user.setAccessInSettings(.limited([holiday[0]]))

    let appAlbum = try library.createAlbum(title: "PhotoIntake")
    #expect(library.fetchAlbums().map(\.title) == ["PhotoIntake"])
    #expect(library.fetchAssets(.init(album: userAlbum)).count == 0)

    // Saved into the app's album, a photo joins the limited selection and the album.
    let saved = try library.saveAsset(.photo(), toAlbum: appAlbum)
    #expect(library.limitedSelection.contains(saved))
    #expect(library.fetchAssets(.init(album: appAlbum)).localIdentifiers == [saved])
    // A selected photo may be added too; an unselected one is invisible, so it cannot.
    try library.addAssets([holiday[0]], toAlbum: appAlbum)
    #expect(throws: SimulatedPhotoLibrary.Error.notFound(holiday[1])) {
      try library.addAssets([holiday[1]], toAlbum: appAlbum)
    }
    #expect(
      library.fetchAssets(.init(sort: .libraryOrder, album: appAlbum)).localIdentifiers == [
        saved, holiday[0],
      ])
    #expect(throws: SimulatedPhotoLibrary.Error.notFound(userAlbum)) {
      try library.saveAsset(.photo(), toAlbum: userAlbum)
    }
  }

  @Test func fullAccessSeesEveryAlbum() throws {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    library.user.createAlbum("Holiday")
    library.user.setAccessInSettings(.full)
    try library.createAlbum(title: "PhotoIntake")
    #expect(library.fetchAlbums().map(\.title) == ["Holiday", "PhotoIntake"])
  }

  @Test func addOnlyAccessCannotCreateAlbums() {
    let directory = TemporaryDirectory(inMemory: true)
    let library = directory.device()
    library.user.setAccessInSettings(.addPhotosOnly)
    #expect(throws: SimulatedPhotoLibrary.Error.accessDenied) {
      try library.createAlbum(title: "PhotoIntake")
    }
    #expect(throws: SimulatedPhotoLibrary.Error.accessDenied) {
      try library.saveAsset(.photo(), toAlbum: "any")
    }
  }
}
