/// The bytes being parsed: a file read with `pread`, or an array in memory (tests, fuzzers, embedded blobs).
///
/// Every read is bounds-checked and counted against a budget, so that no input, however crafted, makes a
/// parser read more than ``MetadataReader/Limits/maxBytesRead`` bytes. A class so the budget is shared by
/// every parser holding it; it is used by one thread at a time and never escapes a read or strip call.
final class Input {
  private enum Storage {
    case memory([UInt8])
    case file(Int32)
  }

  private let storage: Storage
  /// Total size in bytes.
  let size: Int
  private var budget: Int
  private(set) var bytesRead = 0

  init(bytes: [UInt8], budget: Int = .max) {
    storage = .memory(bytes)
    size = bytes.count
    self.budget = budget
  }

  /// Opens a file; the descriptor is closed in `deinit`.
  init(path: String, budget: Int) throws(MetadataError) {
    let fd = try Platform.openForReading(path)
    do {
      size = try Platform.size(of: fd)
    } catch {
      Platform.close(fd)
      throw error
    }
    storage = .file(fd)
    self.budget = budget
  }

  deinit {
    if case .file(let fd) = storage { Platform.close(fd) }
  }

  /// Raises the read budget, for walks that must visit the whole file (the stripper's GIF walk).
  func extendBudget(by extra: Int) {
    let (sum, overflow) = budget.addingReportingOverflow(extra)
    budget = overflow ? .max : sum
  }

  /// Exactly `count` bytes at `offset`.
  ///
  /// - Throws: ``MetadataError/truncated`` when the range runs past the end, ``MetadataError/limitExceeded(_:)``
  ///   when the read budget is spent.
  func read(at offset: Int, count: Int) throws(MetadataError) -> [UInt8] {
    guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { throw .truncated }
    return try readUnchecked(at: offset, count: count)
  }

  /// Up to `count` bytes at `offset`, fewer at the end of the input.
  func readAvailable(at offset: Int, count: Int) throws(MetadataError) -> [UInt8] {
    guard offset >= 0, offset <= size, count >= 0 else { throw .truncated }
    return try readUnchecked(at: offset, count: min(count, size - offset))
  }

  private func readUnchecked(at offset: Int, count: Int) throws(MetadataError) -> [UInt8] {
    let (total, overflow) = bytesRead.addingReportingOverflow(count)
    guard !overflow, total <= budget else { throw .limitExceeded("bytes read") }
    bytesRead = total
    switch storage {
    case .memory(let bytes):
      return Array(bytes[offset..<(offset + count)])
    case .file(let fd):
      var result = [UInt8](repeating: 0, count: count)
      let got = try result.withUnsafeMutableBytes { buffer in
        capturing { () throws(MetadataError) in try Platform.read(fd, into: buffer, at: offset) }
      }.unwrapped()
      // The file shrank while we read it.
      guard got == count else { throw .truncated }
      return result
    }
  }

  /// Copies `range` to `sink` in chunks of at most 1 MiB, outside the read budget (used when writing a
  /// stripped copy, which must pass every byte through).
  func copy(_ range: Range<Int>, to sink: (UnsafeRawBufferPointer) throws(MetadataError) -> Void)
    throws(MetadataError)
  {
    guard range.lowerBound >= 0, range.upperBound <= size else { throw .truncated }
    switch storage {
    case .memory(let bytes):
      try bytes[range].withUnsafeBytes { buffer in
        capturing { () throws(MetadataError) in try sink(buffer) }
      }.unwrapped()
    case .file(let fd):
      let chunk = 1 << 20
      var buffer = [UInt8](repeating: 0, count: min(chunk, max(range.count, 1)))
      var at = range.lowerBound
      while at < range.upperBound {
        let count = min(chunk, range.upperBound - at)
        var reading: Result<Int, MetadataError> = .success(0)
        buffer.withUnsafeMutableBytes { raw in
          reading = capturing { () throws(MetadataError) in
            try Platform.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]), at: at)
          }
        }
        guard try reading.unwrapped() == count else { throw .truncated }
        var writing: Result<Void, MetadataError> = .success(())
        buffer.withUnsafeBytes { raw in
          writing = capturing { () throws(MetadataError) in
            try sink(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
          }
        }
        try writing.unwrapped()
        at += count
      }
    }
  }
}

/// Runs `body` and keeps its typed error, for closures passed to `withUnsafeBytes` and friends, which only
/// rethrow untyped errors (and `Result(catching:)` is untyped in older SDKs' standard library).
func capturing<T>(_ body: () throws(MetadataError) -> T) -> Result<T, MetadataError> {
  do {
    return .success(try body())
  } catch {
    return .failure(error)
  }
}

extension Result where Failure == MetadataError {
  /// `get()` with a typed error (older SDKs' `get()` throws untyped).
  func unwrapped() throws(MetadataError) -> Success {
    switch self {
    case .success(let value): return value
    case .failure(let error): throw error
    }
  }
}
