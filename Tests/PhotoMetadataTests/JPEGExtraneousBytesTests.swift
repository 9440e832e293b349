import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// Extraneous bytes between JPEG segments (issue 26): skipped to the next real marker, with a warning, as
/// libjpeg decodes such files; never to a spurious marker in random bytes. The fixture is made by
/// `Scripts/make-metadata-fixtures.sh` from our own CC0 JPEG (`Scripts/jpeg-extraneous-bytes.py`).
struct JPEGExtraneousBytesTests {
  @Test func extraneousBytesAreSkippedToTheNextRealMarker() throws {
    let metadata = try MetadataReader.read(fileAt: TestSupport.fixture("jpeg-extraneous-bytes.jpg").path)
    let twin = try MetadataReader.read(fileAt: TestSupport.fixture("jpeg-orientation-6.jpg").path)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.orientation == twin.orientation && metadata.make == twin.make)
    #expect(metadata.captureDate == twin.captureDate && metadata.location == twin.location)
    // One warning per run: 37 bytes of text after APP1, 4 zero bytes before the frame header's fill bytes.
    #expect(metadata.warnings.map(\.part) == [.extraneousBytes, .extraneousBytes])
    #expect(metadata.warnings.first?.reason.hasPrefix("37 bytes at offset 528 belong to no segment") == true)
    #expect(metadata.warnings.last?.reason.hasPrefix("4 bytes at offset") == true)
    let oracle = try TestSupport.exiftool([TestSupport.fixture("jpeg-extraneous-bytes.jpg").path])
    #expect(oracle.first?["File:ImageWidth"] as? Int == 64)
    #expect(oracle.first?["File:ImageHeight"] as? Int == 48)
  }

  /// A run of bytes that contains 0xFF followed by a marker code is skipped only to a marker whose segment
  /// fits: a decoy frame header with impossible fields, or a segment whose length does not end on a marker,
  /// is not taken.
  @Test func decoyMarkersInExtraneousBytesAreNotTaken() throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    // SOF0 with 65535 × 65535 and 7 components: a bomb if it were believed.
    let decoySOF: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x01, 0x11, 0x00]
    // DQT whose length ends in the middle of the next run.
    let decoyDQT: [UInt8] = [0xFF, 0xDB, 0x00, 0x05, 0x01, 0x02, 0x03]
    let junk: [UInt8] = Array("junk".utf8) + decoySOF + Array("more".utf8) + decoyDQT + [0x20, 0x20]
    let file = Array(plain[0..<0x210]) + junk + Array(plain[0x210...])
    let metadata = try MetadataReader.read(bytes: file)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.warnings.map(\.part) == [.extraneousBytes])
    #expect(metadata.warnings.first?.reason.hasPrefix("\(junk.count) bytes at offset 528") == true)
  }

  /// CrashTests' sources: an SOI, an APP0 marker, then random bytes. Before resynchronisation these were
  /// damaged files kept without facts; a resync to any 0xFF found spurious segments and bogus frame headers
  /// of up to 65535² that refused them as bombs. They must stay damaged (or, if a real-looking segment chain
  /// is ever found, within the pixel limit).
  @Test func randomBytesAfterSOIFindNoBogusFrame() throws {
    var generator = SeededGenerator(seed: 2026)
    var sized = 0
    for _ in 0..<300 {
      var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
      for _ in 0..<(Int.random(in: 20_000...200_000, using: &generator) / 8) {
        withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
      }
      do {
        let metadata = try MetadataReader.read(bytes: bytes)
        if metadata.width != nil { sized += 1 }
      } catch {
        #expect(error != .unsupported)
        if case .limitExceeded(let what) = error { Issue.record("refused as a bomb: \(what)") }
      }
    }
    #expect(sized == 0)
  }

  /// The resync is bounded: past 8 runs or 64 KiB skipped in all, the stream is damaged as before.
  @Test func resyncIsBounded() throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let long = Array(plain[0..<0x210]) + [UInt8](repeating: 0x20, count: 70_000) + Array(plain[0x210...])
    #expect(throws: MetadataError.corrupt("no marker at offset 528")) { try MetadataReader.read(bytes: long) }
    // Runs of one byte, each before two comments (the first is confirmed by the second following it): 8 are
    // skipped, the 9th is not.
    func runs(_ count: Int) -> [UInt8] {
      let pair =
        [0x20] + JPEGBuilder.segment(0xFE, Array("a".utf8)) + JPEGBuilder.segment(0xFE, Array("b".utf8))
      return Array(plain[0..<0x210]) + Array(pair.repeated(count).joined()) + Array(plain[0x210...])
    }
    #expect(try MetadataReader.read(bytes: runs(8)).warnings.count == 8)
    #expect(throws: MetadataError.corrupt("no marker at offset \(0x210 + 8 * 11)")) {
      try MetadataReader.read(bytes: runs(9))
    }
  }

  /// After the frame header, bytes that lead to no marker (tables overwritten, a DHT whose length runs into
  /// garbage: Apache Commons Imaging's IMAGING-215 file has this shape) cost only the image data: the size and
  /// the metadata before them are kept with a `remainder` warning, as exiftool keeps them. Before the frame
  /// header the same bytes leave no size, and the file is damaged.
  @Test func bytesAfterTheFrameHeaderThatLeadToNoMarkerKeepTheFacts() throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let twin = try MetadataReader.read(bytes: plain)
    let frame = try #require(
      try JPEGSegments.read(Input(bytes: plain), limits: MetadataReader.Limits()).first(
        where: \.isStartOfFrame))
    let end = frame.payload.upperBound
    let garbage = [UInt8](repeating: 0x46, count: 600)
    let metadata = try MetadataReader.read(bytes: Array(plain[..<end]) + garbage)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.make == twin.make && metadata.captureDate == twin.captureDate)
    #expect(metadata.orientation == twin.orientation)
    #expect(metadata.warnings.map(\.part) == [.remainder])
    #expect(metadata.warnings.first?.reason.contains("lead to no JPEG marker") == true)
    let early = Array(plain[..<0x210]) + garbage
    #expect(throws: MetadataError.corrupt("no marker at offset 528")) {
      try MetadataReader.read(bytes: early)
    }
    // The location stripper copies whole files: it still refuses the damaged one.
    #expect(throws: MetadataError.self) { try LocationStripper.strip(bytes: Array(plain[..<end]) + garbage) }
  }

  /// Stray bytes before the table segment that precedes the frame header, and nothing after the frame header
  /// that leads to a marker (`damaged-jpeg-stray-frame.jpg`; ImageTestSuite's `c8bc97….jpg`, whose stray bytes
  /// precede a DHT): a DQT or DHT whose tables fill its length exactly, as libjpeg reads them, is no chance
  /// find in random bytes, so the frame header after it keeps its size, as exiftool reads it.
  @Test func aFrameHeaderAfterAWholeTableKeepsItsSizeWhenWhatFollowsIsDamaged() throws {
    let metadata = try MetadataReader.read(fileAt: TestSupport.fixture("damaged-jpeg-stray-frame.jpg").path)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.warnings.map(\.part) == [.remainder, .extraneousBytes])
    #expect(metadata.warnings.last?.reason.hasPrefix("19 bytes at offset 597") == true)
    // The same with a DHT (the first of the file's, whose 16 counts sum to 5) between the run and the frame
    // header.
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let frame = Array(plain[0x29A..<0x2AD])
    let garbage = [UInt8](repeating: 0x46, count: 600)
    let stray = Array("stray".utf8)
    let huffman = Array(plain[0x2AD..<0x2C7])
    let afterHuffman = try MetadataReader.read(
      bytes: Array(plain[..<0x29A]) + stray + huffman + frame + garbage)
    #expect(afterHuffman.width == 64 && afterHuffman.height == 48)
    #expect(afterHuffman.warnings.map(\.part) == [.remainder, .extraneousBytes])
  }

  /// Segments a resync confirms by their length alone do not anchor the frame header after them: a comment, a
  /// DQT with a byte too many, a DHT whose counts sum past 256 (libjpeg: "Bogus Huffman table definition").
  /// With nothing after the frame header that leads to a marker, the file stays damaged.
  @Test(arguments: [
    JPEGBuilder.segment(0xFE, Array("a comment".utf8)),
    JPEGBuilder.segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 65)),
    JPEGBuilder.segment(
      0xC4, [0x00] + [UInt8](repeating: 0, count: 14) + [255, 2] + [UInt8](repeating: 0, count: 257)),
  ])
  func segmentsConfirmedByTheirLengthAloneAnchorNoFrameHeader(segment: [UInt8]) throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let garbage = [UInt8](repeating: 0x46, count: 600)
    let file = Array(plain[..<0x29A]) + Array("stray".utf8) + segment + Array(plain[0x29A..<0x2AD]) + garbage
    let end = 0x2AD + 5 + segment.count
    #expect(throws: MetadataError.corrupt("no marker at offset \(end)")) {
      try MetadataReader.read(bytes: file)
    }
  }

  /// A run skipped after the frame header does not make it a chance find: damage after that still keeps the
  /// size.
  @Test func aRunAfterTheFrameHeaderKeepsItsSize() throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let comments = JPEGBuilder.segment(0xFE, Array("a".utf8)) + JPEGBuilder.segment(0xFE, Array("b".utf8))
    let garbage = [UInt8](repeating: 0x46, count: 600)
    let metadata = try MetadataReader.read(bytes: Array(plain[..<0x2AD]) + [0x20] + comments + garbage)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.warnings.map(\.part) == [.remainder, .extraneousBytes])
  }

  /// A run of every byte value right after SOI (Apache Commons Imaging's "0x00-to-0xFF-between-segments.jpg"
  /// has this shape; libjpeg decodes it) puts the first marker past the 32 bytes sniffing looks at: a confirmed
  /// marker further on still makes it a JPEG. Random bytes after 0xFF 0xD8 hold none.
  @Test func aLongRunAfterSOIStillSniffsAsJPEG() throws {
    let plain = try TestSupport.bytes("jpeg-orientation-6.jpg")
    let file = [0xFF, 0xD8] + (0...255).map { UInt8($0) } + Array(plain[2...])
    #expect(MediaType.sniff(file) == .jpeg)
    let metadata = try MetadataReader.read(bytes: file)
    #expect(metadata.width == 64 && metadata.height == 48)
    #expect(metadata.warnings.map(\.part) == [.extraneousBytes])
    var generator = SeededGenerator(seed: 26)
    for _ in 0..<200 {
      var bytes: [UInt8] = [0xFF, 0xD8]
      for _ in 0..<512 { withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) } }
      // No marker in the first 32 bytes, so that only the confirmed-marker rule can call it a JPEG.
      for index in 2..<40 where bytes[index] == 0xFF { bytes[index] = 0 }
      #expect(MediaType.sniff(bytes) != .jpeg)
    }
  }
}
