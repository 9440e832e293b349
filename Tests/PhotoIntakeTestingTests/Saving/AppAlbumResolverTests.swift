import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Synchronization
import Testing

/// The app's album is found by the identifier it was created with, never by title, and created once.
struct AppAlbumResolverTests {
  final class MemoryStore: AppAlbumStore {
    let identifiers = Mutex<[String: String]>([:])
    func identifier(forAlbum name: String) -> String? { identifiers.withLock { $0[name] } }
    func setIdentifier(_ identifier: String?, forAlbum name: String) {
      identifiers.withLock { $0[name] = identifier }
    }
  }

  static func device(_ directory: TemporaryDirectory) -> SimulatedPhotoLibrary {
    let device = directory.device()
    device.user.setAccessInSettings(.full)
    return device
  }

  static func resolve(_ resolver: AppAlbumResolver, _ device: SimulatedPhotoLibrary) async throws -> String {
    try await resolver.album(
      named: "Trips",
      exists: { id in device.fetchAlbums().contains { $0.localIdentifier == id } },
      create: { name in
        // PhotoKit's change block returns on its own queue, later: concurrent saves overlap here.
        try await Task.sleep(for: .milliseconds(20))
        return try device.createAlbum(title: name)
      })
  }

  @Test func concurrentSavesCreateOneAlbum() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = Self.device(directory)
    let resolver = AppAlbumResolver(store: MemoryStore())
    let found = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<5 { group.addTask { try await Self.resolve(resolver, device) } }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(found.count == 1)
    #expect(device.fetchAlbums().filter { $0.title == "Trips" }.count == 1)
  }

  @Test func aUserAlbumOfTheSameTitleIsNotTheAppsAndADeletedOneIsMadeAgain() async throws {
    let directory = TemporaryDirectory(inMemory: true)
    let device = Self.device(directory)
    let users = device.user.createAlbum("Trips")
    let store = MemoryStore()
    let resolver = AppAlbumResolver(store: store)
    let apps = try await Self.resolve(resolver, device)
    #expect(apps != users)
    #expect(try await Self.resolve(resolver, device) == apps)
    #expect(store.identifier(forAlbum: "Trips") == apps)
    // The recorded album is gone (the user deleted it): a new one is made and recorded.
    store.setIdentifier("deleted-album", forAlbum: "Trips")
    let again = try await Self.resolve(resolver, device)
    #expect(again != "deleted-album" && again != users)
    #expect(store.identifier(forAlbum: "Trips") == again)
  }

  @Test func aFailedCreationRecordsNothing() async {
    let store = MemoryStore()
    let resolver = AppAlbumResolver(store: store)
    await #expect(throws: CancellationError.self) {
      try await resolver.album(
        named: "Trips", exists: { _ in false }, create: { _ in throw CancellationError() })
    }
    #expect(store.identifier(forAlbum: "Trips") == nil)
  }
}
