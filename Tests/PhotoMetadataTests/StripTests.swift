import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Strips every fixture and crafted file, then proves with outside tools that location is gone (exiftool
/// finds no GPS tag), pixels are identical (libvips raw pixels; ffmpeg frame hashes for movies), and the
/// file is still valid (exiftool -validate adds no warning; vips and ffprobe decode it).
struct StripTests {
  /// Checked with ffmpeg rather than libvips: movies, and HEIF image sequences (libheif 1.15 reads no `pict` track).
  static let movieTypes: Set<String> = ["mov", "mp4", "heics"]

  @Test func strippedFilesHaveNoGPSAndIdenticalPixels() throws {
    let folder = TemporaryDirectory()
    // A file with a damaged Exif IFD is read with a warning but not stripped: the stripper must see every
    // directory that could hold location (TIFFDamageTests checks that it refuses).
    // The same for the `damaged-*` files (DamagedFileTests checks how the stripper treats each).
    var originals: [URL] = TestSupport.fixtureNames.filter {
      $0 != "tiff-bad-exif-pointer.tif" && !$0.hasPrefix("damaged-")
    }
    .map(TestSupport.fixture)
    for (name, bytes) in try CraftedFiles.all() {
      originals.append(URL(fileURLWithPath: try folder.write(name, bytes)))
    }
    var stripped: [URL] = []
    for original in originals {
      let name = original.lastPathComponent
      let destination = URL(fileURLWithPath: folder.at("stripped-" + name))
      let before = try MetadataReader.read(fileAt: original.path)
      let report = try LocationStripper.strip(fileAt: original.path, to: destination.path)
      stripped.append(destination)
      #expect(report.removedLocation == (before.location != nil), Comment(rawValue: name))
      // Same-length edits only: every offset in the file is still right.
      #expect(report.strippedSize == report.originalSize, Comment(rawValue: name))
      // The in-memory form gives the same bytes.
      let memory = try LocationStripper.strip(bytes: Array(Data(contentsOf: original)))
      #expect(memory.bytes == Array(try Data(contentsOf: destination)), Comment(rawValue: name))
      // Everything but location is unchanged.
      var after = try MetadataReader.read(fileAt: destination.path)
      #expect(after.location == nil, Comment(rawValue: name))
      after.location = before.location
      #expect(after == before, Comment(rawValue: name))
    }

    // exiftool, reading embedded documents too (MPF images), finds no GPS tag anywhere.
    for tags in try TestSupport.exiftool(stripped.map(\.path), extra: ["-ee", "-a"]) {
      let gps = tags.keys.filter { $0.contains("GPS") || $0.contains("LocationInformation") }
      #expect(gps.isEmpty, "\(tags["SourceFile"] ?? ""): \(gps)")
    }
    // The MPF secondary image lost its GPS IFD as well.
    let mpf = Array(try Data(contentsOf: URL(fileURLWithPath: folder.at("stripped-crafted-mpf.jpg"))))
    let preview = try #require(try MetadataReader.read(bytes: mpf).previews.first)
    let secondary = Array(mpf[(preview.offset ?? 0)...])
    #expect(try MetadataReader.read(bytes: secondary).location == nil)

    // exiftool -validate on the originals and the copies, in one batch each: stripping adds no warning.
    let warningsBefore = try Self.validationWarnings(originals),
      warningsAfter = try Self.validationWarnings(stripped)
    for (index, original) in originals.enumerated() {
      let added = warningsAfter[index].subtracting(warningsBefore[index])
      #expect(added.isEmpty, "\(original.lastPathComponent): \(added)")
    }
    for (original, copy) in zip(originals, stripped) {
      let name = original.lastPathComponent
      let ext = original.pathExtension
      if name.hasPrefix("crafted-") && ext == "heic" { continue }  // bogus coded data, by design
      if Self.movieTypes.contains(ext) {
        #expect(try Self.frameHashes(original) == Self.frameHashes(copy), Comment(rawValue: name))
        #expect(try TestSupport.run("ffprobe", ["-v", "error", copy.path]).status == 0)
      } else {
        let a = try Self.rawPixels(original, folder), b = try Self.rawPixels(copy, folder)
        #expect(!a.isEmpty && a == b, Comment(rawValue: name))
      }
    }
  }

  @Test func pixelComparisonCanFail() throws {
    // The check above would notice a changed pixel: flip one entropy-coded byte of a JPEG.
    let folder = TemporaryDirectory()
    var bytes = try TestSupport.bytes("jpeg-plain.jpg")
    bytes[bytes.count - 20] ^= 0x55
    let damaged = URL(fileURLWithPath: try folder.write("damaged.jpg", bytes))
    let original = try Self.rawPixels(TestSupport.fixture("jpeg-plain.jpg"), folder)
    let changed = try Self.rawPixels(damaged, folder)
    // Both decode (an empty result would mean vips refused the file, which proves nothing) and differ.
    #expect(!original.isEmpty && !changed.isEmpty)
    #expect(original != changed)
  }

  @Test func fileWithoutLocationIsCopiedUnchanged() throws {
    let bytes = try TestSupport.bytes("webp-lossless.webp")
    let result = try LocationStripper.strip(bytes: bytes)
    #expect(result.bytes == bytes)
    #expect(result.report.removed.isEmpty)
    #expect(result.report.changedByteCount == 0)
  }

  @Test func reportNamesWhatWasRemoved() throws {
    let result = try LocationStripper.strip(bytes: TestSupport.bytes("heic-exif-thumbnail.heic"))
    #expect(result.report.removed.contains { $0.hasPrefix("EXIF GPS IFD") })
    #expect(result.report.removed.contains("XMP exif:GPSLatitude"))
    let movie = try LocationStripper.strip(bytes: TestSupport.bytes("mov-apple-keys.mov"))
    #expect(movie.report.removed == ["QuickTime key com.apple.quicktime.location.ISO6709"])
    #expect(try MetadataReader.read(bytes: movie.bytes).livePhotoID == "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D")
  }

  @Test func failedStripLeavesNoDestination() throws {
    let folder = TemporaryDirectory()
    let truncated = Array(try TestSupport.bytes("jpeg-orientation-1.jpg").prefix(300))
    let source = try folder.write("bad.jpg", truncated)
    let destination = folder.at("out.jpg")
    #expect(throws: MetadataError.truncated) {
      try LocationStripper.strip(fileAt: source, to: destination)
    }
    #expect(!FileManager.default.fileExists(atPath: destination))
    #expect(throws: MetadataError.io(ENOENT)) {
      try LocationStripper.strip(fileAt: folder.at("missing.jpg"), to: destination)
    }
  }

  /// Decoded pixels as raw bytes (`vips rawsave`), so that any changed pixel shows.
  static func rawPixels(_ url: URL, _ folder: TemporaryDirectory) throws -> Data {
    let out = folder.at(UUID().uuidString + ".raw")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let result = try TestSupport.run("vips", ["rawsave", url.path, out])
    guard result.status == 0 else { return Data() }
    return try Data(contentsOf: URL(fileURLWithPath: out))
  }

  static func frameHashes(_ url: URL) throws -> String {
    let result = try TestSupport.run(
      "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "framemd5", "-"])
    return String(decoding: result.output, as: UTF8.self)
  }

  /// exiftool's validation warnings for each file (text output, one "========" block per file).
  static func validationWarnings(_ urls: [URL]) throws -> [Set<String>] {
    let result = try TestSupport.run("exiftool", ["-validate", "-warning", "-a", "-G1"] + urls.map(\.path))
    var blocks: [Set<String>] = []
    for line in String(decoding: result.output, as: UTF8.self).split(separator: "\n") {
      if line.hasPrefix("========") {
        blocks.append([])
      } else if line.contains("Warning"), !line.contains("Validate"), !blocks.isEmpty {
        blocks[blocks.count - 1].insert(String(line))
      }
    }
    return urls.count == 1 && blocks.isEmpty ? [[]] : blocks
  }
}
