import Foundation
import PhotoIntake
import PhotoIntakeTesting

/// Small byte fixtures that sniff as real formats. The importer stores bytes as they are, so content beyond the
/// signature only needs to be distinct.
enum Fixture {
  /// A JPEG-signed blob of `size` bytes whose content is derived from `seed`.
  static func jpeg(seed: UInt64, size: Int = 4096) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
    bytes.reserveCapacity(size)
    while bytes.count < size - 2 { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
    return bytes + [0xFF, 0xD9]
  }

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  static func png(seed: UInt64) -> [UInt8] {
    pngSignature + jpeg(seed: seed, size: 512).dropFirst(4)
  }
}

/// An in-memory source, streamed in chunks, optionally slowly (to test order and cancellation).
struct BytesSource: ItemSource {
  var bytes: [UInt8]
  var suggestedName: String?
  var typeHints: [String] = []
  var chunk = 1024
  var delayPerChunk: Duration = .zero

  func deliver(to sink: StagingSink) async throws(Importer.Error) {
    sink.expectedByteCount = Int64(bytes.count)
    var offset = 0
    while offset < bytes.count {
      if delayPerChunk > .zero {
        do { try await Task.sleep(for: delayPerChunk) } catch { throw .cancelled }
      }
      let end = min(bytes.count, offset + chunk)
      try sink.write(Array(bytes[offset..<end]))
      offset = end
      sink.reportProgress(Double(offset) / Double(bytes.count))
    }
  }
}

/// A source that fails the way a picker can.
struct FailingSource: ItemSource {
  var error: Importer.Error
  var suggestedName: String? { "broken.heic" }
  var typeHints: [String] { ["public.heic"] }
  func deliver(to sink: StagingSink) async throws(Importer.Error) { throw error }
}

/// A source that behaves like `loadFileRepresentation`: its file exists only inside the delivery, and is
/// deleted right after it hands it over.
struct ScopedFileSource: ItemSource {
  var bytes: [UInt8]
  var temporaryFolder: String
  var suggestedName: String? { "picked.jpg" }
  var typeHints: [String] { ["public.jpeg"] }

  func deliver(to sink: StagingSink) async throws(Importer.Error) {
    let path = temporaryFolder + "/provider-\(UUID().uuidString).tmp"
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
      throw .sourceFailed(reason: "fixture: \(error)")
    }
    defer { unlink(path) }  // the provider deletes its file when the callback returns
    try sink.adoptFile(atPath: path)
  }
}
