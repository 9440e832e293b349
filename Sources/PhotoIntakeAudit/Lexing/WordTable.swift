/// A perfect-enough hash table from a word's UTF-8 bytes to its ``Word``, built once.
///
/// The lexer hashes every identifier as it scans it (FNV-1a, so no second pass over the bytes) and asks
/// this table; a hit is confirmed by comparing bytes. Open addressing in flat arrays keeps the lookup free
/// of allocation, which matters at a few hundred thousand identifiers per second.
struct WordTable: Sendable {
  static let shared = WordTable()

  /// Spellings that are not the case name: operators, and names Swift reserves as members.
  static let spellingOverrides: [Word: String] = [
    .opAssign: "=", .opEqual: "==", .opNotEqual: "!=", .opBang: "!", .opQuestion: "?", .opArrow: "->",
    .opAmpersand: "&", .initKeyword: "init", .selfKeyword: "self", .selfType: "Self",
    .someKeyword: "some", .anyKeyword: "any",
  ]

  private let mask: Int
  private var slots: [UInt16]
  private var hashes: [UInt64]
  private var spellings: [[UInt8]]

  private init() {
    let words = Word.allCases.filter { $0 != .none }
    var capacity = 1
    while capacity < words.count * 4 { capacity <<= 1 }
    mask = capacity - 1
    slots = Array(repeating: 0, count: capacity)
    hashes = Array(repeating: 0, count: capacity)
    spellings = Array(repeating: [], count: Int(Word.allCases.count))
    for word in words {
      let bytes = Array(Self.spelling(of: word).utf8)
      spellings[Int(word.rawValue)] = bytes
      let hash = Self.hash(bytes[...])
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = word.rawValue
      hashes[slot] = hash
    }
  }

  static func spelling(of word: Word) -> String {
    spellingOverrides[word] ?? String(describing: word)
  }

  /// FNV-1a, 64 bit: the lexer computes the same value incrementally with ``step(_:_:)``.
  static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
  @inline(__always) static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
    (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
  }

  static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash = seed
    for byte in bytes { hash = step(hash, byte) }
    return hash
  }

  /// The word spelled by `bytes[start..<end]`, given its precomputed hash.
  func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hash: UInt64) -> Word {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let raw = slots[slot]
      if raw == 0 { return .none }
      if hashes[slot] == hash {
        let spelling = spellings[Int(raw)]
        if spelling.count == end - start {
          var equal = true
          var index = 0
          while index < spelling.count {
            if spelling[index] != bytes[start + index] {
              equal = false
              break
            }
            index += 1
          }
          if equal { return Word(rawValue: raw) ?? .none }
        }
      }
      slot = (slot + 1) & mask
    }
  }
}
