/// Random access to the first bytes of an image's headers: bounded reads, never the whole file.
protocol HeaderBytes {
  /// Total size in bytes.
  var count: Int { get }
  /// Up to `length` bytes at `offset` (fewer at the end of the data, none past it).
  func bytes(at offset: Int, length: Int) throws(ImagingError) -> [UInt8]
}

/// An open image file read with `pread(2)` through ``Syscalls`` (so tests can inject read failures).
final class HeaderFile: HeaderBytes {
  let path: String
  let count: Int
  private let descriptor: Int32

  /// Opens `path` for reading. A symbolic link is followed (a user may name one); anything but a regular file
  /// is refused.
  init(path: String) throws(ImagingError) {
    self.path = path
    do {
      // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat below then refuses it.
      descriptor = try Syscalls.open(path, O_RDONLY | O_NONBLOCK)
    } catch {
      throw ImagingError(error)
    }
    let info: stat
    do {
      info = try Syscalls.fstat(descriptor, path: path)
    } catch {
      Syscalls.close(descriptor)
      throw ImagingError(error)
    }
    guard Platform.fileType(info.st_mode) == .regular else {
      Syscalls.close(descriptor)
      throw .unsupportedContent(type: nil)
    }
    count = Int(info.st_size)
  }

  deinit { Syscalls.close(descriptor) }

  func bytes(at offset: Int, length: Int) throws(ImagingError) -> [UInt8] {
    guard offset >= 0, length > 0, offset < count else { return [] }
    let wanted = min(length, count - offset)
    var result = [UInt8](repeating: 0, count: wanted)
    var done = 0
    while done < wanted {
      // The closure cannot throw a typed error through withUnsafeMutableBytes, so the failure is carried out.
      var failure: SystemError?
      let read = result.withUnsafeMutableBytes { buffer -> Int in
        do throws(SystemError) {
          return try Syscalls.pread(
            descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
            at: Int64(offset + done), path: path)
        } catch {
          failure = error
          return 0
        }
      }
      if let failure { throw ImagingError(failure) }
      if read == 0 { break }
      done += read
    }
    if done < wanted { result.removeLast(wanted - done) }
    return result
  }
}

/// Bytes already in memory (an EXIF segment holding a thumbnail), read the same way as a file.
struct MemoryBytes: HeaderBytes {
  let storage: ArraySlice<UInt8>
  var count: Int { storage.count }

  func bytes(at offset: Int, length: Int) -> [UInt8] {
    guard offset >= 0, length > 0, offset < storage.count else { return [] }
    let start = storage.startIndex + offset
    return Array(storage[start..<min(storage.endIndex, start + length)])
  }
}

/// Integer reads from a byte array with bounds checks: a read past the end gives nil, never a trap.
struct ByteView {
  let bytes: [UInt8]
  /// Little-endian (TIFF "II", RIFF) or big-endian (TIFF "MM", JPEG, PNG, ISOBMFF).
  var littleEndian = false

  init(_ bytes: [UInt8], littleEndian: Bool = false) {
    self.bytes = bytes
    self.littleEndian = littleEndian
  }

  var count: Int { bytes.count }

  func u8(_ at: Int) -> Int? {
    at >= 0 && at < bytes.count ? Int(bytes[at]) : nil
  }

  func u16(_ at: Int) -> Int? {
    guard at >= 0, at + 2 <= bytes.count else { return nil }
    let a = Int(bytes[at]), b = Int(bytes[at + 1])
    return littleEndian ? a | b << 8 : a << 8 | b
  }

  func u24(_ at: Int) -> Int? {
    guard at >= 0, at + 3 <= bytes.count else { return nil }
    let a = Int(bytes[at]), b = Int(bytes[at + 1]), c = Int(bytes[at + 2])
    return littleEndian ? a | b << 8 | c << 16 : a << 16 | b << 8 | c
  }

  func u32(_ at: Int) -> Int? {
    guard let high = u16(littleEndian ? at + 2 : at), let low = u16(littleEndian ? at : at + 2) else {
      return nil
    }
    return high << 16 | low
  }

  func u64(_ at: Int) -> Int? {
    guard let high = u32(littleEndian ? at + 4 : at), let low = u32(littleEndian ? at : at + 4),
      high < 1 << 31
    else { return nil }
    return high << 32 | low
  }

  /// Four ASCII characters (a chunk or box type).
  func fourCC(_ at: Int) -> String? {
    guard at >= 0, at + 4 <= bytes.count else { return nil }
    return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
  }

  func slice(_ at: Int, _ length: Int) -> [UInt8] {
    guard at >= 0, length > 0, at < bytes.count else { return [] }
    return Array(bytes[at..<min(bytes.count, at + length)])
  }
}
