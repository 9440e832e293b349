import Foundation
import PhotoIntakeTesting
import PhotoMetadata
import Testing

@testable import PhotoIntake

#if canImport(CVips)
  /// `Library.export(_:to:options:)` and `PreparedFile.files(for:in:as:)` with real files, libvips and libheif,
  /// and exiftool as the oracle for what the exported files say.
  ///
  /// The HEIC sources are made in each test's folder: `vips` converts the reference scene to Display P3 (its
  /// built-in profile, embedded) and writes HEIC; exiftool adds the camera, the date and a position.
  @Suite struct CompatibleExportTests {
    let folder = TemporaryDirectory()
    static let liveID = "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D"

    // MARK: Tools

    /// Runs a command-line tool, failing the test when it fails; returns its standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
      process.arguments = arguments
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      try #require(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " ")) failed")
      return data
    }

    /// What exiftool reads from `path` (`-n`: numbers as numbers; tag names without groups).
    static func exif(_ path: String) throws -> [String: Any] {
      let data = try run("exiftool", ["-n", "-json", path])
      let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
      return try #require(objects.first)
    }

    /// A Display P3 HEIC of the reference scene (96×64) with a camera, a capture date and a position.
    func p3HEIC(_ name: String = "IMG_0100.heic") throws -> String {
      let p3 = folder.at("p3.png")
      if !FileManager.default.fileExists(atPath: p3) {
        try Self.run("vips", ["icc_transform", ImagingFixture.path("reference.png"), p3, "p3", "--embedded"])
      }
      let heic = folder.at(name)
      try Self.run("vips", ["copy", p3, heic])
      try Self.tag(heic)
      return heic
    }

    static func tag(_ path: String, _ extra: [String] = []) throws {
      try run(
        "exiftool",
        [
          "-q", "-overwrite_original", "-DateTimeOriginal=2024:05:06 07:08:09", "-OffsetTimeOriginal=+02:00",
          "-Make=Apple", "-Model=iPhone 15 Pro", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N",
          "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
        ] + extra + [path])
    }

    func importing(_ paths: [String]) async throws -> (Library, [Asset]) {
      let library = try await Library.open(at: folder.at("library"))
      let summary = await Importer(library: library).importItems(paths.map(FileItemSource.init(path:)))
      var assets: [Asset] = []
      for item in summary.items {
        let id = try #require(item.result.asset?.id, "\(item.result)")
        assets.append(try #require(try await library.asset(id)))
      }
      return (library, assets)
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    // MARK: HEIC to JPEG

    @Test(arguments: [false, true])
    func heicBecomesAJPEGWithItsSizeDateCameraAndProfile(stripLocation: Bool) async throws {
      let source = try p3HEIC()
      let before = try Self.exif(source)
      #expect(before["GPSLatitude"] != nil, "the fixture has a position")
      let (library, assets) = try await importing([source])
      let out = folder.at("out")
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let written = try await library.export(
        assets[0].id, to: out, options: ExportOptions(format: .jpeg, stripLocation: stripLocation))
      #expect(written.map(\.path) == [out + "/IMG_0100.jpg"])
      #expect(written[0].isConverted)
      let jpeg = try bytes(written[0].path)
      #expect(MediaType.sniff(jpeg) == .jpeg)
      let after = try Self.exif(written[0].path)
      #expect(after["ImageWidth"] as? Int == 96 && after["ImageHeight"] as? Int == 64)
      #expect(after["Orientation"] as? Int ?? 1 == 1)
      #expect(after["DateTimeOriginal"] as? String == "2024:05:06 07:08:09")
      #expect(after["OffsetTimeOriginal"] as? String == "+02:00")
      #expect(after["Make"] as? String == "Apple" && after["Model"] as? String == "iPhone 15 Pro")
      let profile = try #require(before["ProfileDescription"] as? String)
      #expect(after["ProfileDescription"] as? String == profile, "the P3 profile is embedded as it was")
      if before["ExifImageWidth"] != nil { #expect(after["ExifImageWidth"] as? Int == 96) }
      if stripLocation {
        #expect(after["GPSLatitude"] == nil && after["GPSPosition"] == nil)
        #expect(try MetadataReader.read(bytes: jpeg).location == nil)
      } else {
        let latitude = try #require(after["GPSLatitude"] as? Double)
        #expect(abs(latitude - 48.8584) < 1e-4)
      }
    }

    @Test func aTurnedHEICComesOutUprightWithItsSidesSwapped() async throws {
      // irot.heic stores the scene turned (96×128) with an irot box; exiftool adds EXIF orientation 6 as an
      // iPhone writes it, which must not be applied a second time.
      let source = folder.at("turned.heic")
      try FileManager.default.copyItem(atPath: ImagingFixture.path("irot.heic"), toPath: source)
      try Self.tag(source, ["-Orientation#=6"])
      let (library, assets) = try await importing([source])
      let target = folder.at("turned.jpg")
      let written = try await library.export(assets[0].id, to: target, options: ExportOptions(format: .jpeg))
      #expect(written.map(\.path) == [target])
      let picture = try Picture(file: target)
      #expect(assets[0].metadata?.width == 96 && assets[0].metadata?.height == 128)
      #expect(picture.width == 128 && picture.height == 96)
      #expect(sceneMismatches(picture) == [])
      #expect(try Self.exif(target)["Orientation"] as? Int ?? 1 == 1)
    }

    @Test(arguments: [3, 6, 8])
    func aJPEGStoredTurnedIsTurnedUpright(orientation: Int) async throws {
      let (library, assets) = try await importing([ImagingFixture.path("orientation-\(orientation).jpg")])
      let target = folder.at("upright.jpg")
      let written = try await library.export(assets[0].id, to: target, options: ExportOptions(format: .jpeg))
      #expect(written[0].isConverted)
      let picture = try Picture(file: target)
      #expect(picture.width == 96 && picture.height == 64)
      #expect(sceneMismatches(picture) == [])
      #expect(try Self.exif(target)["Orientation"] as? Int == 1)
    }

    @Test func anUprightJPEGGoesAsItIs() async throws {
      let source = ImagingFixture.path("orientation-1.jpg")
      let (library, assets) = try await importing([source])
      let target = folder.at("same.jpg")
      let written = try await library.export(assets[0].id, to: target, options: ExportOptions(format: .jpeg))
      #expect(!written[0].isConverted)
      #expect(try bytes(target) == bytes(source))
    }

    @Test(arguments: ["Screenshot 2024-01-05.png", "shared-photo.webp"])
    func pngAndWebPBecomeJPEG(sample: String) async throws {
      let source = Repository.path("Samples/" + sample)
      let (library, assets) = try await importing([source])
      let target = folder.at("converted.jpg")
      _ = try await library.export(assets[0].id, to: target, options: ExportOptions(format: .jpeg))
      let converted = try bytes(target)
      #expect(MediaType.sniff(converted) == .jpeg)
      let metadata = try #require(assets[0].metadata)
      let upright =
        metadata.orientation.swapsDimensions
        ? (metadata.height, metadata.width) : (metadata.width, metadata.height)
      let picture = try Picture(encoded: converted)
      #expect(picture.width == upright.0 && picture.height == upright.1)
    }

    @Test func maxSizeReducesTheLongestSide() async throws {
      let (library, assets) = try await importing([
        Repository.path("Samples/IMG_0002.HEIC"), Repository.path("Samples/IMG_0001.JPG"),
      ])
      for asset in assets {
        let metadata = try #require(asset.metadata)
        let target = folder.at("small-\(asset.id).jpg")
        _ = try await library.export(
          asset.id, to: target, options: ExportOptions(format: .original, maxPixelSize: 100))
        let picture = try Picture(file: target)
        #expect(max(picture.width, picture.height) == 100)
        let (width, height) = (try #require(metadata.width), try #require(metadata.height))
        // The shape is kept, the sides swapped when the orientation turns the picture.
        let expectedShort = Double(min(width, height)) * 100 / Double(max(width, height))
        #expect(abs(Double(min(picture.width, picture.height)) - expectedShort) <= 1)
        let portrait = metadata.orientation.swapsDimensions ? width > height : height > width
        #expect((picture.height > picture.width) == portrait)
        #expect(try Self.exif(target)["ExifImageWidth"] as? Int ?? picture.width == picture.width)
      }
    }

    @Test func anOriginalWithinTheMaximumSizeGoesAsItIs() async throws {
      let source = Repository.path("Samples/IMG_0002.HEIC")
      let (library, assets) = try await importing([source])
      let out = folder.at("out")
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let written = try await library.export(
        assets[0].id, to: out, options: ExportOptions(format: .original, maxPixelSize: 4096))
      #expect(written.map(\.path) == [out + "/IMG_0002.HEIC"])
      #expect(!written[0].isConverted)
      #expect(try bytes(written[0].path) == bytes(source))
    }

    @Test func aPictureOverThePixelLimitIsRefusedBeforeAnyDecode() async throws {
      let (library, assets) = try await importing([try p3HEIC()])
      let decodes = Protected(0)
      let target = folder.at("bomb.jpg")
      await #expect {
        try await DecodeProbe.observer.withValue(.init { _ in decodes.withLock { $0 += 1 } }) {
          try await library.export(
            assets[0].id, to: target, options: ExportOptions(format: .jpeg, maximumPixelCount: 1000))
        }
      } throws: { error in
        guard case Library.Error.cannotConvert(_, .tooManyPixels(let declared, let limit)) = error else {
          return false
        }
        return declared == 96 * 64 && limit == 1000
      }
      #expect(decodes.current == 0)
      #expect(!FileManager.default.fileExists(atPath: target))
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    /// A maximum size beyond 32 bits (`--max-size 3000000000`) for a picture whose header gives no usable
    /// size (a PNG declaring 0 × 0, so it never "fits"): a typed error, not a trap converting it for libvips.
    @Test func aMaximumSizeBeyond32BitsIsNoTrap() async throws {
      func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
          crc ^= UInt32(byte)
          for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return be32(UInt32(data.count)) + body + be32(~crc)
      }
      let header = be32(0) + be32(0) + [8, 2, 0, 0, 0]
      let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", [])
      let source = try folder.write("zero.png", png)
      let (library, assets) = try await importing([source])
      let target = folder.at("zero.jpg")
      await #expect(throws: Library.Error.self) {
        try await library.export(
          assets[0].id, to: target, options: ExportOptions(format: .jpeg, maxPixelSize: 3_000_000_000))
      }
      #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func anExistingDestinationIsLeftUntouched() async throws {
      let (library, assets) = try await importing([try p3HEIC()])
      let target = folder.at("taken.jpg")
      try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
      await #expect(throws: Library.Error.destinationExists(target)) {
        try await library.export(assets[0].id, to: target, options: ExportOptions(format: .jpeg))
      }
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
      // A dangling symbolic link counts as taken, and is not followed.
      let link = folder.at("link.jpg")
      try FileManager.default.createSymbolicLink(
        atPath: link, withDestinationPath: folder.at("elsewhere.jpg"))
      await #expect(throws: Library.Error.destinationExists(link)) {
        try await library.export(assets[0].id, to: link, options: ExportOptions(format: .jpeg))
      }
      #expect(!FileManager.default.fileExists(atPath: folder.at("elsewhere.jpg")))
    }

    #if TestHooks  // fault injection exists only in test-hook builds
      /// Another writer's file at the temporary name (a collision of the random names, or a file placed there):
      /// creating the temporary file fails, and that file is left as it was. It used to be removed by the
      /// clean-up meant for our own temporary file. (A copy without location is created by LocationStripper,
      /// outside the fault injector's reach, before any call the test can watch.)
      @Test(arguments: [ExportOptions(format: .jpeg), ExportOptions()])
      func aFileAtTheTemporaryNameIsNotOurs(options: ExportOptions) async throws {
        let (library, assets) = try await importing([try p3HEIC()])
        let squatted = Protected<String?>(nil)
        let faults = FaultInjector(
          [],
          beforeCall: { operation, path in
            guard operation == .open, path.contains("/.intake-"), path.hasSuffix(".tmp"),
              squatted.current == nil
            else {
              return
            }
            squatted.withLock { $0 = path }
            _ = FileManager.default.createFile(atPath: path, contents: Data("not ours".utf8))
          })
        let target = folder.at("out.jpg")
        await #expect(throws: Library.Error.self) {
          try await Syscalls.injectedFaults.withValue(faults) {
            try await library.export(assets[0].id, to: target, options: options)
          }
        }
        let path = try #require(squatted.current)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not ours")
        #expect(!FileManager.default.fileExists(atPath: target))
      }
    #endif

    #if TestHooks  // fault injection exists only in test-hook builds
      /// A destination that appears between the check and the link: `link(2)` fails, the export is
      /// ``Library/Error/destinationExists(_:)``, the newcomer is untouched and no temporary file is left.
      @Test func aDestinationAppearingBeforeTheLinkIsLeftAlone() async throws {
        let (library, assets) = try await importing([try p3HEIC()])
        let target = folder.at("late.jpg")
        let faults = FaultInjector(
          [],
          beforeCall: { operation, path in
            guard operation == .link, path == target else { return }
            _ = FileManager.default.createFile(atPath: path, contents: Data("arrived first".utf8))
          })
        await #expect(throws: Library.Error.destinationExists(target)) {
          try await Syscalls.injectedFaults.withValue(faults) {
            try await library.export(assets[0].id, to: target, options: ExportOptions(format: .jpeg))
          }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "arrived first")
        #expect(
          try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy {
            !$0.hasSuffix(".tmp")
          })
      }
    #endif

    #if TestHooks  // fault injection exists only in test-hook builds
      /// The folder's fsync failing after the link: the export fails and leaves nothing at the destination (the
      /// linked name used to stay behind an error, outside the Live Photo roll-back).
      @Test func aFolderThatCannotBeSyncedKeepsNothing() async throws {
        let (library, assets) = try await importing([try p3HEIC()])
        let out = folder.at("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // The first fsync under `out` is the temporary file's, the second the folder's.
        let faults = FaultInjector([.init(.fsync, pathContains: out, code: EIO, skip: 1)])
        await #expect(throws: Library.Error.self) {
          try await Syscalls.injectedFaults.withValue(faults) {
            try await library.export(
              assets[0].id, to: out + "/photo.jpg", options: ExportOptions(format: .jpeg))
          }
        }
        #expect(faults.firedCounts[0] == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [])
      }
    #endif

    // MARK: Live Photos

    /// A Live Photo still: the reference scene stored turned, EXIF orientation 6 and an Apple MakerNote with
    /// the content identifier of `mov-apple-keys.mov` (tag 0x0011, which exiftool 12 names MediaGroupUUID).
    func liveStill() throws -> String {
      let stripped = folder.at("still-plain.jpg")
      try Self.run("exiftool", ["-q", "-all=", "-o", stripped, ImagingFixture.path("orientation-6.jpg")])
      let plain = try bytes(stripped)
      let text = Array(Self.liveID.utf8) + [0]
      var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
      note += be16(1) + be16(0x0011) + be16(2) + be32(UInt32(text.count)) + be32(14 + 2 + 12 + 4) + be32(0)
      note += text
      // TIFF: IFD0 (Make, Orientation, ExifIFD) at 8; the Exif IFD (MakerNote) after it; then the values.
      let make = Array("Apple".utf8) + [0]
      let ifd0Size = 2 + 3 * 12 + 4, exifSize = 2 + 12 + 4
      let makeAt = 8 + ifd0Size + exifSize, noteAt = makeAt + make.count
      var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8)
      tiff += be16(3)
      tiff += be16(0x010F) + be16(2) + be32(UInt32(make.count)) + be32(UInt32(makeAt))
      tiff += be16(0x0112) + be16(3) + be32(1) + be16(6) + be16(0)
      tiff += be16(0x8769) + be16(4) + be32(1) + be32(UInt32(8 + ifd0Size))
      tiff += be32(0)
      tiff += be16(1) + be16(0x927C) + be16(7) + be32(UInt32(note.count)) + be32(UInt32(noteAt)) + be32(0)
      tiff += make + note
      let payload = Array("Exif".utf8) + [0, 0] + tiff
      let segment: [UInt8] = [0xFF, 0xE1] + be16(UInt16(payload.count + 2)) + payload
      let still = folder.at("IMG_0200.JPG")
      try Data(Array(plain[..<2]) + segment + Array(plain[2...])).write(to: URL(fileURLWithPath: still))
      return still
    }

    func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func be32(_ v: UInt32) -> [UInt8] { be16(UInt16(v >> 16)) + be16(UInt16(v & 0xFFFF)) }

    func livePair() async throws -> (Library, still: Asset, movie: Asset) {
      let movie = folder.at("IMG_0200.MOV")
      try FileManager.default.copyItem(
        atPath: Repository.path("Tests/PhotoMetadataTests/Fixtures/mov-apple-keys.mov"), toPath: movie)
      let (library, assets) = try await importing([try liveStill(), movie])
      #expect(
        assets[0].metadata?.livePhotoID == Self.liveID, "the crafted still reads as half of a Live Photo")
      #expect(assets[1].metadata?.livePhotoID == Self.liveID)
      return (library, assets[0], assets[1])
    }

    @Test func aLivePhotoExportsAsItsPair() async throws {
      let (library, still, movie) = try await livePair()
      #expect(try await library.livePhotoPartner(of: still)?.id == movie.id)
      #expect(try await library.livePhotoPartner(of: movie)?.id == still.id)
      let out = folder.at("out")
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let written = try await library.export(still.id, to: out, options: ExportOptions(format: .jpeg))
      // A JPEG keeps its name (it is still a JPEG); the movie keeps its own.
      #expect(written.map(\.path) == [out + "/IMG_0200.JPG", out + "/IMG_0200.MOV"])
      #expect(written.map(\.isConverted) == [true, false])
      // The movie goes as it is; the still is turned upright and keeps the content identifier that pairs it.
      #expect(try bytes(written[1].path) == bytes(library.objectPath(for: movie)))
      let after = try Self.exif(written[0].path)
      #expect(after["MediaGroupUUID"] as? String == Self.liveID)
      #expect(after["Orientation"] as? Int == 1)
      #expect(sceneMismatches(try Picture(file: written[0].path)) == [])
      // Exporting the movie brings the still along too, beside a file destination.
      let written2 = try await library.export(movie.id, to: folder.at("clip.mov"), options: ExportOptions())
      #expect(written2.map(\.path) == [folder.at("clip.mov"), folder.at("clip.jpg")])
    }

    @Test func aLivePhotoPairIsWrittenWholeOrNotAtAll() async throws {
      let (library, still, _) = try await livePair()
      let taken = folder.at("pair.mov")
      try Data("keep me".utf8).write(to: URL(fileURLWithPath: taken))
      await #expect(throws: Library.Error.destinationExists(taken)) {
        try await library.export(still.id, to: folder.at("pair.jpg"), options: ExportOptions(format: .jpeg))
      }
      #expect(!FileManager.default.fileExists(atPath: folder.at("pair.jpg")))
      #expect(try String(contentsOfFile: taken, encoding: .utf8) == "keep me")
    }

    /// The second half failing while it is written (its stored bytes altered since import) removes the first
    /// half, already written, and nothing else: a file of the same name elsewhere, and the temporary files.
    @Test func aLivePhotoWhoseSecondHalfFailsLeavesNothing() async throws {
      let (library, still, movie) = try await livePair()
      let object = library.objectPath(for: movie)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: object)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: object))
      try handle.seek(toOffset: 40)
      try handle.write(contentsOf: Data([0xFF, 0xFF]))
      try handle.close()
      let out = folder.at("out")
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let bystander = folder.at("IMG_0200.JPG")
      let before = try bytes(bystander)
      await #expect(throws: Library.Error.alteredObject(movie.id)) {
        try await library.export(still.id, to: out, options: ExportOptions(format: .jpeg))
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [])
      #expect(try bytes(bystander) == before)
    }

    @Test func sharingALivePhotoYieldsBothParts() async throws {
      let (library, still, movie) = try await livePair()
      let shared = folder.at("shared")
      for asset in [still, movie] {
        let files = try await PreparedFile.files(
          for: asset, in: library, as: ExportOptions(format: .jpeg, stripLocation: true), folder: shared)
        #expect(files.count == 2)
        #expect(files.map { MediaType.sniff(try! bytes($0.path)) } == [.jpeg, .mov])
        #expect(files[0].path.hasSuffix("/IMG_0200.jpg") && files[1].path.hasSuffix("/IMG_0200.mov"))
        #expect(try Self.exif(files[0].path)["MediaGroupUUID"] as? String == Self.liveID)
        files.forEach { $0.release() }
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
      }
      // The library's objects are untouched by the release.
      #expect(FileManager.default.fileExists(atPath: library.objectPath(for: movie)))
    }

    @Test func aPreparedJPEGHasNoLocationWhenAsked() async throws {
      let (library, assets) = try await importing([try p3HEIC()])
      let file = try PreparedFile.make(
        for: assets[0], in: library, as: ExportOptions(format: .jpeg, stripLocation: true, maxPixelSize: 48),
        folder: folder.at("prepared"))
      defer { file.release() }
      #expect(file.path.hasSuffix("/IMG_0100.jpg"))
      let after = try Self.exif(file.path)
      #expect(after["GPSLatitude"] == nil && after["ImageWidth"] as? Int == 48)
      #expect(after["DateTimeOriginal"] as? String == "2024:05:06 07:08:09")
      #expect(!file.removedLocation.isEmpty)
    }
  }
#endif
