import PhotoMetadata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an ``ItemSource`` puts the bytes of one item: a new file in the library's `staging/` folder,
/// hashed (SHA-256) and size-checked.
///
/// Bytes written (`write(_:)`) or copied (``copyFile(atPath:)``) are hashed as they arrive. A file taken over
/// with ``adoptFile(atPath:)`` (inside a provider's completion handler) is only linked or copied there, and hashed
/// afterwards, when the importer finishes the sink on its blocking lanes: the handler returns at once, so the
/// provider's temporary folder is not held while a 4 GB video is read.
///
/// A sink is given to one source for one delivery and used from one thread at a time; the importer hashes,
/// fsyncs and commits it after ``ItemSource/deliver(to:)`` returns, or deletes it on any failure.
public final class StagingSink: @unchecked Sendable {
  // @unchecked: the mutable state below is touched by one delivering source at a time (the importer awaits
  // `deliver(to:)`, and a callback-based source resumes the importer only after its callback finished with the
  // sink, which orders the accesses). The cancellation flag, set from another task, is in a `Protected`.

  /// The staging file's path (`staging/<writer>-<uuid>.part`), for messages: the file is created and reached
  /// only through the staging folder's descriptor.
  public var path: String { folder.path(of: name) }
  let folder: Directory
  let name: String
  /// Bytes received so far.
  public private(set) var byteCount: Int64 = 0
  /// The size the source expects to deliver, when known; used for progress.
  public var expectedByteCount: Int64?

  let maximumSize: Int64
  private let reader: ChunkedReader
  /// The staged file, made (``DurableFile``) at the first byte.
  private var file: DurableFile?
  /// The hash, count and leading bytes of what arrived.
  private var tally = ContentTally()
  /// Whether the staged file is hashed when the sink is finished instead of as bytes arrive: set by
  /// ``adoptFile(atPath:)``, whose caller is a completion handler that must return promptly.
  private var hashesOnFinish = false
  /// Bytes hashed so far: 0 after ``adoptFile(atPath:)`` until ``finish()`` (tests check that a handler never
  /// waits for the hash).
  package var hashedByteCount: Int64 { hashesOnFinish ? 0 : tally.size }
  private let cancelled = Protected(false)
  private let progressHandler: @Sendable (Double) -> Void

  init(
    folder: Directory, name: String, maximumSize: Int64, chunkSize: Int = 1 << 20,
    progress: @escaping @Sendable (Double) -> Void = { _ in }
  ) {
    self.folder = folder
    self.name = name
    self.maximumSize = maximumSize
    self.reader = ChunkedReader(chunkSize: chunkSize)
    self.progressHandler = progress
  }

  /// A new path next to the staged file, for a source that can only create a whole file of its own
  /// (`PHAssetResourceManager.writeData(for:toFile:options:completionHandler:)` refuses an existing one) before
  /// handing it over with ``adoptFile(atPath:)``, which then links it without a copy.
  ///
  /// It carries this write's staging prefix, so a crash leaves nothing that the next open does not sweep. A
  /// source claims it with ``claimScratchPath()`` and deletes it with ``removeScratch()`` once adopted.
  public var scratchPath: String { folder.path(of: scratchName) }

  private var scratchName: String { name + ".incoming" }

  /// ``scratchPath``, once it is certain that nothing has that name yet: whatever a source then finds there is
  /// what it wrote for this delivery, and only that is ever removed.
  ///
  /// - Throws: ``Importer/Error/ioError(operation:code:)`` with `EEXIST` when something already has the name
  ///   (it is not this delivery's, so it is kept), or the error of looking.
  public func claimScratchPath() throws(Importer.Error) -> String {
    let existing: stat?
    do throws(SystemError) {
      existing = try folder.status(scratchName)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
    if existing != nil { throw Importer.Error(libraryFailure: SystemError(.open, EEXIST, path: scratchPath)) }
    return scratchPath
  }

  /// Removes what a source wrote at ``scratchPath``, through the staging folder's descriptor (a link there is
  /// removed, never followed). Call it only after ``claimScratchPath()`` succeeded.
  public func removeScratch() {
    try? folder.unlink(scratchName)
  }

  /// Reports how far a download or conversion has come, from 0 to 1.
  public func reportProgress(_ fraction: Double) {
    progressHandler(min(max(fraction, 0), 1))
  }

  /// Appends bytes to the staged file.
  ///
  /// - Throws: ``Importer/Error/tooLarge(limit:)``, ``Importer/Error/diskFull``, ``Importer/Error/cancelled``…
  public func write(_ buffer: UnsafeRawBufferPointer) throws(Importer.Error) {
    try append(buffer)
    if !hashesOnFinish { tally.absorb(buffer) }
  }

  /// Appends bytes to the staged file without hashing them (the caller's reader tallied them, or the whole
  /// file is hashed at ``finish()``).
  private func append(_ buffer: UnsafeRawBufferPointer) throws(Importer.Error) {
    if cancelled.current { throw .cancelled }
    guard buffer.count > 0 else { return }
    if byteCount + Int64(buffer.count) > maximumSize { throw .tooLarge(limit: maximumSize) }
    do {
      if file == nil { file = try DurableFile.create(in: folder, name: name) }
      try file!.write(buffer)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
    byteCount += Int64(buffer.count)
  }

  /// Appends bytes to the staged file.
  public func write(_ bytes: [UInt8]) throws(Importer.Error) {
    let failure: Importer.Error? = bytes.withUnsafeBytes { buffer in
      do throws(Importer.Error) {
        try write(buffer)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Takes over a file that will be deleted when the caller's scope ends (a picker's temporary file).
  ///
  /// Makes a hard link in the staging folder when the file is on the same volume, so nothing is copied; falls
  /// back to a streaming copy otherwise. Either way the bytes are then the library's, whatever happens to the
  /// original path. Call it before the scope that owns the file returns.
  ///
  /// Nothing is hashed here: the importer hashes the staged file after the caller's scope returned, on its
  /// blocking lanes, before the commit (NSItemProvider keeps its temporary folder until the completion handler
  /// returns, so a handler that hashes a 4 GB video holds it for seconds). Cancellation still reaches the copy
  /// and the later hash.
  public func adoptFile(atPath source: String) throws(Importer.Error) {
    if cancelled.current { throw .cancelled }
    hashesOnFinish = true
    if byteCount == 0, file == nil {
      let info = try FilePlacement.regularFileStatus(source)
      if Int64(info.st_size) > maximumSize { throw .tooLarge(limit: maximumSize) }
      if try FilePlacement.link(source, into: folder, as: name) {
        // The link is ours now; keep it open for the final fsync. It is hashed by `finish()`.
        do {
          file = try DurableFile.adopting(name, in: folder)
        } catch {
          throw Importer.Error(libraryFailure: error)
        }
        return
      }
    }
    try copyFile(atPath: source)
  }

  /// Copies a regular file into the staged file, refusing symbolic links, FIFOs and devices, and detecting a
  /// source that changes or disappears during the copy.
  public func copyFile(atPath source: String) throws(Importer.Error) {
    try copyFile(raw: Array(source.utf8), path: source)
  }

  /// ``copyFile(atPath:)`` for a path given as raw bytes (a file name need not be UTF-8); `source` is its
  /// printable form.
  func copyFile(raw: [UInt8], path source: String) throws(Importer.Error) {
    // lstat first so that a FIFO or device is never opened. O_NOFOLLOW + fstat then close the race where the
    // path is swapped after the lstat.
    let info = try FilePlacement.regularFileStatus(raw: raw, path: source)
    let input: OpenFile
    let before: stat
    do throws(SystemError) {
      input = try OpenFile(raw: raw, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK, path: source)
      before = try input.status()
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
    let openedKind = Platform.fileType(before.st_mode)
    guard openedKind == .regular, before.st_ino == info.st_ino else {
      throw .notRegularFile(openedKind == .regular ? .unknown : openedKind)
    }
    let size = Int64(before.st_size)
    if size > maximumSize { throw .tooLarge(limit: maximumSize) }
    if expectedByteCount == nil { expectedByteCount = size }
    let copied = try reader.read(
      input, tallying: hashesOnFinish ? nil : tally, failure: Importer.Error.init(sourceFailure:)
    ) { chunk throws(Importer.Error) in
      try append(chunk)
      if size > 0 { reportProgress(Double(byteCount) / Double(size)) }
    }
    let after: stat
    do {
      after = try input.status()
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
    // st_nlink == 0: the file was deleted while we read it. Size/mtime/ctime: it was written to.
    if after.st_nlink == 0 { throw .sourceVanished }
    if copied != size || Int64(after.st_size) != size
      || Platform.modificationNanoseconds(after) != Platform.modificationNanoseconds(before)
      || Platform.changeNanoseconds(after) != Platform.changeNanoseconds(before)
    {
      throw .sourceChanged
    }
  }

  /// Stops the delivery: the next write throws ``Importer/Error/cancelled``.
  func cancel() { cancelled.withLock { $0 = true } }

  var isCancelled: Bool { cancelled.current }

  /// Hashes an adopted file, flushes the staged file to stable storage and closes it. It blocks: call it on
  /// the blocking lanes.
  ///
  /// - Returns: what the importer needs to commit it.
  func finish() throws(Importer.Error) -> StagedFile {
    if cancelled.current { throw .cancelled }
    guard let file else { throw .emptyFile }
    if hashesOnFinish { try hashStagedFile() }
    guard byteCount > 0 else { throw .emptyFile }
    CrashPoint.afterStagingWrite.reach()
    let info: stat
    do {
      // Objects are read-only: apps get their path to read, and a stray write must fail loudly. A failed
      // fsync is final (see Syscalls.fsync).
      try file.seal(readOnly: true)
      CrashPoint.afterStagingFsync.reach()
      info = try file.file.status()
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
    self.file = nil
    let facts = tally.finish()
    return StagedFile(
      folder: folder, name: name, digest: facts.digest, size: byteCount, prefix: facts.prefix,
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// Closes and deletes the staged file (after a failure or cancellation).
  func discard() {
    file = nil
    try? folder.unlink(name)
  }

  /// Hashes the whole staged file from its start (an adopted file: linked, copied, or both), counting its
  /// bytes and taking its leading bytes again, through a descriptor of its own: the one kept for the fsync
  /// stays open from the first write, so that a write-back error reaches that fsync.
  private func hashStagedFile() throws(Importer.Error) {
    let input: OpenFile
    do {
      input = try folder.open(name, O_RDONLY)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
    let fresh = ContentTally()
    let size = try reader.read(input, tallying: fresh, failure: Importer.Error.init(libraryFailure:)) {
      _ throws(Importer.Error) in
      if cancelled.current { throw .cancelled }
      if fresh.size > maximumSize { throw .tooLarge(limit: maximumSize) }
    }
    tally = fresh
    byteCount = size
    hashesOnFinish = false
  }
}
