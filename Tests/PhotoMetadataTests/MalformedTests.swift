import Testing

@testable import PhotoMetadata

/// Crafted broken inputs: each must give its typed error (or be read, where the damage is in data we may
/// ignore), promptly, without a crash or a hang.
struct MalformedTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var bytes: @Sendable () throws -> [UInt8]
    /// nil: the file must be read successfully.
    var expected: MetadataError?
    var limits = MetadataReader.Limits.default
    /// Whether the damage also costs the parts it described (each with a warning of its own).
    var cascades = false
    var description: String { name }
  }

  static func plain() throws -> [UInt8] { try TestSupport.bytes("jpeg-plain.jpg") }

  /// A JPEG whose EXIF is `tiff`.
  static func jpeg(_ tiff: [UInt8]) throws -> [UInt8] {
    JPEGBuilder.inserting(JPEGBuilder.exifSegment(tiff), into: try plain())
  }

  static func tiff(_ build: (inout TIFFBuilder) -> Void) -> [UInt8] {
    var builder = TIFFBuilder()
    builder.directories = [[(0x010F, .ascii("Make")), (0x0112, .short([1]))]]
    build(&builder)
    return builder.build()
  }

  static func png(_ chunks: [(String, [UInt8])], lengthOverride: [Int: UInt32] = [:]) -> [UInt8] {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (index, (type, data)) in chunks.enumerated() {
      bytes += be32(lengthOverride[index] ?? UInt32(data.count)) + Array(type.utf8) + data
      bytes += be32(CRC32.checksum(Array(type.utf8) + data))
    }
    return bytes
  }

  static let ihdr: (String, [UInt8]) = ("IHDR", be32(64) + be32(48) + [8, 2, 0, 0, 0])

  static func webp(_ chunks: [(String, [UInt8])], riffSize: UInt32? = nil) -> [UInt8] {
    var body: [UInt8] = Array("WEBP".utf8)
    for (type, data) in chunks {
      body += Array(type.utf8) + le32(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }
    return Array("RIFF".utf8) + le32(riffSize ?? UInt32(body.count)) + body
  }

  static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }

  static func movie(_ moov: [UInt8]) -> [UInt8] {
    BoxBuilder.box("ftyp", Array("qt  ".utf8) + be32(0) + Array("qt  ".utf8)) + BoxBuilder.box("moov", moov)
  }

  static func heifWithExif(_ mutate: @escaping (inout [UInt8]) -> Void) -> [UInt8] {
    BoxBuilder.heif(exif: TIFFBuilder.camera(), mutateIloc: mutate)
  }

  static let cases: [Case] = [
    // TIFF / EXIF structure
    Case(
      name: "IFD0 next pointer to itself", bytes: { try jpeg(tiff { $0.next[0] = 8 }) },
      expected: .corrupt("")),
    Case(
      name: "Exif IFD pointing back to IFD0 (A→B→A)",
      bytes: {
        try jpeg(
          tiff {
            $0.directories[0].append((0x8769, .pointer(1)))
            $0.directories.append([(0x8769, .pointer(0))])
          })
      }, expected: .corrupt("")),
    Case(
      name: "GPS and Exif pointers share one IFD",
      bytes: {
        try jpeg(
          tiff {
            $0.directories[0] += [(0x8769, .pointer(1)), (0x8825, .pointer(1))]
            $0.directories.append([(0x9003, .ascii("2020:01:01 00:00:00"))])
          })
      }, expected: .corrupt("")),
    Case(
      name: "IFD1 and IFD2 in a cycle",
      bytes: {
        try jpeg(
          tiff {
            $0.directories.append([(0x0201, .long([0]))])
            $0.directories.append([(0x8769, .pointer(1))])
            $0.directories[1].append((0x8769, .pointer(2)))
            $0.nextDirectory[0] = 1
          })
      }, expected: .corrupt("")),
    Case(
      name: "IFD0 offset past the end",
      bytes: {
        var t = tiff { _ in }
        t.replaceSubrange(4..<8, with: be32(0x00FF_FFF0))
        return try jpeg(t)
      }, expected: .truncated),
    Case(
      name: "IFD0 offset inside the header",
      bytes: {
        var t = tiff { _ in }
        t.replaceSubrange(4..<8, with: be32(4))
        return try jpeg(t)
      }, expected: .corrupt("")),
    Case(
      name: "value offset past the end",
      bytes: {
        try jpeg(tiff { $0.directories[0][0] = (0x010F, .raw(type: 2, count: 40, field: 0x7FFF_0000)) })
      },
      expected: .truncated),
    Case(
      name: "count × size overflows 32 bits",
      bytes: {
        try jpeg(tiff { $0.directories[0].append((0x0132, .raw(type: 5, count: 0xFFFF_FFFF, field: 8))) })
      },
      expected: .corrupt("")),
    Case(
      name: "entry count 65535",
      bytes: {
        var t = tiff { _ in }
        t.replaceSubrange(8..<10, with: be16(0xFFFF))
        return try jpeg(t)
        // Read to the end of the block, as exiftool reads it (issue 26): the entries the block holds.
      }, expected: .truncated),
    Case(
      name: "entry count 4000 past the end",
      bytes: {
        var t = tiff { _ in }
        t.replaceSubrange(8..<10, with: be16(4000))
        return try jpeg(t)
      }, expected: .truncated),
    Case(
      name: "IFD pointers nested 12 deep",
      bytes: {
        try jpeg(
          tiff { builder in
            for level in 0..<12 {
              builder.directories[level].append((0x8769, .pointer(level + 1)))
              builder.directories.append([])
            }
          })
      }, expected: .limitExceeded("")),
    Case(
      name: "no byte-order mark", bytes: { try jpeg(Array("XX".utf8) + Array(tiff { _ in }.dropFirst(2))) },
      expected: .corrupt("")),
    Case(
      // BigTIFF is read (issue 26); a classic header with magic 43 declares 0-byte offsets.
      name: "BigTIFF magic in EXIF",
      bytes: {
        var t = tiff { _ in }
        t[3] = 43
        return try jpeg(t)
      }, expected: .corrupt("")),
    Case(
      name: "garbage maker note is ignored",
      bytes: {
        try jpeg(
          TIFFBuilder.camera(makerNote: Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D, 0xFF, 0xFF, 1, 2]))
      },
      expected: nil),
    Case(
      name: "standalone TIFF whose IFD0 points to itself",
      bytes: { tiff { $0.next[0] = 8 } + [UInt8](repeating: 0, count: 64) }, expected: .corrupt("")),

    // JPEG segments
    Case(
      name: "SOF of 65535×65535",
      bytes: {
        var bytes = try plain()
        let sof = try #require(bytes.firstRange(of: [0xFF, 0xC0]))
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        return bytes
      }, expected: .limitExceeded("")),
    Case(
      name: "segment length 0", bytes: { JPEGBuilder.inserting([0xFF, 0xE1, 0, 0], into: try plain()) },
      expected: .corrupt("")),
    Case(
      name: "segment length 1", bytes: { JPEGBuilder.inserting([0xFF, 0xE1, 0, 1], into: try plain()) },
      expected: .corrupt("")),
    Case(
      name: "segment length past the end",
      bytes: { try Array(plain().prefix(2)) + [0xFF, 0xE1, 0xFF, 0xF0, 1, 2] },
      expected: .truncated),
    Case(
      name: "EOI before the image data", bytes: { JPEGBuilder.inserting([0xFF, 0xD9], into: try plain()) },
      expected: .corrupt("")),
    Case(
      name: "5000 APP segments",
      bytes: {
        JPEGBuilder.inserting(
          Array((0..<5000).map { _ in JPEGBuilder.segment(0xE5, [1]) }.joined()), into: try plain())
      }, expected: .limitExceeded("")),
    Case(
      name: "MPF image past the end",
      bytes: {
        var bytes = JPEGBuilder.mpf(primary: try plain(), secondary: try plain())
        bytes.removeLast(100)
        return bytes
      }, expected: .truncated),
    Case(name: "SOI without any marker", bytes: { [0xFF, 0xD8, 0x00, 0x00, 0x00] }, expected: .unsupported),

    // PNG
    Case(
      name: "PNG chunk length 0x7FFFFFFF",
      bytes: { png([ihdr, ("tEXt", [1, 2, 3]), ("IEND", [])], lengthOverride: [1: 0x7FFF_FFFF]) },
      expected: .truncated),
    Case(
      name: "PNG chunk length 0x80000000",
      bytes: { png([ihdr, ("tEXt", [1, 2, 3]), ("IEND", [])], lengthOverride: [1: 0x8000_0000]) },
      expected: .corrupt("")),
    Case(
      name: "PNG without IHDR first", bytes: { png([("tEXt", [1]), ihdr, ("IEND", [])]) },
      expected: .corrupt("")),
    Case(name: "PNG without IEND", bytes: { png([ihdr, ("IDAT", [1, 2, 3])]) }, expected: .truncated),
    Case(
      name: "PNG eXIf with an IFD loop",
      bytes: { png([ihdr, ("eXIf", tiff { $0.next[0] = 8 }), ("IEND", [])]) },
      expected: .corrupt("")),

    // WebP
    Case(
      name: "RIFF size past the end", bytes: { webp([("VP8L", [0x2F, 0, 0, 0, 0])], riffSize: 1000) },
      expected: .truncated),
    Case(
      name: "WebP chunk past the RIFF end",
      bytes: {
        var bytes = webp([("VP8L", [0x2F, 0, 0, 0, 0])])
        bytes.replaceSubrange(16..<20, with: le32(500))
        return bytes
      }, expected: .truncated),
    Case(
      name: "VP8 without start code", bytes: { webp([("VP8 ", [UInt8](repeating: 0, count: 10))]) },
      expected: .corrupt("")),

    // GIF
    Case(
      name: "GIF unknown block", bytes: { Array("GIF89a".utf8) + [64, 0, 48, 0, 0, 0, 0, 0x99] },
      expected: .corrupt("")),
    Case(
      name: "GIF XMP sub-blocks past the end",
      bytes: {
        Array("GIF89a".utf8) + [64, 0, 48, 0, 0, 0, 0, 0x21, 0xFF, 11] + Array("XMP DataXMP".utf8)
          + Array("<x:xmpmeta".utf8)
      },
      expected: .truncated),

    // ISOBMFF / HEIF
    Case(
      name: "box size 1 with largesize past the end",
      bytes: {
        BoxBuilder.box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8)) + be32(1)
          + Array("meta".utf8) + be64(1 << 40)
      },
      expected: .truncated),
    Case(
      name: "box size 0 inside meta ends its children",
      bytes: {
        var bytes = BoxBuilder.heif()
        let hdlr = try #require(bytes.firstRange(of: Array("hdlr".utf8)))
        bytes.replaceSubrange((hdlr - 4)..<hdlr, with: be32(0))
        return bytes
      }, expected: .corrupt("")),
    Case(
      name: "box size smaller than its header",
      bytes: {
        var bytes = BoxBuilder.heif()
        let pitm = try #require(bytes.firstRange(of: Array("pitm".utf8)))
        bytes.replaceSubrange((pitm - 4)..<pitm, with: be32(3))
        return bytes
      }, expected: .corrupt("")),
    Case(
      name: "child box overruns its parent",
      bytes: {
        var bytes = BoxBuilder.heif()
        let pitm = try #require(bytes.firstRange(of: Array("pitm".utf8)))
        bytes.replaceSubrange((pitm - 4)..<pitm, with: be32(5000))
        return bytes
      }, expected: .corrupt("")),
    Case(
      name: "iloc extent past the end",
      bytes: {
        heifWithExif { iloc in iloc.replaceSubrange((iloc.count - 4)..<iloc.count, with: be32(0x00FF_FFFF)) }
      },
      expected: .truncated),
    Case(
      name: "iloc field size 3", bytes: { heifWithExif { iloc in iloc[12] = 0x34 } }, expected: .corrupt(""),
      cascades: true),
    Case(
      name: "HEIF without meta",
      bytes: { BoxBuilder.box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8)) },
      expected: .corrupt("")),
    Case(
      name: "2000 top-level boxes over a limit of 1000",
      bytes: {
        BoxBuilder.box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1".utf8))
          + Array((0..<2000).map { _ in BoxBuilder.box("free", []) }.joined())
      },
      expected: .limitExceeded(""),
      limits: {
        var l = MetadataReader.Limits(); l.maxBoxes = 1000; return l
      }()),
    Case(
      name: "Exif item header offset past its end",
      bytes: {
        var bytes = BoxBuilder.heif(exif: TIFFBuilder.camera())
        let exif = try #require(bytes.firstRange(of: Array("Exif".utf8) + [0, 0]))
        bytes.replaceSubrange((exif - 4)..<exif, with: be32(0x7FFF_FFFF))
        return bytes
      }, expected: .corrupt("")),

    // QuickTime
    Case(
      name: "movie without moov",
      bytes: {
        BoxBuilder.box("ftyp", Array("qt  ".utf8) + be32(0) + Array("qt  ".utf8))
          + BoxBuilder.box("mdat", [1, 2, 3])
      },
      expected: .corrupt("")),
    Case(
      name: "tkhd shorter than its fields",
      bytes: { movie(BoxBuilder.box("trak", BoxBuilder.fullBox("tkhd", [0, 0, 0, 1]))) },
      expected: .corrupt("")),
    Case(
      name: "keys count of a billion",
      bytes: {
        movie(
          BoxBuilder.box(
            "meta",
            BoxBuilder.fullBox("hdlr", be32(0) + Array("mdta".utf8))
              + BoxBuilder.fullBox("keys", be32(1_000_000_000))))
      },
      expected: .limitExceeded("")),
    Case(
      name: "key size below 8",
      bytes: {
        movie(
          BoxBuilder.box(
            "meta",
            BoxBuilder.fullBox("hdlr", be32(0) + Array("mdta".utf8))
              + BoxBuilder.fullBox("keys", be32(1) + be32(4))))
      },
      expected: .corrupt("")),

    // Regressions: overflow and quadratic-time cases found in review
    Case(
      name: "tkhd width 0xFFFFFFFF does not overflow",
      bytes: {
        let tkhd = BoxBuilder.fullBox(
          "tkhd", [UInt8](repeating: 0, count: 20 + 16 + 36) + be32(0xFFFF_FFFF) + be32(0xFFFF_FFFF))
        let mdia = BoxBuilder.box("mdia", BoxBuilder.fullBox("hdlr", be32(0) + Array("vide".utf8)))
        return movie(BoxBuilder.box("trak", tkhd + mdia))
      }, expected: .limitExceeded("")),
    Case(
      name: "MPF listing 300 images",
      bytes: {
        var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8) + be16(1)
        tiff += be16(0xB002) + be16(7) + be32(300 * 16) + be32(26) + be32(0)
        tiff += [UInt8](repeating: 0, count: 300 * 16)
        return JPEGBuilder.inserting(
          JPEGBuilder.segment(0xE2, Array("MPF".utf8) + [0] + tiff), into: try plain())
      }, expected: .limitExceeded("")),
    Case(
      name: "135 KB XMP of unclosed GPS elements reads in linear time",
      bytes: {
        let xmp = Array(Array("<a:GPSLatitude>".utf8).repeated(9_000).joined())
        return png([ihdr, ("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp), ("IEND", [])])
      }, expected: nil),
    Case(
      name: "XMP nested 1000 deep",
      bytes: {
        let open = Array(Array("<r:x>".utf8).repeated(1000).joined())
        let xmp = open + Array("<exif:GPSLatitude>10,0N</exif:GPSLatitude>".utf8)
        return png([ihdr, ("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp), ("IEND", [])])
      }, expected: nil),

    // Not media
    Case(name: "empty input", bytes: { [] }, expected: .unsupported),
    Case(name: "plain text", bytes: { Array("hello, world".utf8) }, expected: .unsupported),
  ]

  /// Whether a warning's reason is what `expected` would say (``MetadataError/warningReason``).
  static func sameKind(_ reason: String, _ expected: MetadataError) -> Bool {
    // A damaged Exif or GPS IFD is named before the reason.
    var reason = reason
    for prefix in ["the Exif IFD: ", "the GPS IFD: ", "IFD0: ", "IFD1: "] where reason.hasPrefix(prefix) {
      reason = String(reason.dropFirst(prefix.count))
    }
    return switch expected {
    // A PNG cut after its header (issue 26) is read, with a `.remainder` warning saying where it ends; a
    // TIFF value or table past the end costs that entry (or the entries after the cut).
    case .truncated:
      reason == MetadataError.truncated.warningReason || reason.hasPrefix("the file ends")
        || reason.hasSuffix("lies past the end of the file")
    case .limitExceeded: reason.hasPrefix("a safety limit was reached")
    case .corrupt: reason != MetadataError.truncated.warningReason && !reason.hasPrefix("a safety limit")
    case .unsupported: reason == MetadataError.unsupported.warningReason
    default: false
    }
  }

  static func same(_ a: MetadataError, _ b: MetadataError) -> Bool {
    switch (a, b) {
    case (.truncated, .truncated), (.corrupt, .corrupt), (.unsupported, .unsupported),
      (.limitExceeded, .limitExceeded), (.cannotStrip, .cannotStrip), (.io, .io):
      true
    default: false
    }
  }

  @Test(arguments: cases)
  func answersPromptlyWithTypedError(_ testCase: Case) throws {
    let bytes = try testCase.bytes()
    var fastest = Duration.seconds(60)
    // The quickest of three runs, so that a busy machine does not make the time bound flaky.
    for _ in 0..<3 {
      let clock = ContinuousClock()
      let start = clock.now
      let result = Result { () throws(MetadataError) in
        try MetadataReader.read(bytes: bytes, limits: testCase.limits)
      }
      fastest = min(fastest, clock.now - start)
      switch (result, testCase.expected) {
      case (.success, nil): break
      case (.failure(let error), let expected?):
        #expect(Self.same(error, expected), "got \(error), expected \(expected)")
      case (.success(let metadata), let expected?):
        // Damage in an optional part (EXIF, XMP, MPF, …) costs only that part (issue 26): the read succeeds
        // and names it in a warning of the expected kind.
        // Damage to a HEIF item structure also costs the items it described (an Exif item without a location),
        // each named.
        let kinds = metadata.warnings.map(\.reason)
        let named =
          testCase.cascades
          ? kinds.contains { Self.sameKind($0, expected) }
          : kinds.count == 1 && kinds.allSatisfy { Self.sameKind($0, expected) }
        #expect(named, "read succeeded with warnings \(kinds), expected \(expected) as the one warning")
      case (.failure(let error), nil):
        Issue.record("expected success, got \(error)")
      }
      // The stripper walks the same structures and must fail the same way (or succeed).
      if testCase.expected != nil, case .failure = result {
        #expect(throws: MetadataError.self) {
          try LocationStripper.strip(bytes: bytes, limits: testCase.limits)
        }
      }
    }
    #expect(fastest < .milliseconds(100), "took \(fastest)")
  }

  @Test func deeplyNestedXMPWithGPSIsNotStrippedBlindly() throws {
    let open = Array(Array("<r:x>".utf8).repeated(1000).joined())
    let xmp = open + Array("<exif:GPSLatitude>10,0N</exif:GPSLatitude>".utf8)
    let file = Self.png([
      Self.ihdr, ("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp), ("IEND", []),
    ])
    #expect(throws: MetadataError.self) { try LocationStripper.strip(bytes: file) }
  }

  @Test func thereAreAtLeastThirtyErrorCases() {
    #expect(Self.cases.filter { $0.expected != nil }.count >= 30)
  }

  /// Cuts a file at each of its structural boundaries (JPEG segments before the scan, PNG and RIFF
  /// chunks), and in the middle of each top-level box of HEIF and movie files.
  static func cuts() throws -> [(String, Int)] {
    var result: [(String, Int)] = []
    for name in ["jpeg-thumbnail-icc.jpg", "jpeg-orientation-6.jpg"] {
      let input = Input(bytes: try TestSupport.bytes(name))
      for segment in try JPEGSegments.read(input, limits: .default) {
        result.append((name, segment.position))
      }
      result.append((name, 2))
    }
    for name in ["png-exif.png", "png-xmp.png"] {
      let input = Input(bytes: try TestSupport.bytes(name))
      for chunk in try PNGChunks.read(input, limits: .default) { result.append((name, chunk.position)) }
    }
    for name in ["webp-lossy-exif.webp"] {
      let input = Input(bytes: try TestSupport.bytes(name))
      for chunk in try RIFFChunks.read(input, limits: .default) { result.append((name, chunk.position)) }
    }
    for name in ["heic-exif-thumbnail.heic", "avif-exif.avif", "mov-apple-keys.mov", "mp4-location.mp4"] {
      let input = Input(bytes: try TestSupport.bytes(name))
      var budget = BoxBudget(.default)
      for box in try Boxes.children(of: 0..<input.size, in: input, isFile: true, depth: 1, budget: &budget) {
        result.append((name, box.position + box.size / 2))
      }
    }
    return result
  }

  @Test func truncationAtEveryBoundaryIsReported() throws {
    let cuts = try Self.cuts()
    #expect(cuts.count >= 30)
    for (name, length) in cuts {
      let bytes = Array(try TestSupport.bytes(name).prefix(length))
      let clock = ContinuousClock()
      let start = clock.now
      // A PNG cut after its whole IHDR (8 + 25 bytes) keeps its header's facts and says where it ends, as
      // exiftool reads it and libpng decodes the rows it holds (issue 26).
      // Any file cut after the facts of the image itself (a JPEG after its frame header, a HEIF after its
      // `meta`, a movie after its `moov`) keeps them and names the cut (issue 26); cut before, it is truncated.
      switch Result(catching: { () throws(MetadataError) in try MetadataReader.read(bytes: bytes) }) {
      case .success(let metadata):
        #expect(metadata.width != nil && metadata.height != nil, "\(name) cut at \(length)")
        #expect(metadata.warnings.contains { $0.part == .remainder }, "\(name) cut at \(length)")
        if name.hasSuffix(".png") { #expect(metadata.width == 64 && metadata.height == 48) }
      case .failure(let error):
        #expect(error == .truncated, "\(name) cut at \(length)")
        #expect(!name.hasSuffix(".png") || length < 33, "\(name) cut at \(length) after its IHDR")
      }
      #expect(clock.now - start < .milliseconds(100))
    }
  }
}

extension Array {
  func repeated(_ count: Int) -> [[Element]] { [[Element]](repeating: self, count: count) }
}
