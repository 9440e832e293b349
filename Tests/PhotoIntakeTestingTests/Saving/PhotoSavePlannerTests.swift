import Foundation
import PhotoIntake
import PhotoIntakeTesting
import PhotoMetadata
import Testing

struct PhotoSavePlannerTests {
  let directory = TemporaryDirectory()

  /// A fixture of PhotoMetadata's tests: a JPEG whose EXIF holds a GPS position.
  static func metadataFixture(_ name: String) -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("PhotoMetadataTests/Fixtures/" + name)
    return [UInt8](FileManager.default.contents(atPath: url.path) ?? Data())
  }

  func importing(_ items: [DataItemSource], into library: Library) async throws -> [Asset] {
    let summary = await serialImporter(library).importItems(items)
    return try summary.items.map { try #require($0.result.asset) }
  }

  func planner(_ library: Library) -> PhotoSavePlanner {
    PhotoSavePlanner(library: library, folder: directory.at("prepared"))
  }

  @Test func aPhotoIsAddedFromItsStoredBytesUnderAMatchingName() async throws {
    let library = try await directory.library()
    let photo = try await importing(
      [DataItemSource(Data(Fixtures.heic(seed: "p")), suggestedName: "IMG_0001.JPG")], into: library)[0]
    let request = try planner(library).plan(photo)
    #expect(request.resources.map(\.role) == [.photo])
    #expect(request.resources[0].uniformTypeIdentifier == "public.heic")
    // The name said JPG; the bytes are HEIC, and so is the name Photos gets.
    #expect(request.resources[0].originalFilename == "IMG_0001.heic")
    #expect(request.requiredAccess == .addOnly)
    #expect(request.droppedMotion == nil)
    // A link to the object, not a copy, and not the object's own path.
    let path = request.resources[0].path
    #expect(path != library.objectPath(for: photo))
    #expect(FileManager.default.contents(atPath: path) == Data(Fixtures.heic(seed: "p")))
    request.release()
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(FileManager.default.fileExists(atPath: library.objectPath(for: photo)))
    await library.close()
  }

  @Test func aVideoIsAVideoResource() async throws {
    let library = try await directory.library()
    let video = try await importing(
      [DataItemSource(Data(Fixtures.quickTimeMovie(seed: "v")))], into: library)[0]
    let request = try planner(library).plan(video)
    #expect(request.resources.map(\.role) == [.video])
    #expect(request.resources[0].originalFilename == "Video.mov")
    request.release()
    await library.close()
  }

  @Test func aPairWithoutMatchingIdentifiersIsSavedAsItsStill() async throws {
    let library = try await directory.library()
    let assets = try await importing(
      [
        DataItemSource(Data(Fixtures.heic(seed: "s"))),
        DataItemSource(Data(Fixtures.quickTimeMovie(seed: "m"))),
      ], into: library)
    let request = try planner(library).plan(assets[0], pairedVideo: assets[1])
    #expect(request.resources.map(\.role) == [.photo])
    #expect(request.droppedMotion == .missingIdentifier)
    request.release()
    await library.close()
  }

  @Test func aPairWithMatchingIdentifiersIsALivePhoto() async throws {
    let library = try await directory.library()
    var assets = try await importing(
      [
        DataItemSource(Data(Fixtures.heic(seed: "s"))),
        DataItemSource(Data(Fixtures.quickTimeMovie(seed: "m"))),
      ], into: library)
    // The identifiers PhotoMetadata would have read from the MakerNote and the QuickTime keys.
    assets[0].metadata = MediaMetadata(type: .heic, livePhotoID: "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
    assets[1].metadata = MediaMetadata(type: .mov, livePhotoID: "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
    let request = try planner(library).plan(assets[0], pairedVideo: assets[1])
    #expect(request.resources.map(\.role) == [.photo, .pairedVideo])
    #expect(request.resources.map(\.uniformTypeIdentifier) == ["public.heic", "com.apple.quicktime-movie"])
    request.release()
    await library.close()
  }

  @Test func anAlbumNeedsReadWriteAccess() async throws {
    let library = try await directory.library()
    let photo = try await importing([DataItemSource(Data(Fixtures.jpeg(seed: "a")))], into: library)[0]
    let request = try planner(library).plan(photo, options: .init(albumName: "PhotoIntake"))
    #expect(request.requiredAccess == .readWrite)
    #expect(request.albumName == "PhotoIntake")
    #expect(try planner(library).plan(photo, options: .init(albumName: "")).albumName == nil)
    request.release()
    await library.close()
  }

  @Test func withoutLocationOnlyTheCopyLosesItsGPS() async throws {
    let original = Self.metadataFixture("jpeg-orientation-3.jpg")
    #expect(try MetadataReader.read(bytes: original).location != nil)
    let library = try await directory.library()
    let photo = try await importing([DataItemSource(Data(original))], into: library)[0]
    let request = try planner(library).plan(photo, options: .init(withoutLocation: true))
    let path = request.resources[0].path
    #expect(try MetadataReader.read(fileAt: path).location == nil)
    #expect(!request.resources[0].removedLocation.isEmpty)
    #expect(try MetadataReader.read(fileAt: path).orientation == .down)
    // The library's original is untouched (invariant 3).
    #expect(bytes(of: photo, in: library) == original)
    request.release()
    await library.close()
  }

  @Test func aMissingObjectFailsWithAdviceAndLeavesNothing() async throws {
    let library = try await directory.library()
    let photo = try await importing([DataItemSource(Data(Fixtures.jpeg(seed: "gone")))], into: library)[0]
    try FileManager.default.removeItem(atPath: library.objectPath(for: photo))
    #expect(throws: PhotoSaveError.preparation(.notStored(photo.id))) {
      try planner(library).plan(photo)
    }
    let prepared = (try? FileManager.default.contentsOfDirectory(atPath: directory.at("prepared"))) ?? []
    #expect(prepared.isEmpty)
    await library.close()
  }

  @Test func sharingWithoutLocationPreparesANamedCopy() async throws {
    let original = Self.metadataFixture("jpeg-xmp-gps.jpg")
    let library = try await directory.library()
    let photo = try await importing(
      [DataItemSource(Data(original), suggestedName: "Trip.jpeg")], into: library)[0]
    let file = try PreparedFile.make(
      for: photo, in: library, withoutLocation: true, folder: directory.at("s"))
    #expect(file.path.hasSuffix("/Trip.jpg"))
    #expect(try MetadataReader.read(fileAt: file.path).location == nil)
    file.release()
    #expect(!FileManager.default.fileExists(atPath: file.path))
    await library.close()
  }

  @Test(arguments: [
    ("PHPhotosErrorDomain", 3311, "access-denied"), ("PHPhotosErrorDomain", 3310, "access-restricted"),
    ("PHPhotosErrorDomain", 3305, "not-enough-space"), ("NSCocoaErrorDomain", 640, "not-enough-space"),
    ("NSPOSIXErrorDomain", 28, "not-enough-space"), ("PHPhotosErrorDomain", 3302, "invalid-resource"),
    ("PHPhotosErrorDomain", 3142, "library-unavailable"), ("PHPhotosErrorDomain", 3072, "cancelled"),
    ("Other", 1, "failed"),
  ])
  func photoKitErrorsMapToSentences(_ domain: String, _ code: Int, _ expected: String) {
    let error = PhotoSaveError(photoKitError: NSError(domain: domain, code: code))
    #expect(error.code == expected)
    #expect(error.description.hasSuffix(".") || error.description.contains(")"))
  }

  @Test(arguments: [
    (AuthorizationStatus.authorized, nil), (.limited, nil), (.denied, PhotoSaveError.accessDenied),
    (.notDetermined, .accessDenied), (.restricted, .accessRestricted),
  ])
  func statusesThatDoNotAllowSaving(_ status: AuthorizationStatus, _ error: PhotoSaveError?) {
    #expect(PhotoSaveError(status: status) == error)
  }

  @Test func preparedNamesFollowTheBytes() async throws {
    let library = try await directory.library()
    let assets = try await importing(
      [
        DataItemSource(Data(Fixtures.heic(seed: "1")), suggestedName: "IMG_0001.HEIC"),
        DataItemSource(Data(Fixtures.jpeg(seed: "2")), suggestedName: "notes"),
        DataItemSource(Data(Fixtures.quickTimeMovie(seed: "3"))),
        DataItemSource(Data(Fixtures.png(seed: "4")), suggestedName: "a.b.c"),
      ], into: library)
    #expect(
      assets.map(PreparedFile.filename(for:)) == ["IMG_0001.heic", "notes.jpg", "Video.mov", "a.b.png"])
    await library.close()
  }
}
