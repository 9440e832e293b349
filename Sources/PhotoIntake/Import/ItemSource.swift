/// Something the importer can copy one photo or movie from: a file, a picker result, a simulated asset.
///
/// The importer gives each source a ``StagingSink`` and waits for ``deliver(to:)`` to return. A source must
/// hand all of its bytes to the sink **before** `deliver` returns, because many sources only exist for a scope:
/// `NSItemProvider.loadFileRepresentation` deletes its temporary file when its completion handler returns, so the
/// source calls ``StagingSink/adoptFile(atPath:)`` inside that handler (a hard link into the library's staging
/// folder, or a copy when that is impossible) and returns: the importer hashes the adopted file afterwards, off
/// the handler, before the commit. Sources that produce bytes as a stream call
/// ``StagingSink/write(_:)-(UnsafeRawBufferPointer)`` instead.
///
/// ```swift
/// struct DataSource: ItemSource {
///   let bytes: [UInt8]
///   var suggestedName: String? { "scan.png" }
///   var typeHints: [String] { ["public.png"] }
///   func deliver(to sink: StagingSink) async throws(Importer.Error) { try sink.write(bytes) }
/// }
/// ```
public protocol ItemSource: Sendable {
  /// A name the user would recognise ("IMG_0001.HEIC"). It is sanitized before it is stored and is never used
  /// to name a file in the library.
  var suggestedName: String? { get }

  /// Type identifiers, extensions or MIME types the source claims, best first. They are only compared with what
  /// the bytes say; the bytes decide.
  var typeHints: [String] { get }

  /// Hands the item's bytes to `sink` before returning, reporting download progress with
  /// ``StagingSink/reportProgress(_:)``.
  ///
  /// - Throws: ``Importer/Error`` describing why the item could not be delivered.
  func deliver(to sink: StagingSink) async throws(Importer.Error)
}
