import Foundation

/// Bytes already in memory as an ``ItemSource``: a photo the camera just captured
/// (`AVCapturePhoto.fileDataRepresentation()`), a scan, a generated image.
///
/// The bytes are streamed into staging in chunks and committed like any import, so a capture is durable as soon
/// as the import reports it, before the app does anything else with it.
///
/// ```swift
/// let summary = await importer.importItems([DataItemSource(data, suggestedName: "Capture.heic")])
/// ```
public struct DataItemSource: ItemSource {
  /// The bytes to import.
  public let data: Data
  public let suggestedName: String?
  public let typeHints: [String]
  /// Bytes per write.
  public var chunkSize = 1 << 20

  /// A source that imports `data`, with the name and type hints the importer may use (the bytes decide the
  /// type).
  public init(_ data: Data, suggestedName: String? = nil, typeHints: [String] = []) {
    self.data = data
    self.suggestedName = suggestedName
    self.typeHints = typeHints
  }

  public func deliver(to sink: StagingSink) async throws(Importer.Error) {
    sink.expectedByteCount = Int64(data.count)
    let data = data
    let step = Swift.max(1, chunkSize)
    // The writes block: they run on a lane of PhotoIntake's own, never on a thread of Swift's cooperative pool.
    try await BlockingLanes.io.run { () throws(Importer.Error) in
      var offset = 0
      while offset < data.count {
        let end = Swift.min(data.count, offset + step)
        let failure: Importer.Error? = data[data.startIndex + offset..<data.startIndex + end].withUnsafeBytes
        {
          buffer in
          do throws(Importer.Error) {
            try sink.write(buffer)
            return nil
          } catch {
            return error
          }
        }
        if let failure { throw failure }
        offset = end
        sink.reportProgress(Double(offset) / Double(data.count))
      }
    }
  }
}
