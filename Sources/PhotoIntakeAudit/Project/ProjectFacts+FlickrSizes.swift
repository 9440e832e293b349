/// Flickr's size suffixes: the service sizes the photos a Flickr client downloads, and the size key it asks
/// for (`extras=url_z`, `json["url_z"]`) says how large they are (`url_z` is 640 pixels on the long side,
/// `url_h` 1,600). A project that asks only for the small ones never downloads an original.
extension ProjectFacts {
  /// Size keys of 640 pixels or less on the long side: square 75 and 150, thumbnail 100, small 240 and
  /// 320, medium 500, 640 and 800-wide renditions are `sq`, `q`, `t`, `s`, `n`, `m`, `z`, `w` (400).
  static let smallFlickrSizes: Set<String> = ["sq", "q", "t", "s", "n", "m", "z", "w"]
  /// Larger renditions and the original: `c` (800), `l`/`b` (1,024), `h` (1,600), `k` (2,048), `3k`…`6k`,
  /// `o`.
  static let largeFlickrSizes: Set<String> = ["c", "l", "b", "h", "k", "3k", "4k", "5k", "6k", "o"]

  /// Records the Flickr size keys (`url_z`) the file's string literals name, small and large, in one pass
  /// over its string tokens (see ``flickrRenditionsOnly``). A file whose bytes never spell `url_` (nearly
  /// every file) is passed over with one byte search, without reading its literals as text.
  mutating func addFlickrSizes(_ file: SourceFile) {
    guard ASCII.contains(file.source.bytes, "url_") else { return }
    for token in 0..<file.count where file.kind(token) == .string {
      let bytes = Array(file.text(token).utf8)
      var index = 0
      while index + 4 < bytes.count {
        // `url_` followed by a size key and a non-letter: `"url_z"`, `"date_taken,url_h"`.
        guard bytes[index] == UInt8(ascii: "u"), bytes[index + 1] == UInt8(ascii: "r"),
          bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "_")
        else {
          index += 1
          continue
        }
        var end = index + 4
        while end < bytes.count, end - index < 7,
          (bytes[end] >= UInt8(ascii: "a") && bytes[end] <= UInt8(ascii: "z"))
            || (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9"))
        {
          end += 1
        }
        let size = String(decoding: bytes[(index + 4)..<end], as: UTF8.self)
        if Self.smallFlickrSizes.contains(size) {
          flickrSmallSizes = true
        } else if Self.largeFlickrSizes.contains(size) {
          flickrLargeSizes = true
        }
        index = end
      }
    }
  }

  /// Whether every photo the project shows is a small Flickr rendition: it names a size key of 640 pixels
  /// or less and no larger one, and has no photos of its own (no picker, camera or photo library).
  var flickrRenditionsOnly: Bool {
    flickrSmallSizes && !flickrLargeSizes && !hasOwnPhotos
  }
}
