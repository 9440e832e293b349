#if canImport(CVips)
  import CVips
  import Foundation
  import Testing

  /// The 1/8-scale decode from DC coefficients (`dc_scaled.h`), against libjpeg-turbo's own 1/8-scale decode of
  /// the same files: baseline JPEGs of every sampling this decoder serves, with and without restart markers
  /// (made with libjpeg-turbo's cjpeg from one photo cut to 203 × 149, so that MCUs are partial at both edges).
  struct DCScaledTests {
    static let folder = ImagingFixture.path("DCScaled")
    static let served = [
      "444.jpg", "422.jpg", "440.jpg", "420.jpg", "gray.jpg", "420-restart-rows.jpg",
      "444-restart-3-blocks.jpg",
      "gray-restart-2-blocks.jpg", "420-optimized.jpg",
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
      Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }

    /// A decode by `decoder` (`photointake_dc_scaled` or `photointake_turbo_scaled`): the pixels and size, or
    /// nil when it refused the file.
    static func decode(
      _ jpeg: [UInt8], gray: Bool, capacity: Int = 1 << 20,
      by decoder: (
        UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, Int32, UnsafeMutablePointer<Int32>?,
        UnsafeMutablePointer<Int32>?
      ) -> Int32 = photointake_dc_scaled
    ) -> (pixels: [UInt8], width: Int, height: Int)? {
      var output = [UInt8](repeating: 0, count: capacity)
      var width: Int32 = 0
      var height: Int32 = 0
      let status = jpeg.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
          decoder(
            input.baseAddress, input.count, output.baseAddress, output.count, gray ? 1 : 0, &width, &height)
        }
      }
      guard status == 0 else { return nil }
      let count = Int(width) * Int(height) * (gray ? 1 : 3)
      return (Array(output.prefix(count)), Int(width), Int(height))
    }

    @Test(arguments: served)
    func lumaIsLibjpegsValueForValueAndColourIsClose(name: String) throws {
      let jpeg = try Self.bytes(name)
      let ours = try #require(Self.decode(jpeg, gray: true), "\(name) refused")
      let theirs = try #require(Self.decode(jpeg, gray: true, by: photointake_turbo_scaled))
      #expect(ours.width == 26 && ours.height == 19)
      #expect(ours.width == theirs.width && ours.height == theirs.height)
      #expect(ours.pixels == theirs.pixels, "\(name): luma differs from libjpeg-turbo's 1/8-scale decode")
      // Colour: chroma from each chroma block's DC, where libjpeg-turbo runs a 2x2 inverse DCT for subsampled
      // chroma; identical for unsubsampled chroma, within a few levels on average otherwise.
      let rgb = try #require(Self.decode(jpeg, gray: false))
      let reference = try #require(Self.decode(jpeg, gray: false, by: photointake_turbo_scaled))
      let total = zip(rgb.pixels, reference.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
      let mean = Double(total) / Double(rgb.pixels.count)
      #expect(mean <= 3, "\(name): mean colour difference \(mean)")
      #expect(rgb.pixels.count == 26 * 19 * 3)
    }

    @Test(arguments: ["progressive.jpg", "arithmetic.jpg", "rgb.jpg"])
    func otherCodingsAreLeftToTurboJPEG(name: String) throws {
      let jpeg = try Self.bytes(name)
      #expect(Self.decode(jpeg, gray: false) == nil, "\(name) should be refused")
      #expect(Self.decode(jpeg, gray: false, by: photointake_turbo_scaled) != nil)
    }

    @Test func anOutputTooSmallIsRefused() throws {
      let jpeg = try Self.bytes("420.jpg")
      #expect(Self.decode(jpeg, gray: false, capacity: 26 * 19 * 3 - 1) == nil)
      #expect(Self.decode(jpeg, gray: false, capacity: 26 * 19 * 3) != nil)
    }

    /// Truncated anywhere before the end of its entropy-coded data, a file is refused (zeros are never taken
    /// for data); bits flipped in the data give a refusal or a picture of the right size, never a crash.
    @Test(arguments: ["420-restart-rows.jpg", "444-restart-3-blocks.jpg", "420.jpg", "gray.jpg"])
    func damagedDataIsRefusedOrDecodedSafely(name: String) throws {
      let jpeg = try Self.bytes(name)
      let scanEnd = jpeg.count - 2  // EOI
      let lengths = Array(stride(from: 0, to: scanEnd, by: max(1, scanEnd / 97))) + [scanEnd - 1]
      let accepted = lengths.filter { Self.decode(Array(jpeg.prefix($0)), gray: false) != nil }
      #expect(accepted.isEmpty, "\(name) truncated to \(accepted) bytes was decoded")
      // The entropy-coded data starts after the SOS segment.
      let sos = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
      let scanStart = sos + 2 + Int(jpeg[sos + 2]) << 8 + Int(jpeg[sos + 3])
      var generator = SplitMix(seed: 7)
      var decoded = 0
      for _ in 0..<300 {
        var damaged = jpeg
        let position = scanStart + Int(generator.next() % UInt64(scanEnd - scanStart))
        damaged[position] ^= UInt8(1 << (generator.next() % 8))
        if let picture = Self.decode(damaged, gray: false) {
          decoded += 1
          #expect(picture.width == 26 && picture.height == 19)
        }
      }
      #expect(decoded < 300, "no flipped bit was noticed")
    }

    struct SplitMix {
      var state: UInt64
      init(seed: UInt64) { state = seed }
      mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
      }
    }
  }
#endif
