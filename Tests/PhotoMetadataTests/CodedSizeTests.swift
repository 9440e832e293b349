import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// A movie's size limit comes from its coded stream (issue 24 item 6): the sequence parameter set in `avcC`
/// or `hvcC`, with its cropping window, checked against ffprobe on movies ffmpeg makes here; a track header
/// and sample entry claiming 65535×65535 over a 64×64 stream no longer decide.
struct CodedSizeTests {
  /// One frame encoded by ffmpeg: (name, ffmpeg video arguments, size).
  static let movies: [(String, [String], String)] = [
    // 1080 lines are coded as 1088 (68 macroblock rows), cropped by 8.
    ("h264-1080p.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "1920x1080"),
    // High 4:4:4 (chroma_format_idc 3, its own SPS branch), an odd size cropped in luma samples.
    ("h264-444-odd.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv444p"], "101x75"),
    // Interlaced (frame_mbs_only_flag 0): map units are field macroblock pairs.
    ("h264-interlaced.mov", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-flags", "+ildct+ilme"], "720x480"),
    ("hevc-1080p.mp4", ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1"], "1920x1080"),
    // 4:2:2 crops its conformance window in units of 2 × 1.
    ("hevc-422.mov", ["-c:v", "libx265", "-pix_fmt", "yuv422p", "-tag:v", "hvc1"], "642x362"),
  ]

  static func make(_ name: String, _ codec: [String], size: String, in folder: TemporaryDirectory) throws
    -> String
  {
    let path = folder.at(name)
    let result = try TestSupport.run(
      "ffmpeg",
      ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=1:duration=1", "-frames:v", "1"]
        + codec + ["-x265-params", "log-level=none", path])
    try #require(result.status == 0, "ffmpeg: \(result.error)")
    return path
  }

  @Test func theCodedSizeIsWhatFFprobeDecodes() throws {
    let folder = TemporaryDirectory()
    for (name, codec, size) in Self.movies {
      let path = try Self.make(name, codec, size: size, in: folder)
      let probe = try TestSupport.run(
        "ffprobe",
        [
          "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0",
          path,
        ])
      let decoded = String(decoding: probe.output, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
      let metadata = try MetadataReader.read(fileAt: path)
      let coded = try #require(metadata.codedSize, "\(name): no coded size")
      #expect("\(coded.width),\(coded.height)" == decoded, "\(name)")
      #expect(metadata.width == coded.width && metadata.height == coded.height, "\(name)")
      #expect(metadata.warnings.isEmpty, "\(name): \(metadata.warnings)")
    }
  }

  /// The decode-list movie of issue 24: playable, 64×64, its `tkhd` and `avc1` entry claiming 65535×65535
  /// (Benchmarks/make-bombs.py makes the same for bombs.sh).
  @Test func aTrackHeaderClaimIsNotTheSize() throws {
    let folder = TemporaryDirectory()
    let path = try Self.make(
      "small.mov", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], size: "64x64", in: folder)
    let claimed = try Self.claiming(65535, in: TestSupport.bytes(atPath: path))
    let metadata = try MetadataReader.read(bytes: claimed)
    #expect(metadata.codedSize == PixelSize(width: 64, height: 64))
    #expect(metadata.declaredPixelCount == 64 * 64)
    #expect(metadata.width == 64 && metadata.height == 64)
    #expect(metadata.warnings.map(\.part) == [.trackHeader])
    #expect(metadata.warnings.first?.reason.contains("65535×65535") == true)
    // Within the default reader's pixel cap, which refused it before (4.29 billion declared pixels).
    #expect(throws: Never.self) { try MetadataReader.read(bytes: claimed, limits: .default) }
  }

  /// Damage in the configuration costs only the coded size: the track's own claim is the size then.
  @Test func aDamagedConfigurationFallsBackToTheTrack() throws {
    let folder = TemporaryDirectory()
    let path = try Self.make(
      "small.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], size: "64x48", in: folder)
    var bytes = try TestSupport.bytes(atPath: path)
    let at = try #require(Self.find("avcC", in: bytes))
    // numOfSequenceParameterSets 0.
    bytes[at + 8 + 5] = 0xE0
    let metadata = try MetadataReader.read(bytes: bytes)
    #expect(metadata.codedSize == nil)
    #expect(metadata.width == 64 && metadata.height == 48)
    // Cut anywhere inside the parameter set: nil or a size, never a trap.
    let sps = at + 8 + 8
    for length in 0..<24 {
      var cut = try TestSupport.bytes(atPath: path)
      cut[sps - 2] = 0
      cut[sps - 1] = UInt8(length)
      _ = try? MetadataReader.read(bytes: cut)
    }
  }

  /// The movie with its track header and sample entry set to claim `side`² (16.16 fixed point in `tkhd`,
  /// 16-bit in the VisualSampleEntry).
  static func claiming(_ side: Int, in movie: [UInt8]) throws -> [UInt8] {
    var bytes = movie
    let tkhd = try #require(find("tkhd", in: bytes))
    let tkhdEnd = tkhd + Int(bytes.u32(at: tkhd, bigEndian: true))
    for (index, byte) in (be32(side << 16) + be32(side << 16)).enumerated() {
      bytes[tkhdEnd - 8 + index] = byte
    }
    let stsd = try #require(find("stsd", in: bytes))
    // stsd: header 8, version and flags 4, entry count 4; the entry: header 8, 24 bytes, width, height.
    let entry = stsd + 16
    for (index, byte) in (be16(side) + be16(side)).enumerated() { bytes[entry + 8 + 24 + index] = byte }
    return bytes
  }

  /// The position of the first box of `type` (its size field), by a search for its type.
  static func find(_ type: String, in bytes: [UInt8]) -> Int? {
    let name = Array(type.utf8)
    guard bytes.count > 8 else { return nil }
    for at in 4..<(bytes.count - 4) where Array(bytes[at..<(at + 4)]) == name { return at - 4 }
    return nil
  }

  static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
  static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
}

extension TestSupport {
  static func bytes(atPath path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
