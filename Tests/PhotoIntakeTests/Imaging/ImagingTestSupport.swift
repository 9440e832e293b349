import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntake

/// The files made by `Scripts/make-imaging-fixtures.sh`.
enum ImagingFixture {
  static let folder = Repository.path("Tests/PhotoIntakeTests/Fixtures/Imaging")

  static func path(_ name: String) -> String { folder + "/" + name }
}

/// Decoded 8-bit pixels of a picture.
struct Picture {
  var width: Int
  var height: Int
  var bands: Int
  var pixels: [UInt8]

  #if canImport(CVips)
    init(encoded: [UInt8]) throws {
      (width, height, bands, pixels) = try VipsImageRef.decodePixels(encoded)
    }

    init(file: String) throws {
      try self.init(encoded: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }
  #endif

  /// The colour at a fraction of the width and height (0…1), as RGB (grey repeated).
  func colour(x: Double, y: Double) -> RGB {
    let column = min(width - 1, Int(x * Double(width)))
    let row = min(height - 1, Int(y * Double(height)))
    let at = (row * width + column) * bands
    return bands >= 3
      ? RGB(Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
      : RGB(Int(pixels[at]), Int(pixels[at]), Int(pixels[at]))
  }
}

struct RGB: Equatable, CustomStringConvertible {
  var r: Int
  var g: Int
  var b: Int

  init(_ r: Int, _ g: Int, _ b: Int) {
    self.r = r
    self.g = g
    self.b = b
  }

  static let white = RGB(255, 255, 255)
  static let magenta = RGB(255, 0, 255)
  static let cyan = RGB(0, 255, 255)
  static let red = RGB(255, 0, 0)

  /// Whether two colours are alike after JPEG's losses (each channel within `tolerance`).
  func isClose(to other: RGB, tolerance: Int = 48) -> Bool {
    abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
  }

  var description: String { "rgb(\(r),\(g),\(b))" }
}

#if canImport(CVips)
  /// The upright scene every fixture shows: red, green / blue, yellow.
  let referenceScene: Picture = try! Picture(file: ImagingFixture.path("reference.png"))

  /// Samples a 4×4 grid (the centres of each quadrant's four sub-squares) of `picture`, inside `inset` (the
  /// fraction of each side taken by a border), and compares each sample with the reference at the same place.
  ///
  /// - Returns: the mismatches, empty when the picture shows the scene upright.
  func sceneMismatches(_ picture: Picture, inset: (x: Double, y: Double) = (0, 0)) -> [String] {
    var mismatches: [String] = []
    for row in 0..<4 {
      for column in 0..<4 {
        let fx = (Double(column) + 0.5) / 4, fy = (Double(row) + 0.5) / 4
        let expected = referenceScene.colour(x: fx, y: fy)
        let found = picture.colour(x: inset.x + fx * (1 - 2 * inset.x), y: inset.y + fy * (1 - 2 * inset.y))
        if !found.isClose(to: expected) {
          mismatches.append("at (\(fx), \(fy)) expected \(expected), found \(found)")
        }
      }
    }
    return mismatches
  }

  /// Whether a JPEG carries any APP1 (EXIF/XMP) segment: renditions must not.
  func hasAPP1(_ jpeg: [UInt8]) -> Bool {
    var offset = 2
    while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
      let marker = jpeg[offset + 1]
      if marker == 0xE1 { return true }
      if marker == 0xDA { return false }
      offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
    }
    return false
  }
#endif

/// Records what a backend decoded while `body` ran (see ``DecodeProbe``).
func recordingDecodes<T>(_ body: () throws -> T) rethrows -> (T, [Thumbnail.Source]) {
  let log = Protected<[Thumbnail.Source]>([])
  let result = try DecodeProbe.observer.withValue(.init { source in log.withLock { $0.append(source) } }) {
    try body()
  }
  return (result, log.current)
}

/// The outcome of an async call that throws ``ImagingError``, as a value.
func outcome<T>(_ body: () async throws(ImagingError) -> T) async -> Result<T, ImagingError> {
  do throws(ImagingError) {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}

/// The movies made by `Scripts/make-movie-fixtures.sh`.
enum MovieFixture {
  static let folder = Repository.path("Tests/PhotoIntakeTests/Fixtures/Movies")

  static func path(_ name: String) -> String { folder + "/" + name }
}
