import Foundation
import PhotoIntakeTesting
import Synchronization
import Testing

@testable import PhotoIntake

/// `PreparedFile.converting(into:cancel:_:)` (the portable half of the H.264 re-encode: task cancellation
/// reaches the encoder, and what it wrote is removed) and `PreparedFile.sweep(folder:olderThan:)`, on real
/// folders and files.
@Suite struct ConversionCleanupTests {
  let folder = TemporaryDirectory()

  /// An encoder that behaves as `AVAssetExportSession` does with `exportAsynchronously`: it writes a partial
  /// file and its own scratch folder, then runs until `cancelExport()` is called, and then reports cancellation
  /// without removing anything.
  final class PartialEncoder: Sendable {
    let output: String
    let cancelCalls = Mutex(0)
    let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation
    private let stop: AsyncStream<Void>
    private let stopContinuation: AsyncStream<Void>.Continuation

    init(output: String) {
      self.output = output
      (started, startedContinuation) = AsyncStream<Void>.makeStream()
      (stop, stopContinuation) = AsyncStream<Void>.makeStream()
    }

    func cancelExport() {
      cancelCalls.withLock { $0 += 1 }
      stopContinuation.finish()
    }

    func export() async throws {
      let holder = (output as NSString).deletingLastPathComponent
      try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: output))
      try FileManager.default.createDirectory(
        atPath: holder + "/.scratch", withIntermediateDirectories: false)
      try Data([1, 2, 3]).write(to: URL(fileURLWithPath: holder + "/.scratch/segment-1"))
      startedContinuation.yield()
      for await _ in stop {}
      throw CancellationError()
    }
  }

  @Test func cancellingTheTaskCancelsTheEncoderAndRemovesWhatItWrote() async throws {
    let holder = try PreparedFile.makeHolder(in: folder.at("prepared"))
    let encoder = PartialEncoder(output: holder + "/Clip.mp4")
    let task = Task { () async -> PreparedFile.Error? in
      do throws(PreparedFile.Error) {
        try await PreparedFile.converting(into: holder, cancel: { encoder.cancelExport() }) {
          try await encoder.export()
        }
        return nil
      } catch {
        return error
      }
    }
    for await _ in encoder.started { break }
    #expect(FileManager.default.fileExists(atPath: holder + "/Clip.mp4"))
    task.cancel()
    let error = await task.value
    #expect(error == .cancelled)
    #expect(encoder.cancelCalls.withLock { $0 } == 1)
    #expect(!FileManager.default.fileExists(atPath: holder))
    // The folder the holders live in stays, for the next prepared file.
    #expect(FileManager.default.fileExists(atPath: folder.at("prepared")))
  }

  @Test func aFailedConversionLeavesNothingAndSaysWhy() async throws {
    struct EncoderError: Error, CustomStringConvertible { var description: String { "no encoder" } }
    let holder = try PreparedFile.makeHolder(in: folder.at("prepared"))
    await #expect(throws: PreparedFile.Error.cannotConvert(.encodeFailed(reason: "no encoder"))) {
      try await PreparedFile.converting(into: holder) {
        try Data([0]).write(to: URL(fileURLWithPath: holder + "/Clip.mp4"))
        throw EncoderError()
      }
    }
    #expect(!FileManager.default.fileExists(atPath: holder))
  }

  @Test func aFinishedConversionKeepsItsFile() async throws {
    let holder = try PreparedFile.makeHolder(in: folder.at("prepared"))
    try await PreparedFile.converting(into: holder) {
      try Data([7, 7]).write(to: URL(fileURLWithPath: holder + "/Clip.mp4"))
    }
    #expect(FileManager.default.contents(atPath: holder + "/Clip.mp4") == Data([7, 7]))
  }

  @Test func aConversionThatFinishesAsTheTaskIsCancelledIsStillRemoved() async throws {
    let holder = try PreparedFile.makeHolder(in: folder.at("prepared"))
    let task = Task { () async -> PreparedFile.Error? in
      withUnsafeCurrentTask { $0?.cancel() }
      do throws(PreparedFile.Error) {
        try await PreparedFile.converting(into: holder) {
          try Data([7]).write(to: URL(fileURLWithPath: holder + "/Clip.mp4"))
        }
        return nil
      } catch {
        return error
      }
    }
    #expect(await task.value == .cancelled)
    #expect(!FileManager.default.fileExists(atPath: holder))
  }

  @Test func sweepRemovesOnlyOldHoldersAndFollowsNoLink() throws {
    let prepared = folder.at("prepared")
    let old = try PreparedFile.makeHolder(in: prepared)
    let fresh = try PreparedFile.makeHolder(in: prepared)
    let manager = FileManager.default
    try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: old + "/Clip.mp4"))
    try Data([2]).write(to: URL(fileURLWithPath: fresh + "/IMG_0001.jpg"))
    // Someone else's file outside, reachable through a link inside the old holder: only the link goes.
    let outside = folder.at("keep.txt")
    try Data([3]).write(to: URL(fileURLWithPath: outside))
    try manager.createSymbolicLink(atPath: old + "/link", withDestinationPath: outside)
    // A folder in `prepared` that no holder is named like, and old: left alone.
    try manager.createDirectory(atPath: prepared + "/Mine", withIntermediateDirectories: false)
    let dayAgo = Date(timeIntervalSinceNow: -86_400)
    for path in [old, prepared + "/Mine"] {
      try manager.setAttributes([.modificationDate: dayAgo], ofItemAtPath: path)
    }
    #expect(PreparedFile.sweep(folder: prepared, olderThan: 3600) == 1)
    #expect(!manager.fileExists(atPath: old))
    #expect(manager.fileExists(atPath: fresh + "/IMG_0001.jpg"))
    #expect(manager.fileExists(atPath: prepared + "/Mine"))
    #expect(manager.contents(atPath: outside) == Data([3]))
    #expect(PreparedFile.sweep(folder: folder.at("absent"), olderThan: 0) == 0)
  }

  @Test(arguments: [
    ("3f2a9c1e-0b4d-4e5f-8a6b-7c8d9e0f1a2b", true),
    ("3F2A9C1E-0B4D-4E5F-8A6B-7C8D9E0F1A2B", false),
    ("3f2a9c1e0b4d4e5f8a6b7c8d9e0f1a2b", false),
    ("3f2a9c1e-0b4d-4e5f-8a6b-7c8d9e0f1a2g", false),
    ("Photos", false),
  ])
  func holderNames(name: String, isHolder: Bool) {
    #expect(PreparedFile.isHolderName(name) == isHolder)
  }
}
