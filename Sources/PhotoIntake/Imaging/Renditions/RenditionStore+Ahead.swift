import PhotoMetadata

/// Renditions decoded while their item waits for its commit.
///
/// An import receives an item and then waits for its group's flushes (the intent, the link, the folder, the
/// rows, the journal). The decode of the item's renditions, the costly part, need not wait with it: it starts
/// from the staged file as soon as the item is received, so that the cores decode while the disk flushes. The
/// files are written only once the item is committed, as before, so a rendition never exists for an object
/// the library does not have.
extension RenditionStore {
  /// The configured renditions of a received item: decoded, not yet written.
  struct Prepared: Sendable {
    /// The SHA-256 of the bytes decoded.
    var digest: SHA256Digest
    /// The distinct keys (longest sides) decoded, ascending, and their thumbnails in the same order.
    var keys: [Int]
    var thumbnails: [Thumbnail]
  }

  /// One decode ahead of a commit, as the decode queue merges them (the same bytes received twice in a batch
  /// are decoded once).
  private struct AheadRequest: Hashable, Sendable {
    var digest: SHA256Digest
    var keys: [Int]
    var store: String
  }

  /// Decodes the configured renditions of `staged`, a received item not yet committed, through the decode
  /// queue at background priority.
  ///
  /// - Returns: nil when there is nothing to gain or the decode cannot be done ahead: renditions of these
  ///   bytes are stored already (a duplicate), a size is invalid, the staged name is not a regular file, the
  ///   decode failed, or the task was cancelled. The committed asset then goes the usual way
  ///   (``renditions(of:sizes:)``), which reports any failure as it always has.
  func prepare(_ staged: StagedFile, metadata: MediaMetadata?) async -> Prepared? {
    let keys = Array(Set(Self.keys(configuration.sizes, metadata: metadata))).sorted()
    guard let smallest = keys.first, smallest > 0 else { return nil }
    let digest = staged.digest
    // Look-ups block: an I/O lane. The staged file is opened as a regular file, never through a link (DESIGN.md
    // invariant 8), and the decode reads that same file.
    let opened = await BlockingLanes.io.run { [self] () -> OpenFile? in
      guard keys.allSatisfy({ existing(digest, size: $0) == nil }) else { return nil }
      return (try? staged.folder.openRegularFile(staged.name))?.file
    }
    guard let opened else { return nil }
    let cost = ThumbnailPlan.decodedPixels(metadata, size: keys.last ?? 0)
    let key = AheadRequest(digest: digest, keys: keys, store: library.renditionsPath)
    let made = await decodes.run(priority: .background, cost: cost, merging: key) {
      [self] () async -> [Thumbnail]? in
      await BlockingLanes.shared.run { [self] () -> [Thumbnail]? in decodeAhead(opened, staged, keys: keys) }
    }
    guard let made, let made else { return nil }
    return Prepared(digest: digest, keys: keys, thumbnails: made)
  }

  /// The decode of the staged file `opened` (blocking: a decode lane).
  ///
  /// The group commit takes the staged name away once the object holds the same bytes, possibly while this
  /// decode runs (the decoders open their path more than once). On Linux the decode reads the open file
  /// through `/proc/self/fd`, which outlives its name; elsewhere a decode that failed once the name was gone
  /// reads the object instead.
  private func decodeAhead(_ opened: OpenFile, _ staged: StagedFile, keys: [Int]) -> [Thumbnail]? {
    defer { withExtendedLifetime(opened) {} }
    #if os(Linux)
      return try? decode("/proc/self/fd/\(opened.descriptor)", sizes: keys)
    #else
      do throws(ImagingError) {
        return try decode(staged.path, sizes: keys)
      } catch {
        guard (try? staged.folder.status(staged.name)) == nil,
          let info = library.store.status(of: staged.digest), Platform.fileType(info.st_mode) == .regular
        else { return nil }
        return try? decode(library.store.path(of: staged.digest), sizes: keys)
      }
    #endif
  }

  /// The configured renditions of the committed `asset`, written from `prepared`.
  ///
  /// - Returns: one rendition per configured size, in their order; nil when `prepared` is not what the asset
  ///   needs (other bytes, or other keys: a duplicate whose stored facts differ), which then goes the usual way.
  func renditions(of asset: Asset, prepared: Prepared) async throws(ImagingError) -> [Rendition]? {
    let keys = Self.keys(configuration.sizes, metadata: asset.metadata)
    guard prepared.digest == asset.sha256, Set(keys) == Set(prepared.keys) else { return nil }
    let written = try await BlockingLanes.io.run { [self] () throws(ImagingError) -> [Rendition] in
      try write(prepared.thumbnails, sizes: prepared.keys, digest: asset.sha256)
    }
    let byKey = Self.keyed(prepared.keys, written)
    return keys.map { byKey[$0]! }
  }
}
