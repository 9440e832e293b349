import PhotoMetadata

/// What streaming a file's bytes from start to end learned: their SHA-256 (the object's name), their count,
/// and the leading bytes that decide their type (invariant 4: bytes decide, never a name).
package struct ContentFacts: Sendable, Equatable {
  /// The SHA-256 of every byte.
  package var digest: SHA256Digest
  /// How many bytes there were.
  package var size: Int64
  /// The first ``MediaType/sniffLength`` bytes (fewer in a shorter file).
  package var prefix: [UInt8]
}

/// The running tally of bytes as they stream by: hash, count and leading bytes.
///
/// The one place that turns a stream of chunks into ``ContentFacts``: ``ChunkedReader`` feeds it what it reads,
/// and ``StagingSink`` what a source pushes.
package final class ContentTally {
  private let hasher = SHA256Hasher()
  /// Bytes absorbed so far.
  package private(set) var size: Int64 = 0
  /// The leading bytes absorbed so far.
  package private(set) var prefix: [UInt8] = []

  package init() {}

  /// Counts, hashes and (at the start) keeps a chunk.
  package func absorb(_ chunk: UnsafeRawBufferPointer) {
    hasher.update(chunk)
    if prefix.count < MediaType.sniffLength {
      prefix.append(contentsOf: chunk.prefix(MediaType.sniffLength - prefix.count))
    }
    size += Int64(chunk.count)
  }

  /// The facts of everything absorbed. The tally is spent afterwards.
  package func finish() -> ContentFacts {
    ContentFacts(digest: hasher.finalize(), size: size, prefix: prefix)
  }
}

/// The one chunked reader: every whole-file read PhotoIntake makes — hashing an object to verify or export it,
/// copying a source into staging, hashing an adopted or stripped staged file, copying a picker's file — goes
/// through ``read(_:tallying:failure:_:)``.
///
/// It reads with `pread` from offset 0 (so a descriptor that was read before, or is read again, gives the same
/// bytes), `chunkSize` bytes per call through one buffer, and tallies every chunk (``ContentTally``) before it
/// hands it on. Memory stays one chunk whatever the file's size; the buffer comes from ``ChunkBuffers``.
package struct ChunkedReader: Sendable {
  /// Bytes per read. Default 1 MiB: large enough that system calls cost nothing beside the hashing, small
  /// enough that a few readers at once stay within an app's memory.
  package var chunkSize: Int

  /// A reader with chunks of `chunkSize` bytes.
  package init(chunkSize: Int = 1 << 20) {
    self.chunkSize = max(4096, chunkSize)
  }

  /// Reads `file` from its start to its end, handing each chunk, once `tally` (if any) absorbed it, to `body`.
  ///
  /// - Parameters:
  ///   - tally: where the bytes are hashed and counted; nil when the caller hashes them elsewhere.
  ///   - failure: how a failed read is reported in `body`'s error type.
  ///   - body: gets each chunk in order; it may throw to stop the read (a cancellation, a size limit, a
  ///     failed write of a copy).
  /// - Returns: how many bytes were read.
  /// - Throws: `body`'s error, or a failed read mapped through `failure`.
  @discardableResult
  package func read<Failure: Error>(
    _ file: OpenFile, tallying tally: ContentTally?, failure: (SystemError) -> Failure,
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void = { _ in }
  ) throws(Failure) -> Int64 {
    let buffer = ChunkBuffers.take(chunkSize)
    defer { ChunkBuffers.give(buffer) }
    var offset: Int64 = 0
    while true {
      let count: Int
      do {
        count = try file.read(into: buffer, at: offset)
      } catch {
        throw failure(error)
      }
      if count == 0 { break }
      let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
      tally?.absorb(chunk)
      try body(chunk)
      offset += Int64(count)
    }
    return offset
  }

  /// The facts of `file`'s bytes, for a caller that only needs to know them (verification, a check before
  /// export or adoption).
  package func facts(of file: OpenFile) throws(SystemError) -> ContentFacts {
    let tally = ContentTally()
    try read(file, tallying: tally, failure: { $0 })
    return tally.finish()
  }
}

/// The chunked reader's buffers, kept between reads: a fresh 1 MiB buffer is a new mapping whose 256 pages are
/// faulted in and zeroed for every file (a quarter of an import's page faults, measured on the benchmark
/// corpus). At most ``kept`` buffers are kept, of at most ``largestKept`` bytes each.
enum ChunkBuffers {
  /// How many buffers are kept at most: readers rarely run more than one per core.
  static let kept = 4
  /// Larger buffers are freed after use.
  static let largestKept = 4 << 20

  /// The kept buffers' addresses and sizes (raw pointers are not `Sendable`; the addresses are only turned
  /// back into buffers by the reader that takes them).
  private static let free = Protected<[(address: UInt, count: Int)]>([])

  /// A buffer of exactly `count` bytes: a kept one if one has that size, else a new one.
  static func take(_ count: Int) -> UnsafeMutableRawBufferPointer {
    let kept = free.withLock { list -> UInt? in
      guard let index = list.firstIndex(where: { $0.count == count }) else { return nil }
      return list.remove(at: index).address
    }
    if let kept, let start = UnsafeMutableRawPointer(bitPattern: kept) {
      return UnsafeMutableRawBufferPointer(start: start, count: count)
    }
    return UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
  }

  /// Keeps `buffer` for the next reader, or frees it.
  static func give(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let start = buffer.baseAddress else { return }
    let keep =
      buffer.count <= largestKept
      && free.withLock { list in
        guard list.count < kept else { return false }
        list.append((UInt(bitPattern: start), buffer.count))
        return true
      }
    if !keep { buffer.deallocate() }
  }
}
