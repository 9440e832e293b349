// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(AVFoundation, _version: 1)
  import AVFoundation
  import Foundation

  /// Re-encodes a stored movie as H.264 in an MPEG-4 file with `AVAssetExportSession` (Apple platforms), for
  /// recipients whose devices cannot play HEVC.
  ///
  /// The movie is first prepared as it is (``PreparedFile``, a hard link named with its extension, which
  /// AVFoundation needs to recognise the container); the export reads that and writes `<name>.mp4` in a
  /// folder of its own. `AVAssetExportPresetHighestQuality` encodes H.264 (HEVC has presets of its own);
  /// without location, `AVMetadataItemFilter.forSharing()` leaves out location and other user-identifying
  /// metadata.
  ///
  /// Which API runs the export:
  /// - `export(to:as:isolation:)` (iOS 18, macOS 15; the iOS 26 and macOS 26 SDKs back-deploy it to every
  ///   system): it cancels the export itself when the task is cancelled (`cancelExport()` in its
  ///   `withTaskCancellationHandler`, as the 26.2 SDK's interface shows) and throws `CancellationError`.
  /// - `exportAsynchronously(completionHandler:)` before (deprecated from iOS 18 and macOS 15): the task's
  ///   cancellation handler calls `cancelExport()`, after which AVFoundation calls the completion handler with
  ///   the status `.cancelled`.
  ///
  /// Either way ``PreparedFile/converting(into:cancel:_:)`` removes the partial `.mp4` and its folder when the
  /// export fails or is cancelled; AVFoundation leaves them (its documentation promises nothing about the
  /// output of an export that did not complete).
  enum H264Transcoder {
    static func prepare(_ asset: Asset, in library: Library, options: ExportOptions, folder: String)
      async throws(PreparedFile.Error) -> PreparedFile
    {
      if Task.isCancelled { throw .cancelled }
      let original = try PreparedFile.make(for: asset, in: library, withoutLocation: false, folder: folder)
      defer { original.release() }
      let holder = try PreparedFile.makeHolder(in: folder)
      var stem = PreparedFile.filename(for: asset)
      if let dot = stem.lastIndex(of: ".") { stem = String(stem[..<dot]) }
      let url = URL(fileURLWithPath: holder + "/" + stem + ".mp4")
      let source = AVURLAsset(url: URL(fileURLWithPath: original.path))
      guard let session = AVAssetExportSession(asset: source, presetName: AVAssetExportPresetHighestQuality)
      else {
        Syscalls.removeEmptyDirectory(holder)
        throw .cannotConvert(.unsupportedContent(type: asset.type))
      }
      session.shouldOptimizeForNetworkUse = true
      if options.stripLocation { session.metadataItemFilter = AVMetadataItemFilter.forSharing() }
      #if canImport(AVFoundation, _version: 2395)
        // The iOS 26 / macOS 26 SDKs: `export(to:as:isolation:)` is back-deployed to every system.
        try await PreparedFile.converting(into: holder) {
          try await exportWatchingTheTask(session, to: url)
        }
      #elseif canImport(AVFoundation, _version: 2330)
        // The iOS 18 / macOS 15 SDKs: `export(to:as:isolation:)` from iOS 18 and macOS 15 only.
        if #available(iOS 18, macOS 15, tvOS 18, visionOS 2, *) {
          try await PreparedFile.converting(into: holder) {
            try await exportWatchingTheTask(session, to: url)
          }
        } else {
          try await exportWithCompletionHandler(session, to: url, holder: holder)
        }
      #else
        try await exportWithCompletionHandler(session, to: url, holder: holder)
      #endif
      return PreparedFile(
        path: url.path, removedLocation: options.stripLocation ? ["QuickTime location"] : [])
    }

    #if canImport(AVFoundation, _version: 2330)
      /// `export(to:as:isolation:)`, with its failure as a sentence. The iOS 18 / macOS 15 SDKs declare it
      /// from iOS 18 and macOS 15; the 26 SDKs back-deploy it to every system, so there it needs no
      /// availability (SE-0367: an attribute may stand inside `#if`).
      #if !canImport(AVFoundation, _version: 2395)
        @available(iOS 18, macOS 15, tvOS 18, visionOS 2, *)
      #endif
      private static func exportWatchingTheTask(_ session: AVAssetExportSession, to url: URL) async throws {
        do {
          try await session.export(to: url, as: .mp4)
        } catch let error as CancellationError {
          throw error
        } catch {
          throw ExportFailure(reason: error.localizedDescription)
        }
      }
    #endif

    #if !canImport(AVFoundation, _version: 2395)
      /// The export with `exportAsynchronously(completionHandler:)`, for systems before iOS 18 and macOS 15;
      /// the task's cancellation calls `cancelExport()`.
      private static func exportWithCompletionHandler(
        _ session: AVAssetExportSession, to url: URL, holder: String
      ) async throws(PreparedFile.Error) {
        session.outputURL = url
        session.outputFileType = .mp4
        // The session is not Sendable; the box carries it into the completion and cancellation handlers.
        let box = SessionBox(session)
        try await PreparedFile.converting(into: holder, cancel: { box.exporter.cancelExport() }) {
          try await run(box)
        }
      }

      /// Runs the export and waits for it without blocking a thread.
      private static func run(_ box: SessionBox) async throws {
        let outcome: Result<Void, any Swift.Error> = await withCheckedContinuation { continuation in
          box.exporter.exportAsynchronously {
            let finished = box.exporter
            switch finished.status {
            case .completed: continuation.resume(returning: .success(()))
            case .cancelled: continuation.resume(returning: .failure(CancellationError()))
            default:
              continuation.resume(
                returning: .failure(
                  ExportFailure(
                    reason: finished.error?.localizedDescription
                      ?? "the export stopped (status \(finished.status.rawValue))")))
            }
          }
        }
        try outcome.get()
      }

      /// Carries the session into the completion and cancellation handlers.
      private final class SessionBox: @unchecked Sendable {
        // @unchecked: the session is configured before the export starts and only read afterwards: its status
        // and error by the completion handler, which AVFoundation calls once, after the session has stopped
        // changing, and `cancelExport()`, which AVAssetExportSession.h says "can be invoked when the export is
        // running".
        let exporter: any CompletionHandlerExporting
        init(_ session: AVAssetExportSession) { self.exporter = session }
      }
    #endif

    /// An export that ended without a file, with AVFoundation's reason.
    private struct ExportFailure: Swift.Error, CustomStringConvertible {
      var reason: String
      var description: String { reason }
    }
  }

  #if !canImport(AVFoundation, _version: 2395)
    /// `AVAssetExportSession`'s completion-handler interface, called through a protocol so that the fallback
    /// for older systems compiles without deprecation warnings where the deployment target is iOS 18 or
    /// macOS 15 and the fallback never runs (Swift does not narrow an `if #available` branch's `else`).
    private protocol CompletionHandlerExporting: AnyObject {
      // `@Sendable` on every SDK: the 18 SDK's handler is `NS_SWIFT_SENDABLE`, and the 17.4 SDK's plain block
      // satisfies a `@Sendable` requirement too (a witness may accept more than it is given).
      func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void)
      func cancelExport()
      var status: AVAssetExportSession.Status { get }
      var error: (any Swift.Error)? { get }
    }

    extension AVAssetExportSession: CompletionHandlerExporting {}
  #endif
#endif
