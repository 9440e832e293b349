#if canImport(CVips)
  import CVips
  import PhotoMetadata

  /// JPEG renditions through libjpeg-turbo's TurboJPEG API (CVips's `turbo_thumbnail.h`): one DCT-scaled decode,
  /// an area-averaging reduction to each size, the orientation applied, one encode per size.
  ///
  /// At 1/8 scale (a photo at least eight times the largest size asked: 2,560 px long for the default 320 px), a
  /// baseline JPEG is decoded from its DC coefficients alone (`dc_scaled.h`): on the benchmark corpus's 12 MP JPEGs about 15 ms, against
  /// 22 ms for TurboJPEG's own 1/8-scale decode (tjbench), with the same luma value for value. A file that decoder
  /// does not serve (progressive, arithmetic coding, RGB) or finds damaged is decoded by TurboJPEG.
  ///
  /// It serves baseline and progressive JPEGs in sRGB or without a profile; anything else (an ICC profile to
  /// convert, CMYK, a file TurboJPEG refuses) returns nil and libvips makes the rendition.
  enum TurboThumbnails {
    /// Files larger than this are left to libvips, which streams them.
    static let maximumFileSize = 128 << 20

    /// The renditions of the JPEG at `path` at `sizes`, or nil when this path does not apply or fails.
    static func make(
      path: String, metadata: MediaMetadata, sizes: [Int], orientation: Orientation?,
      request: ThumbnailRequest
    ) -> [Thumbnail]? {
      guard metadata.type == .jpeg, !metadata.hasICCProfile, photointake_turbo_available() != 0,
        let file = try? HeaderFile(path: path), file.count > 0, file.count <= maximumFileSize
      else { return nil }
      DecodeProbe.willDecode(.primaryImage)
      // The file is read into a buffer kept for the next photo, as are the decode and TurboJPEG's
      // handles, from a small pool (turbo_thumbnail.h): nothing to hand back to the system after each photo.
      var outputs = [photointake_turbo_output](repeating: photointake_turbo_output(), count: sizes.count)
      var error = [CChar](repeating: 0, count: 256)
      // The descriptor is valid while `file` lives: keep it alive until the call returns.
      let status = withExtendedLifetime(file) {
        sizes.map { Int32($0) }.withUnsafeBufferPointer { sizes in
          photointake_turbo_thumbnails_of_file(
            file.descriptor, UInt(file.count), sizes.baseAddress, Int32(sizes.count),
            Int32(orientation?.rawValue ?? 1), Int32(max(1, min(100, request.quality))),
            Int64(request.maximumPixelCount), &outputs, &error, error.count)
        }
      }
      guard status == 0 else { return nil }
      return outputs.map { output in
        defer { photointake_turbo_free(output.data) }
        return Thumbnail(
          jpegData: Array(UnsafeBufferPointer(start: output.data, count: Int(output.length))),
          width: Int(output.width), height: Int(output.height), source: .primaryImage)
      }
    }

    /// JPEGs of a picture already decoded to RGB (a movie's poster frame), reduced to each size and turned by
    /// `orientation`; nil when libturbojpeg is missing (libvips then encodes).
    ///
    /// - Throws: ``ImagingError/encodeFailed(reason:)`` when TurboJPEG is there but fails.
    static func encode(
      rgb: UnsafeBufferPointer<UInt8>, width: Int, height: Int, sizes: [Int], orientation: Orientation,
      quality: Int, source: Thumbnail.Source
    ) throws(ImagingError) -> [Thumbnail]? {
      guard photointake_turbo_available() != 0 else { return nil }
      var outputs = [photointake_turbo_output](repeating: photointake_turbo_output(), count: sizes.count)
      var error = [CChar](repeating: 0, count: 256)
      let status = sizes.map { Int32($0) }.withUnsafeBufferPointer { sizes in
        photointake_turbo_encode_rgb(
          rgb.baseAddress, Int32(width), Int32(height), sizes.baseAddress, Int32(sizes.count),
          Int32(orientation.rawValue), Int32(max(1, min(100, quality))), &outputs, &error, error.count)
      }
      guard status == 0 else {
        throw .encodeFailed(
          reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
      }
      return outputs.map { output in
        defer { photointake_turbo_free(output.data) }
        return Thumbnail(
          jpegData: Array(UnsafeBufferPointer(start: output.data, count: Int(output.length))),
          width: Int(output.width), height: Int(output.height), source: source)
      }
    }
  }
#endif
