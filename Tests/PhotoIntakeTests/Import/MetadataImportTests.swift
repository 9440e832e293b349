import Foundation
import PhotoIntakeTesting
import PhotoMetadata
import Testing

@testable import PhotoIntake

/// The importer records what PhotoMetadata reads, refuses declared bombs, and strips location on request.
@Suite struct MetadataImportTests {
  let folder = TemporaryDirectory()

  /// The repository's sample photos (Samples/, made by Scripts/make-samples.sh).
  static func sample(_ name: String) -> String { Repository.path("Samples/" + name) }

  func importFiles(_ paths: [String], stripLocation: Bool = false) async throws -> (ImportSummary, Library) {
    let library = try await Library.open(at: folder.at("library"))
    var configuration = Importer.Configuration()
    configuration.stripLocation = stripLocation
    let summary = await Importer(library: library, configuration: configuration).importItems(
      paths.map(FileItemSource.init(path:)))
    return (summary, library)
  }

  @Test func theFactsAreStoredWithTheAsset() async throws {
    let (summary, library) = try await importFiles([
      Self.sample("IMG_0001.JPG"), Self.sample("IMG_0002.HEIC"),
    ])
    let jpegID = try #require(summary.items[0].result.asset?.id)
    let jpeg = try #require(try await library.asset(jpegID))
    let metadata = try #require(jpeg.metadata)
    #expect(metadata.width == 480 && metadata.height == 640)
    #expect(metadata.orientation == .right)
    #expect(metadata.captureDate?.local == "2024-07-14T09:12:31")
    #expect(metadata.captureDate?.offsetSeconds == 7200)
    #expect(metadata.make == "Apple" && metadata.model == "iPhone 15 Pro")
    #expect(abs((metadata.location?.latitude ?? 0) - 46.0207) < 1e-6)
    #expect(!jpeg.locationStripped)
    let heicID = try #require(summary.items[1].result.asset?.id)
    let heic = try #require(try await library.asset(heicID))
    #expect(heic.metadata?.type == .heic)
    #expect(heic.metadata?.location?.longitude.sign == .minus)
  }

  @Test func listingByDateUsesTheCaptureDate() async throws {
    // Given newest first, listed oldest first: 2023-03-02 (HEIC), 2023-09-18 (Pixel), 2024-07-14 (iPhone).
    let (_, library) = try await importFiles([
      Self.sample("IMG_0001.JPG"), Self.sample("PXL_20230918_201502.jpg"), Self.sample("IMG_0002.HEIC"),
    ])
    let byDate = try await library.all(order: .date)
    #expect(byDate.map(\.name) == ["IMG_0002.HEIC", "PXL_20230918_201502.jpg", "IMG_0001.JPG"])
  }

  @Test func strippingStoresACopyWithoutLocationAndSaysSo() async throws {
    let original = Self.sample("PXL_20230918_201502.jpg")
    let (summary, library) = try await importFiles(
      [original, Self.sample("sticker.gif")], stripLocation: true)
    let stripped = try #require(summary.items[0].result.asset)
    #expect(stripped.locationStripped)
    #expect(stripped.metadata?.location == nil)
    #expect(stripped.metadata?.captureDate?.local == "2023-09-18T20:15:02")  // only location goes
    let stored = try MetadataReader.read(fileAt: library.objectPath(for: stripped))
    #expect(stored.location == nil)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: library.objectPath(for: stripped))))
    #expect(stripped.sha256 == SHA256Digest.of(bytes))
    #expect(stripped.sha256 != SHA256Digest.of(Array(try Data(contentsOf: URL(fileURLWithPath: original)))))
    // A file without location is stored byte for byte, and not marked.
    let gif = try #require(summary.items[1].result.asset)
    #expect(!gif.locationStripped)
    #expect(
      gif.sha256
        == SHA256Digest.of(Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample("sticker.gif"))))))
    #expect(folder.files(under: "library/staging").isEmpty)
    #expect(try await library.verify().isClean)
  }

  @Test func aDeclaredBombIsRefusedAtImport() async throws {
    // A PNG whose IHDR declares 65535 × 65535 (4.3 gigapixels) and holds no pixels at all.
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
    png += [0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 8, 2, 0, 0, 0]
    png += [0, 0, 0, 0]  // CRC (not checked by the reader's header pass)
    png += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    let path = try folder.write("bomb.png", png)
    let (summary, library) = try await importFiles([path])
    #expect(summary.items[0].result.error == .tooManyPixels(declared: 65535 * 65535, limit: 1_000_000_000))
    #expect(try await library.count() == 0)
  }

  @Test func damagedMetadataDoesNotCostThePhoto() async throws {
    // A JPEG signature followed by garbage: not readable as metadata, but the bytes are the user's.
    let path = try folder.write(
      "odd.jpg", [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x02] + [UInt8](repeating: 7, count: 64))
    let (summary, _) = try await importFiles([path])
    let asset = try #require(summary.items[0].result.asset)
    #expect(asset.metadata == nil)
  }

  @Test func aVersionOneManifestIsMigrated() async throws {
    // A library as the first release wrote it: schema version 1, one asset, no metadata columns.
    let root = folder.at("library")
    try await Library.open(at: root).close()
    let database = try Database.open(path: root + "/manifest.sqlite")
    try database.execute(
      """
      DROP TABLE sync_settings;
      DROP TABLE sync_accounts;
      DROP TABLE sync_assets;
      DROP TABLE sync_batches;
      DROP TABLE sync_members;
      DROP TABLE writers;
      DROP TABLE intents;
      DROP TABLE journal_state;
      DROP TABLE journal_outbox;
      DROP INDEX assets_by_live_photo;
      ALTER TABLE assets DROP COLUMN metadata;
      ALTER TABLE assets DROP COLUMN live_photo_id;
      ALTER TABLE assets DROP COLUMN location_stripped;
      PRAGMA user_version=1;
      INSERT INTO batches(id, created_at) VALUES ('b', 0);
      INSERT INTO assets(id, sha256, size, type, name, imported_at, sort_date, batch_seq, position)
        VALUES ('a', '\(SHA256Digest.of([1]).hex)', 1, 'jpeg', 'old.jpg', 0, 0, 1, 0);
      INSERT INTO batch_items VALUES (1, 0, 'a');
      """)
    let hex = SHA256Digest.of([1]).hex
    try folder.write("library/objects/\(hex.prefix(2))/\(hex)", [1])
    let library = try await Library.open(at: root)
    let old = try #require(try await library.asset(AssetID(rawValue: "a")))
    #expect(old.name == "old.jpg")
    #expect(old.metadata == nil)
    await library.close()
    #expect(try Database.open(path: root + "/manifest.sqlite").userVersion == Manifest.currentVersion)
    let reopened = try await Library.open(at: root)
    // New imports record their facts in the migrated manifest.
    let summary = await Importer(library: reopened).importItems([
      FileItemSource(path: Self.sample("IMG_0001.JPG"))
    ])
    #expect(summary.items[0].result.asset?.metadata?.model == "iPhone 15 Pro")
  }
}
