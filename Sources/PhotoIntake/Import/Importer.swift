import Foundation
import PhotoMetadata

/// Imports batches of items into a ``Library``: each item is streamed into staging, hashed, checked, and
/// committed durably before it is reported as imported.
///
/// ```swift
/// let importer = Importer(library: library)
/// let session = importer.start(urls.map { FileItemSource(path: $0.path) })
/// for await event in session {
///   if case .itemFinished(let report) = event { print(report.index, report.result) }
/// }
/// ```
public struct Importer: Sendable {
  /// Limits and policies of an import.
  public struct Configuration: Sendable {
    /// How many items are received (copied, hashed, fsynced, checked) at once. Items waiting for their
    /// group commit do not count: the items received meanwhile share that commit's flushes. Default: the
    /// active processor count.
    public var maximumConcurrentItems = ProcessInfo.processInfo.activeProcessorCount
    /// Items larger than this fail with ``Importer/Error/tooLarge(limit:)``. Default 4 GiB.
    public var maximumFileSize: Int64 = 4 << 30
    /// Bytes read or written per system call.
    public var chunkSize = 1 << 20
    /// Images declaring more pixels than this fail with ``Importer/Error/tooManyPixels(declared:limit:)``.
    /// Default 1 gigapixel: far beyond any camera (a 200 MP phone photo is 0.2), so only crafted files are
    /// refused at import; renditions apply their own, lower limit before any decode.
    public var maximumPixelCount = 1_000_000_000
    /// Store a copy without location (EXIF GPS, XMP GPS, QuickTime location) instead of the received bytes.
    /// Only metadata bytes change; an item whose location cannot be removed losslessly fails with
    /// ``Importer/Error/metadata(_:)`` rather than being stored with it.
    public var stripLocation = false
    /// Renditions to make of each imported photo, in the background of the session (reported as
    /// ``ImportEvent/renditionsFinished(_:)`` before `.finished`). Nil (the default): none are made during
    /// the import; ``RenditionStore`` makes them on demand.
    public var renditions: RenditionStore.Configuration?

    /// The default configuration: concurrency, limits and renditions as documented on each property.
    public init() {}
  }

  /// The library the items are imported into.
  public let library: Library
  /// How items are imported.
  public var configuration: Configuration

  /// An importer into `library`.
  public init(library: Library, configuration: Configuration = Configuration()) {
    self.library = library
    self.configuration = configuration
  }

  /// Starts importing `items` as one batch, in their order. Iterate the session for events, or await
  /// ``ImportSession/summary()``.
  public func start(_ items: [any ItemSource]) -> ImportSession {
    ImportSession(importer: self, items: items)
  }

  /// Imports `items` as one batch and returns when every item is done.
  public func importItems(_ items: [any ItemSource]) async -> ImportSummary {
    await start(items).summary()
  }

  /// An item that went through staging: ready to commit, or finished (it failed).
  enum StagedItem: Sendable {
    /// Received, fsynced, checked: what its commit needs.
    case ready(CommitRequest, typeHintMismatch: TypeHintMismatch?)
    /// The item's final report (a failure before any commit).
    case finished(ItemReport)
  }

  /// Stages one item: deliver → fsync → sniff → check → strip. Never throws: a failure is the item's result.
  ///
  /// The item's own fsync happens here, beside the other items' copies; the waits it shares with the other
  /// items of its group come in ``commitItem(_:index:typeHintMismatch:)``.
  func stageItem(
    _ source: any ItemSource, index: Int, batch: BatchRecord, progress: @escaping @Sendable (Double) -> Void
  ) async -> StagedItem {
    let sink = StagingSink(
      folder: library.store.staging, name: library.newStagingName(),
      maximumSize: configuration.maximumFileSize,
      chunkSize: configuration.chunkSize, progress: progress)
    var mismatch: TypeHintMismatch?
    var strippedName: String?
    do throws(Importer.Error) {
      if Task.isCancelled { throw .cancelled }
      try await Self.deliver(source, to: sink)
      // Hashing an adopted file, fsync, parsing and stripping block: lanes of their own, never the cooperative
      // pool. Cancellation reaches the hash through the sink's flag, as it reaches a delivery.
      var staged = try await Self.finish(sink)
      guard let type = MediaType.sniff(staged.prefix) else {
        throw .unsupportedContent(hint: Self.hints(of: source).first)
      }
      let stagedPath = staged.path
      var metadata = await BlockingLanes.io.run { Self.readMetadata(stagedPath, type: type) }
      // Against the header reader's type: a burst named .heics is an image sequence, not a mismatch.
      mismatch = Self.mismatch(of: source, with: metadata?.type ?? type)
      if let pixels = metadata?.declaredPixelCount, pixels > configuration.maximumPixelCount {
        throw .tooManyPixels(declared: pixels, limit: configuration.maximumPixelCount)
      }
      var locationStripped = false
      if configuration.stripLocation {
        let name = library.newStagingName()
        strippedName = name
        let original = staged
        if let copy = try await BlockingLanes.io.run({ () throws(Importer.Error) in
          try LocationRemoval.strip(original, as: name)
        }) {
          staged.discard()
          staged = copy
          let copyPath = copy.path
          metadata = await BlockingLanes.io.run { Self.readMetadata(copyPath, type: type) }
          locationStripped = true
        }
      }
      // The header reader's type refines the sniffed one: a HEIF of a `pict` track and no `meta` is an image
      // sequence (heics), a TIFF with a DNGVersion tag a DNG; `list`, `show` and `metadata` then agree.
      let request = CommitRequest(
        staged: staged, type: metadata?.type ?? type, name: NameSanitizer.sanitize(source.suggestedName),
        batch: batch,
        position: index, metadata: metadata, locationStripped: locationStripped)
      return .ready(request, typeHintMismatch: mismatch)
    } catch {
      sink.discard()
      if let strippedName { try? library.store.staging.unlink(strippedName) }
      return .finished(ItemReport(index: index, result: .failed(error), typeHintMismatch: mismatch))
    }
  }

  /// Commits a staged item with the group it joins, and returns its report once the group's rows are
  /// committed. Never throws: a failure is the item's result. `queued` is called once, when the item has its
  /// place in the commit queue or is dropped.
  func commitItem(
    _ request: CommitRequest, index: Int, typeHintMismatch: TypeHintMismatch?,
    queued: @Sendable () -> Void = {}
  ) async -> ItemReport {
    // The last point at which cancelling drops the item; once the commit starts it completes.
    if Task.isCancelled {
      request.staged.discard()
      queued()
      return ItemReport(index: index, result: .failed(.cancelled), typeHintMismatch: typeHintMismatch)
    }
    switch await library.commit(request, queued: queued) {
    case .success(.imported(let asset)):
      return ItemReport(index: index, result: .imported(asset), typeHintMismatch: typeHintMismatch)
    case .success(.duplicate(let asset)):
      return ItemReport(index: index, result: .duplicate(asset), typeHintMismatch: typeHintMismatch)
    case .failure(let failure):
      return ItemReport(
        index: index, result: .failed(Importer.Error(commitFailure: failure)),
        typeHintMismatch: typeHintMismatch)
    }
  }

  private static func deliver(_ source: any ItemSource, to sink: StagingSink) async throws(Importer.Error) {
    // Cancellation reaches a source blocked in a write through the sink's flag.
    let result = await withTaskCancellationHandler {
      await deliverResult(source, to: sink)
    } onCancel: {
      sink.cancel()
    }
    // A switch, not `result.get()`: `get()` only throws typed errors from Swift 6's standard library on.
    if case .failure(let error) = result { throw error }
    if sink.isCancelled { throw .cancelled }
  }

  private static func finish(_ sink: StagingSink) async throws(Importer.Error) -> StagedFile {
    let result = await withTaskCancellationHandler {
      await BlockingLanes.io.run {
        Result<StagedFile, Importer.Error>.typed { () throws(Importer.Error) in try sink.finish() }
      }
    } onCancel: {
      sink.cancel()
    }
    return try result.typedGet()
  }

  private static func deliverResult(_ source: any ItemSource, to sink: StagingSink) async
    -> Result<Void, Importer.Error>
  {
    do throws(Importer.Error) {
      try await source.deliver(to: sink)
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  /// The facts of a staged file, or nil when they cannot be read. A photo with damaged metadata is still
  /// the user's photo: it is kept, and only its facts are missing. Pixel limits are checked by the caller.
  private static func readMetadata(_ path: String, type: MediaType) -> MediaMetadata? {
    var limits = MetadataReader.Limits()
    limits.maxPixels = .max
    return try? MetadataReader.read(fileAt: path, hint: type.preferredFilenameExtension, limits: limits)
  }

  private static func hints(of source: any ItemSource) -> [String] {
    var hints = source.typeHints
    if let name = source.suggestedName, let dot = name.lastIndex(of: "."), dot != name.startIndex {
      hints.append(String(name[name.index(after: dot)...]))
    }
    return hints
  }

  private static func mismatch(of source: any ItemSource, with type: MediaType) -> TypeHintMismatch? {
    for hint in hints(of: source) {
      guard let claimed = MediaType(hint: hint) else { continue }
      if claimed != type && !(claimed.isHEIFFamily && type.isHEIFFamily) {
        return TypeHintMismatch(hint: hint, detected: type)
      }
    }
    return nil
  }
}

extension MediaType {
  /// HEIC and HEIF are often used for each other's files, and phones name bursts (image sequences) .heic;
  /// that is no disagreement worth reporting.
  fileprivate var isHEIFFamily: Bool { self == .heic || self == .heif || self == .heics }
}
