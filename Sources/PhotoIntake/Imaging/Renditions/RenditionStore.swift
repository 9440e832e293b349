import Foundation
import PhotoMetadata

/// The library's renditions: upright JPEGs of each photo, and of each movie's poster frame, at a few standard
/// sizes, stored as `renditions/ab/<sha256>-<size>.jpg` (keyed by content hash and longest side).
///
/// Renditions are caches. Each is written atomically (a staging file, fsynced, renamed into place), can be
/// deleted at any time, and is made again from the original on the next request. ``Library/remove(_:)``
/// deletes an asset's renditions with it.
///
/// ```swift
/// let store = RenditionStore(library: library)
/// let small = try await store.rendition(of: asset, size: 320)   // made now if missing
/// imageView.load(contentsOfFile: small.path)
/// ```
public struct RenditionStore: Sendable {
  /// Sizes, quality and limits of renditions.
  public struct Configuration: Sendable {
    /// Longest sides made for each photo during an import, in pixels. Default 320: what a grid shows, made
    /// from one reduced decode (libjpeg's 1/8 scale for a 12 MP JPEG). Larger sizes (1024 for a full-screen
    /// preview) are made on demand with ``RenditionStore/rendition(of:size:)``: making 1024 at import costs a
    /// 1/4-scale decode of every photo, about twice the time of the whole import otherwise.
    public var sizes: [Int] = [320]
    /// JPEG quality 1…100. Default 82.
    public var quality = 82
    /// Photos declaring more pixels are refused before any decode. Default 200 MP.
    public var maximumPixelCount = ThumbnailRequest.defaultMaximumPixelCount
    /// The memory and work one photo's decode may cost (``DecodeLimit``); a photo over it is refused before
    /// any decode, like a bomb. Default 256 MiB and 100 million pixels decoded.
    public var decodeLimit = DecodeLimit()
    /// Photos rendered at once, during an import and on demand. Default: the active processor count.
    public var maximumConcurrentRenditions = ProcessInfo.processInfo.activeProcessorCount
    /// How many decoded pixels renditions may hold at once, during an import and on demand (about 3 bytes each,
    /// plus the decoders' own buffers). A photo is admitted only when its decode fits beside those running (a JPEG counts
    /// its scaled decode, a 12 MP PNG all its pixels), so a PNG waits for room rather than decoding beside
    /// another; one larger than the whole budget runs alone. Default 12 million.
    public var decodeBudget = 12_000_000
    /// The decoder: ``PlatformThumbnailer`` unless a test or an app supplies another.
    public var thumbnailer: any ThumbnailGenerating = PlatformThumbnailer()

    /// The default configuration: the platform's thumbnailer and the default sizes and limits.
    public init() {}

    /// Only the given sizes.
    public init(sizes: [Int]) { self.sizes = sizes }
  }

  /// The library whose assets the renditions are made from, and in whose `renditions/` folder they are kept.
  public let library: Library
  /// Sizes, limits and the thumbnailer in use.
  public let configuration: Configuration

  /// A store for `library`'s renditions.
  public init(library: Library, configuration: Configuration = Configuration()) {
    self.library = library
    self.configuration = configuration
  }

  /// Where the rendition of the object with `digest` at `size` is kept (whether or not it exists).
  public func path(for digest: SHA256Digest, size: Int) -> String {
    "\(library.renditionsPath)/\(digest.hex.prefix(2))/\(digest.hex)-\(size).jpg"
  }

  /// The rendition of `asset` whose longest side is at most `size`, made now if it is missing.
  ///
  /// - Throws: ``ImagingError`` when the original cannot be rendered (a bomb, a damaged file, a movie without a
  ///   decodable video track) or the rendition cannot be written.
  public func rendition(of asset: Asset, size: Int) async throws(ImagingError) -> Rendition {
    try await renditions(of: asset, sizes: [size])[0]
  }

  /// The renditions of `asset` at `sizes` (default: the configured sizes), making the missing ones with a
  /// single decode of the original.
  ///
  /// - Returns: one rendition per size, in the order of `sizes`.
  @discardableResult
  public func renditions(of asset: Asset, sizes: [Int]? = nil) async throws(ImagingError) -> [Rendition] {
    try await renditions(of: asset, sizes: sizes, priority: .userInitiated)
  }

  /// ``renditions(of:sizes:)`` at `priority`: an import makes its renditions in the background, behind those a
  /// person is waiting for.
  func renditions(of asset: Asset, sizes: [Int]?, priority: WorkQueue.Priority) async throws(ImagingError)
    -> [Rendition]
  {
    let requested = sizes ?? configuration.sizes
    for size in requested where size <= 0 { throw .invalidSize(size) }
    let keys = Self.keys(requested, metadata: asset.metadata)
    let made = try await renditions(of: asset, keys: Array(Set(keys)).sorted(), priority: priority)
    return keys.map { key in made[key]! }
  }

  /// The key each of `sizes` is stored under. A size at or above the photo's own longest side is the photo at
  /// its own size: one rendition serves all such sizes (stored under that side), never an upscaled or
  /// duplicate one.
  static func keys(_ sizes: [Int], metadata: MediaMetadata?) -> [Int] {
    let longest = metadata.flatMap { facts in
      facts.width.flatMap { width in facts.height.map { max(width, $0) } }
    }
    return sizes.map { size in longest.map { min(size, $0) } ?? size }
  }

  /// The renditions stored under `sizes` (distinct), making the missing ones with one decode.
  ///
  /// Existing ones are found at once. Missing ones are made through the decode queue (``decodes``): within
  /// the decode budget beside the other decodes of the process, highest priority first, and once for identical
  /// requests made while one is waiting or running (a grid asking twice for the same cell).
  private func renditions(of asset: Asset, keys sizes: [Int], priority: WorkQueue.Priority)
    async throws(ImagingError) -> [Int: Rendition]
  {
    let original = library.objectPath(for: asset)
    let digest = asset.sha256
    // The look-ups open, stat and read files: on an I/O lane, not on a thread of Swift's cooperative pool.
    var found = try await BlockingLanes.io.run { [self] () throws(ImagingError) -> [Rendition?] in
      let found = sizes.map { existing(digest, size: $0) }
      guard found.contains(where: { $0 == nil }) else { return found }
      // The decoders take a path: check first that the object is a regular file, so that a link or FIFO
      // planted in its place is neither followed nor opened (DESIGN.md invariant 8).
      let info = library.store.status(of: digest)
      guard let info, Platform.fileType(info.st_mode) == .regular else {
        throw ImagingError(SystemError(.open, info == nil ? ENOENT : ELOOP, path: original))
      }
      return found
    }
    let missing = sizes.indices.filter { found[$0] == nil }
    guard !missing.isEmpty else { return Self.keyed(sizes, found) }
    let wanted = missing.map { sizes[$0] }
    let cost = ThumbnailPlan.decodedPixels(asset.metadata, size: wanted.max() ?? 0)
    let key = Request(digest: digest, sizes: wanted, store: library.renditionsPath)
    guard
      let made = await decodes.run(
        priority: priority, cost: cost, merging: key,
        { [self] () async -> Result<[Rendition], ImagingError> in
          do throws(ImagingError) {
            return .success(try await make(wanted, of: original, digest: digest))
          } catch {
            return .failure(error)
          }
        })
    else { throw .cancelled }
    for (index, rendition) in zip(missing, try made.typedGet()) {
      found[index] = rendition
    }
    return Self.keyed(sizes, found)
  }

  /// One request to make renditions, as the decode queue merges them.
  private struct Request: Hashable, Sendable {
    var digest: SHA256Digest
    var sizes: [Int]
    var store: String
  }

  /// The queue every rendition made with this configuration's limits goes through, for the whole process.
  var decodes: WorkQueue {
    WorkQueue.shared(
      label: "PhotoIntake.Renditions", width: configuration.maximumConcurrentRenditions,
      budget: configuration.decodeBudget)
  }

  /// Decodes the original once for all `sizes` and writes them (blocking, on the lanes).
  private func make(_ sizes: [Int], of original: String, digest: SHA256Digest) async throws(ImagingError)
    -> [Rendition]
  {
    // The decode holds a core for tens of milliseconds: a decode lane (one per core). The writes wait in
    // fsync: an I/O lane, so that the decode lanes go on to the next photo meanwhile. Neither is a thread of
    // Swift's cooperative pool.
    let thumbnails = try await BlockingLanes.shared.run { [self] () throws(ImagingError) -> [Thumbnail] in
      try decode(original, sizes: sizes)
    }
    return try await BlockingLanes.io.run { [self] () throws(ImagingError) -> [Rendition] in
      try write(thumbnails, sizes: sizes, digest: digest)
    }
  }

  /// One decode of the file at `path` for all `sizes`, with this configuration's limits (blocking: a decode lane).
  func decode(_ path: String, sizes: [Int]) throws(ImagingError) -> [Thumbnail] {
    let request = ThumbnailRequest(
      maxPixelSize: sizes[0], maximumPixelCount: configuration.maximumPixelCount,
      quality: configuration.quality, decodeLimit: configuration.decodeLimit)
    return try configuration.thumbnailer.thumbnails(ofFileAt: path, sizes: sizes, request: request)
  }

  /// The renditions found (every one present) by their keys.
  static func keyed(_ sizes: [Int], _ found: [Rendition?]) -> [Int: Rendition] {
    Dictionary(uniqueKeysWithValues: zip(sizes, found.map { $0! }))
  }

  /// Writes the renditions of the object with `digest`, atomically.
  func write(_ thumbnails: [Thumbnail], sizes: [Int], digest: SHA256Digest) throws(ImagingError)
    -> [Rendition]
  {
    let folder: Directory
    do {
      // A cache's folder: not fsynced when made (a crash may lose it, and the renditions are made again).
      folder = try library.store.renditions.subdirectory(
        String(digest.hex.prefix(2)), create: true, durably: false)
    } catch {
      throw ImagingError(error)
    }
    var made: [Rendition] = []
    for (size, thumbnail) in zip(sizes, thumbnails) {
      let destination = path(for: digest, size: size)
      // Written beside its final name, relative to the folder's descriptor; a crash mid-write leaves a hidden
      // temporary file that repair removes (renditions are caches).
      do {
        try DurableFile.write(
          thumbnail.jpegData, in: folder, as: "\(digest.hex)-\(size).jpg", .replacing, syncFolder: false)
      } catch {
        throw ImagingError(error)
      }
      made.append(
        Rendition(
          size: size, path: destination, width: thumbnail.width, height: thumbnail.height,
          source: thumbnail.source))
    }
    return made
  }

  /// An existing rendition file, with its size read from its JPEG frame header; nil if missing, unreadable or
  /// not a regular file (it is then made again, and the new file's rename replaces whatever had the name).
  ///
  /// Opened relative to the renditions folder's descriptor without following links (DESIGN.md invariant 8),
  /// and read whole through that descriptor: a link planted at a rendition's name is never served as that
  /// asset's rendition. Renditions are small (a 320 px JPEG is about 30 KB); a file over
  /// ``largestRendition`` bytes is not one of ours.
  func existing(_ digest: SHA256Digest, size: Int) -> Rendition? {
    let name = "\(digest.hex)-\(size).jpg"
    guard let folder = try? library.store.renditions.subdirectory(String(digest.hex.prefix(2))),
      let file = try? HeaderFile(in: folder, name: name), file.count <= Self.largestRendition,
      let bytes = try? file.bytes(at: 0, length: file.count),
      let headers = try? ImageHeaders.read(bytes: bytes), headers.type == .jpeg,
      let width = headers.width, let height = headers.height
    else { return nil }
    return Rendition(
      size: size, path: path(for: digest, size: size), width: width, height: height, source: nil)
  }

  /// More bytes than any rendition the store writes (a 4096 px JPEG at quality 100 stays well under it).
  static let largestRendition = 16 << 20
}
