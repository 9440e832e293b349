#if canImport(AVFoundation)
  import AVFoundation
  import Foundation

  /// Re-encodes a stored movie as H.264 in an MPEG-4 file with `AVAssetExportSession` (Apple platforms), for
  /// recipients whose devices cannot play HEVC.
  ///
  /// The movie is first prepared as it is (``PreparedFile``, a hard link named with its extension, which
  /// AVFoundation needs to recognise the container); the export reads that and writes `<name>.mp4` in a
  /// folder of its own. `AVAssetExportPresetHighestQuality` encodes H.264 (HEVC has presets of its own);
  /// without location, `AVMetadataItemFilter.forSharing()` leaves out location and other user-identifying
  /// metadata. The iOS 18 SDK adds `export(to:as:isolation:)` (back-deployed); the iOS 16 and 17 SDKs have
  /// `exportAsynchronously(completionHandler:)`, used here (deprecated from iOS 18, still available).
  enum H264Transcoder {
    static func prepare(_ asset: Asset, in library: Library, options: ExportOptions, folder: String)
      async throws(PreparedFile.Error) -> PreparedFile
    {
      let original = try PreparedFile.make(for: asset, in: library, withoutLocation: false, folder: folder)
      defer { original.release() }
      let holder = try PreparedFile.makeHolder(in: folder)
      var stem = PreparedFile.filename(for: asset)
      if let dot = stem.lastIndex(of: ".") { stem = String(stem[..<dot]) }
      let path = holder + "/" + stem + ".mp4"
      let source = AVURLAsset(url: URL(fileURLWithPath: original.path))
      guard let session = AVAssetExportSession(asset: source, presetName: AVAssetExportPresetHighestQuality)
      else {
        Syscalls.removeEmptyDirectory(holder)
        throw .cannotConvert(.unsupportedContent(type: asset.type))
      }
      session.outputURL = URL(fileURLWithPath: path)
      session.outputFileType = .mp4
      session.shouldOptimizeForNetworkUse = true
      if options.stripLocation { session.metadataItemFilter = AVMetadataItemFilter.forSharing() }
      let outcome = await run(session)
      guard outcome.completed else {
        try? Syscalls.unlink(path)
        Syscalls.removeEmptyDirectory(holder)
        throw .cannotConvert(.encodeFailed(reason: outcome.reason))
      }
      return PreparedFile(path: path, removedLocation: options.stripLocation ? ["QuickTime location"] : [])
    }

    /// Runs the export and waits for it without blocking a thread.
    private static func run(_ session: AVAssetExportSession) async -> (completed: Bool, reason: String) {
      // The session is not Sendable; the box only carries it into the completion handler, which AVFoundation
      // calls once, after the session has stopped changing.
      let box = SessionBox(session)
      return await withCheckedContinuation { continuation in
        box.session.exportAsynchronously {
          let finished = box.session
          continuation.resume(
            returning: (
              finished.status == .completed,
              finished.error?.localizedDescription
                ?? "the export stopped (status \(finished.status.rawValue))"
            ))
        }
      }
    }

    /// Carries the session into the completion handler.
    private final class SessionBox: @unchecked Sendable {
      // @unchecked: `session` is only read, by the caller before the export starts and by the completion
      // handler after it has ended; AVFoundation orders the two.
      let session: AVAssetExportSession
      init(_ session: AVAssetExportSession) { self.session = session }
    }
  }
#endif
