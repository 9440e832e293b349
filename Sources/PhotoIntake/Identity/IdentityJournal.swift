#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The identity journal: every asset's id, name, batches, order, import time and strip status, written beside the
/// objects (`journal/<first sequence>.log`) in an append-only, checksummed form that `repair` reads without the
/// manifest. Ids survive the manifest's loss because of it.
///
/// Each manifest transaction that changes identity (a group's rows, a removal, an adoption) records its
/// ``IdentityRecord``s in the manifest too (its outbox, in the same transaction) and gets the next sequence
/// number; once that transaction is committed, its ``JournalFrame`` is appended here and fsynced, and only then
/// are its items acknowledged. So:
///
/// - every acknowledged item has its record here, durably;
/// - the journal is never ahead of the manifest: a frame here whose transaction the manifest lacks means the
///   manifest lost commits (a damaged write-ahead log that SQLite silently cut short, or an older copy put back).
///   Every open checks this in O(1) (``tail()`` reads the newest frame from the end of the newest segment);
/// - the manifest may be one transaction ahead (a crash between the commit and the append): the next writer
///   appends the frames its outbox still holds.
///
/// Appends are made by the writer only (it holds the library's writer lock); readers only read. A segment grows
/// until ``segmentLimit``; a new one is created new (`O_EXCL`), written, fsynced, and its folder fsynced before it
/// counts. ``compact(with:)`` starts a segment with a snapshot and only then removes the older ones.
final class IdentityJournal: Sendable {
  /// The journal's folder, `journal/`.
  let folder: Directory

  /// A segment is not appended to once it is this large (a new one begins).
  static let segmentLimit: Int64 = 32 << 20

  /// Opens `journal/` under `root`, creating it if asked.
  ///
  /// - Throws: `ENOENT` when it is missing and not created, `ELOOP`/`ENOTDIR` when something else has its name.
  init(root: Directory, create: Bool) throws(SystemError) {
    folder = try root.subdirectory("journal", create: create)
  }

  /// The end of the journal as found on disk.
  struct Tail: Sendable, Equatable {
    /// The sequence of the newest whole frame; 0 when the journal holds none.
    var sequence: UInt64
    /// The newest segment and where its last whole frame ends; nil when there is no segment.
    var segment: String?
    var end: Int64
    /// The newest segment ends in bytes that are not a whole frame (an append cut short, or damage).
    var isTorn: Bool
  }

  /// The segments' names, oldest first.
  func segments() throws(SystemError) -> [String] {
    try folder.names().filter { Self.firstSequence(of: $0) != nil }.sorted()
  }

  /// The sequence of the first frame a segment name says it holds.
  static func firstSequence(of name: String) -> UInt64? {
    guard name.count == 20, name.hasSuffix(".log") else { return nil }
    return UInt64(name.prefix(16), radix: 16)
  }

  static func segmentName(startingAt sequence: UInt64) -> String {
    let hex = String(sequence, radix: 16)
    return String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".log"
  }

  /// The newest whole frame: read from the end of the newest segment (two reads) when it ends cleanly, by a
  /// scan of that segment when it does not. Costs the same whatever the library's size.
  func tail() throws(SystemError) -> Tail {
    for name in try segments().reversed() {
      let file = try folder.open(name, O_RDONLY)
      let size = Int64(try file.status().st_size)
      if size == 0 { continue }
      if let last = try lastFrame(of: file, size: size) {
        return Tail(sequence: last.sequence, segment: name, end: size, isTorn: false)
      }
      // The end is not a whole frame: find the last one that is.
      let bytes = try file.bytes(at: 0, length: Int(size))
      let scan = Self.scan(bytes[...])
      guard let newest = scan.frames.last else {
        return Tail(sequence: 0, segment: name, end: 0, isTorn: true)
      }
      return Tail(sequence: newest.frame.sequence, segment: name, end: Int64(newest.end), isTorn: true)
    }
    return Tail(sequence: 0, segment: nil, end: 0, isTorn: false)
  }

  /// The frame whose footer ends the file, if it is whole.
  private func lastFrame(of file: OpenFile, size: Int64) throws(SystemError) -> JournalFrame? {
    let footerSize = Int64(JournalFrame.footerSize)
    guard size >= footerSize else { return nil }
    let footer = try file.bytes(at: size - footerSize, length: Int(footerSize))
    guard footer.count == Int(footerSize),
      let frameSize = JournalFrame.sizeOfFrame(endingAt: footer.count, in: footer[...]),
      Int64(frameSize) <= size
    else { return nil }
    let bytes = try file.bytes(at: size - Int64(frameSize), length: frameSize)
    return JournalFrame.parse(bytes[...], at: 0)
  }

  /// Appends `frames` (sequences increasing, after ``tail()``'s) and makes them durable. A torn end of the newest
  /// segment (an append a crash cut short, never acknowledged) is cut off first, so that frames stay contiguous.
  ///
  /// A failed append is cut off again where possible; either way nothing acknowledged depends on it, and the next
  /// writer appends what the manifest's outbox still holds.
  func append(_ frames: [JournalFrame]) throws(SystemError) {
    guard let first = frames.first else { return }
    var bytes: [UInt8] = []
    for frame in frames { bytes += frame.bytes }
    let tail = try tail()
    if let segment = tail.segment, tail.end + Int64(bytes.count) <= Self.segmentLimit || tail.end == 0 {
      let file = try folder.open(segment, O_WRONLY)
      if tail.isTorn { try Syscalls.truncate(file.descriptor, to: tail.end, path: file.path) }
      do {
        try Syscalls.pwriteAll(file.descriptor, bytes, at: tail.end, path: file.path)
        try file.sync()
      } catch {
        // A failed fsync is final for these frames; the length is put back so that the next append is contiguous.
        try? Syscalls.truncate(file.descriptor, to: tail.end, path: file.path)
        throw error
      }
      return
    }
    try writeSegment(startingAt: first.sequence, bytes)
  }

  /// Creates a new segment holding `bytes` (whole frames from `sequence` on), durably.
  private func writeSegment(startingAt sequence: UInt64, _ bytes: [UInt8]) throws(SystemError) {
    let name = Self.segmentName(startingAt: sequence)
    // A segment of that name can only be one a crash left before it counted (its frames were never
    // acknowledged, or the outbox still holds them): it is replaced.
    if try folder.status(name) != nil { try folder.unlink(name) }
    let file = try DurableFile.create(in: folder, name: name, mode: 0o644)
    do throws(SystemError) {
      try Syscalls.pwriteAll(file.file.descriptor, bytes, at: 0, path: file.file.path)
      try file.seal()
      try folder.sync()
    } catch {
      file.discard()
      throw error
    }
  }

  /// Starts a new segment with `snapshot` (a frame whose records begin with ``IdentityRecord/snapshotMarker``), then
  /// removes every older segment: replay begins at the newest snapshot, so they no longer matter. They are the
  /// library's own records, never the user's bytes.
  func compact(with snapshot: JournalFrame) throws(SystemError) {
    let older = try segments()
    try writeSegment(startingAt: snapshot.sequence, snapshot.bytes)
    let kept = Self.segmentName(startingAt: snapshot.sequence)
    for name in older where name < kept { try folder.unlink(name) }
    try folder.sync()
  }

  /// Every whole frame, oldest first, and where the journal holds something else (damage, or a torn append).
  func readAll() throws(SystemError) -> (frames: [JournalFrame], problems: [String]) {
    var frames: [JournalFrame] = []
    var problems: [String] = []
    let names = try segments()
    for (index, name) in names.enumerated() {
      let file = try folder.open(name, O_RDONLY)
      let size = Int(try file.status().st_size)
      let bytes = try file.bytes(at: 0, length: size)
      let scan = Self.scan(bytes[...])
      frames += scan.frames.map(\.frame)
      for range in scan.gaps {
        // A torn end of the newest segment is an append a crash cut short (never acknowledged).
        if index == names.count - 1 && range.upperBound == size { continue }
        problems.append(
          "journal/\(name): bytes \(range.lowerBound)–\(range.upperBound) are not a whole record")
      }
    }
    return (frames, problems)
  }

  /// The whole frames of a segment's bytes and the ranges between them that are not frames. After a damaged
  /// frame the scan looks for the next header that begins a whole frame.
  static func scan(_ bytes: ArraySlice<UInt8>) -> (
    frames: [(frame: JournalFrame, end: Int)], gaps: [Range<Int>]
  ) {
    var frames: [(JournalFrame, Int)] = []
    var gaps: [Range<Int>] = []
    var offset = 0
    var gapStart: Int?
    let count = bytes.count
    while offset < count {
      if let frame = JournalFrame.parse(bytes, at: offset) {
        if let start = gapStart {
          gaps.append(start..<offset)
          gapStart = nil
        }
        offset += JournalFrame.headerSize + frame.payload.count + JournalFrame.footerSize
        frames.append((frame, offset))
      } else {
        if gapStart == nil { gapStart = offset }
        offset += 1
      }
    }
    if let start = gapStart { gaps.append(start..<count) }
    return (frames, gaps)
  }
}
