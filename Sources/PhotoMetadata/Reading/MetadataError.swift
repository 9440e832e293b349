/// Why a file could not be read or stripped. Every parser failure is one of these; none is a crash.
public enum MetadataError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file ends before a structure it declares (a download cut short, a partial copy).
  case truncated
  /// A structure is impossible: the reason names it (e.g. "IFD loop", "box 'iloc' overruns its parent").
  case corrupt(String)
  /// The bytes are not a format PhotoMetadata knows.
  case unsupported
  /// A safety cap was reached (bytes read, IFD entries, boxes, nesting depth, declared pixels).
  case limitExceeded(String)
  /// Location cannot be removed from this file without changing more than metadata; the reason says why.
  case cannotStrip(String)
  /// A system call failed with this `errno`.
  case io(Int32)

  public var description: String {
    switch self {
    case .truncated:
      "The file is incomplete: it ends before the data it declares. Copy or download it again."
    case .corrupt(let reason):
      "The file is damaged (\(reason)) and its metadata cannot be read."
    case .unsupported:
      "The file is not a photo or movie format PhotoIntake can read."
    case .limitExceeded(let what):
      "The file exceeds a safety limit (\(what)); it was not read further."
    case .cannotStrip(let reason):
      "Location cannot be removed from this file without re-encoding it (\(reason))."
    case .io(let code):
      "The file could not be read or written: \(errnoDescription(code)) (errno \(code))."
    }
  }
}
