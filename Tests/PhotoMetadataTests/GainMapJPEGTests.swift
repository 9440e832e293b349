import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// JPEG gain maps on real files — an iPhone's, a Pixel 8's, Adobe Camera Raw's, libultrahdr's ISO 21496-1, and
/// saves that dropped the gain map — with exiftool deciding which kind each has (GainMapFixtures/README.md).
///
/// exiftool's rule, as ours: a gain map is an MPF image of the file (read by `exiftool -ee` as Doc2 …) whose own
/// metadata says so — ISO 21496-1 APP2 or `hdrgm:` XMP for `iso`, Apple's `HDRGainMap` XMP or auxiliary type for
/// `apple`, `iso` winning where both are. What the primary alone says is no gain map.
struct GainMapJPEGTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("GainMapFixtures")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// The expected kind of every fixture, written out so the table reads on its own; each row must also be
  /// what the recorded exiftool reading says.
  static let fixtures: [(String, HDRGainMap)] = [
    ("apple-iphone.jpg", .apple),
    ("apple-iphone-older-xmp.jpg", .apple),
    ("ultrahdr-pixel8.jpg", .iso),
    ("adobe-camera-raw.jpg", .iso),
    ("ultrahdr-mpf-big-endian.jpg", .iso),
    ("iso-libultrahdr.jpg", .iso),
    ("iso-gainmap-image-only.jpg", .iso),
    ("ultrahdr-gainmap-dropped.jpg", .none),
    ("iso-gainmap-dropped.jpg", .none),
  ]

  /// exiftool 13.58's reading (`Scripts/gainmap-oracle.sh`), by file name.
  static func recorded() throws -> [String: [String: Any]] {
    let data = try Data(contentsOf: folder.appendingPathComponent("exiftool.json"))
    let reports = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    var byName: [String: [String: Any]] = [:]
    for report in reports {
      let source = try #require(report["SourceFile"] as? String)
      byName[(source as NSString).lastPathComponent] = report
    }
    return byName
  }

  /// The kind exiftool's tags give, by the rule above. `withAPP2` false leaves out the ISO 21496-1 APP2, which
  /// exiftool before 12.7x does not read.
  static func kind(_ tags: [String: Any], withAPP2: Bool = true) -> HDRGainMap {
    // "Doc2:XMP-hdrgm:Version" → ("Doc2", "XMP-hdrgm:Version"); only Doc2 and later are MPF images.
    let gainMapImages = tags.compactMap { key, value -> (String, String)? in
      guard key.hasPrefix("Doc"), let colon = key.firstIndex(of: ":"), key[..<colon] != "Doc1" else {
        return nil
      }
      return (String(key[key.index(after: colon)...]), "\(value)")
    }
    if gainMapImages.contains(where: { tag, value in
      tag == "XMP-hdrgm:Version"
        || (withAPP2 && tag == "APP2:UniformResourceName" && value.hasPrefix("urn:iso:std:iso:ts:21496:-1"))
    }) {
      return .iso
    }
    if gainMapImages.contains(where: { tag, value in
      tag == "XMP-HDRGainMap:HDRGainMapVersion"
        || (tag == "XMP-apdi:AuxiliaryImageType" && value.contains("hdrgainmap"))
    }) {
      return .apple
    }
    return .none
  }

  /// `exiftool -ee` with the tags the rule reads; `tool` is a path to another exiftool, run with perl.
  static func exiftool(_ paths: [String], tool: String? = nil) throws -> [[String: Any]] {
    let arguments =
      ["-ee", "-a", "-G3:1", "-j", "-XMP-hdrgm:Version", "-XMP-HDRGainMap:HDRGainMapVersion"]
      + ["-XMP-apdi:AuxiliaryImageType", "-APP2:UniformResourceName"] + paths
    let result =
      try tool.map { try TestSupport.run("perl", [$0] + arguments) } ?? TestSupport.run("exiftool", arguments)
    return try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]] ?? []
  }

  @Test(arguments: fixtures)
  func kindAgreesWithExiftool(name: String, expected: HDRGainMap) throws {
    let comment = Comment(rawValue: name)
    let oracle = try #require(try Self.recorded()[name], comment)
    #expect(Self.kind(oracle) == expected, comment)
    let ours = try MetadataReader.read(fileAt: Self.path(name))
    #expect(ours.hdrGainMap == expected, comment)
    #expect(ours.hasGainMap == (expected != .none), comment)
  }

  @Test func everyFixtureIsInTheTableAndTheRecording() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
      $0.hasSuffix(".jpg")
    }
    #expect(Set(files) == Set(Self.fixtures.map(\.0)))
    #expect(Set(try Self.recorded().keys) == Set(files))
    #expect(try Self.recorded().values.allSatisfy { "\($0["ExifTool:ExifToolVersion"] ?? "")" == "13.58" })
  }

  /// The recording is exiftool's: the installed exiftool (Debian's 12.57 reads the XMP, not the ISO 21496-1
  /// APP2) gives the same kinds where no APP2 is needed, and `GAINMAP_EXIFTOOL` (a newer exiftool's path, e.g.
  /// a checkout of its repository) gives the same kinds everywhere.
  @Test func recordingMatchesTheInstalledExiftool() throws {
    let names = Self.fixtures.map(\.0)
    let recorded = try Self.recorded()
    let live = try Self.exiftool(names.map(Self.path))
    #expect(live.count == names.count)
    for (name, tags) in zip(names, live) {
      let recording = try #require(recorded[name])
      #expect(
        Self.kind(tags, withAPP2: false) == Self.kind(recording, withAPP2: false), Comment(rawValue: name))
    }
    if let newer = ProcessInfo.processInfo.environment["GAINMAP_EXIFTOOL"] {
      for (name, tags) in zip(names, try Self.exiftool(names.map(Self.path), tool: newer)) {
        #expect(Self.kind(tags) == Self.kind(try #require(recorded[name])), Comment(rawValue: name))
      }
    }
  }

  /// Removing the location keeps the gain map whole: the same length, the gain-map image and the primary's
  /// image data byte for byte, the MPF and ISO 21496-1 segments and the gain-map XMP unchanged; only bytes in
  /// the primary's EXIF and XMP segments change.
  @Test(arguments: located)
  func strippingTheLocationKeepsTheGainMap(name: String) throws {
    let comment = Comment(rawValue: name)
    let original = Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))
    let before = try MetadataReader.read(bytes: original)
    #expect(before.location != nil, comment)
    let stripped = try LocationStripper.strip(bytes: original)
    #expect(stripped.report.changedByteCount > 0, comment)
    let copy = stripped.bytes
    #expect(copy.count == original.count, comment)
    let after = try MetadataReader.read(bytes: copy)
    #expect(after.location == nil && after.hdrGainMap == before.hdrGainMap, comment)

    let input = Input(bytes: original)
    let segments = try JPEGSegments.read(input, limits: .default)
    let layout = try JPEGLayout(input, limits: .default)
    let mpf = try #require(layout.mpf, comment)
    let images = try MPFIndex.images(mpf.bytes, base: mpf.base, fileSize: original.count, limits: .default)
    #expect(images.count == 2, comment)
    // Everything after the primary's headers — its image data, then the gain-map image (which carries no
    // location in these files) — is unchanged.
    let scan = try #require(segments.last, comment)
    #expect(copy[scan.payload.upperBound...] == original[scan.payload.upperBound...], comment)
    // Each changed byte lies in an EXIF or XMP segment of the primary; MPF, ISO 21496-1 and ICC do not change.
    let editable = segments.filter { segment in
      segment.marker == 0xE1
        && (original[segment.payload].starts(with: JPEGLayout.exifSignature)
          || original[segment.payload].starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)))
    }
    let outside = original.indices.filter { index in
      original[index] != copy[index] && !editable.contains { $0.payload.contains(index) }
    }
    #expect(
      outside.isEmpty, "\(name): \(outside.count) bytes changed outside EXIF/XMP, from \(outside.first ?? 0)")
    // The gain-map description in the primary's XMP (Ultra HDR's `hdrgm:` and GContainer) is kept verbatim.
    for needle in ["hdrgm:Version=\"1.0\"", "Item:Semantic=\"GainMap\""] {
      let bytes = Array(needle.utf8)
      #expect(original.firstRange(of: bytes) == copy.firstRange(of: bytes), comment)
    }
    // exiftool reads the same gain map from the copy.
    let folder = TemporaryDirectory()
    let tags = try Self.exiftool([try folder.write(name, copy)]).first ?? [:]
    #expect(
      Self.kind(tags, withAPP2: false) == Self.kind(try Self.recorded()[name] ?? [:], withAPP2: false),
      comment)
  }

  /// The fixtures with a location (real GPS, or made up where the source had none).
  static let located = [
    "adobe-camera-raw.jpg", "apple-iphone.jpg", "iso-gainmap-image-only.jpg", "iso-libultrahdr.jpg",
    "ultrahdr-pixel8.jpg",
  ]
}
