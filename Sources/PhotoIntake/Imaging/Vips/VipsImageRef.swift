#if canImport(CVips)
  import CVips

  /// Owns one reference to a `VipsImage` (a GObject) and drops it in `deinit`.
  ///
  /// libvips images are lazy pipelines: holding one keeps its inputs alive; pixels are computed when an
  /// output (memory, a JPEG buffer) asks for them.
  final class VipsImageRef {
    let pointer: UnsafeMutablePointer<CVips.VipsImage>

    init(_ pointer: UnsafeMutablePointer<CVips.VipsImage>) { self.pointer = pointer }

    deinit { photointake_vips_image_unref(pointer) }

    var width: Int { Int(photointake_vips_image_get_width(pointer)) }
    var height: Int { Int(photointake_vips_image_get_height(pointer)) }
    var bands: Int { Int(photointake_vips_image_get_bands(pointer)) }
    var hasAlpha: Bool { photointake_vips_image_hasalpha(pointer) != 0 }
    var isSRGB: Bool { photointake_vips_image_get_interpretation(pointer) == VIPS_INTERPRETATION_sRGB }
    var isUChar: Bool { photointake_vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR }
    var hasICCProfile: Bool { photointake_vips_image_has_icc_profile(pointer) != 0 }

    /// Runs one libvips operation that makes a new image from this one.
    ///
    /// - Throws: `failure(libvips's words)` when the operation fails.
    func apply(
      _ failure: (String) -> ImagingError,
      _ operation: (
        UnsafeMutablePointer<CVips.VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>
      )
        -> Int32
    ) throws(ImagingError) -> VipsImageRef {
      var out: UnsafeMutablePointer<CVips.VipsImage>?
      guard operation(pointer, &out) == 0, let out else { throw failure(Vips.takeError()) }
      return VipsImageRef(out)
    }

    /// Computes every pixel into memory, so that later steps (rotation, several sizes) need no second decode.
    func materialized(hiding path: String?) throws(ImagingError) -> VipsImageRef {
      guard let copy = photointake_vips_image_copy_memory(pointer) else {
        throw .decodeFailed(reason: Vips.takeError(hiding: path))
      }
      return VipsImageRef(copy)
    }

    /// The pixels, row by row, `bands` bytes each (8-bit images only).
    func pixelBytes() throws(ImagingError) -> [UInt8] {
      var size = 0
      guard let memory = photointake_vips_image_write_to_memory(pointer, &size) else {
        throw .decodeFailed(reason: Vips.takeError())
      }
      defer { photointake_g_free(memory) }
      return Array(UnsafeRawBufferPointer(start: memory, count: size))
    }
  }
#endif

#if canImport(CVips)
  extension VipsImageRef {
    /// Decodes an encoded image in memory (JPEG, PNG…) to 8-bit pixels, for tests that compare renditions
    /// with references by their pixels.
    static func decodePixels(_ encoded: [UInt8]) throws(ImagingError)
      -> (width: Int, height: Int, bands: Int, pixels: [UInt8])
    {
      try Vips.start()
      var bytes = encoded
      let result = bytes.withUnsafeMutableBytes {
        buffer -> Result<(width: Int, height: Int, bands: Int, pixels: [UInt8]), ImagingError> in
        var output: UnsafeMutablePointer<CVips.VipsImage>?
        guard photointake_vips_load_buffer(buffer.baseAddress, buffer.count, &output) == 0, let output else {
          return .failure(.decodeFailed(reason: Vips.takeError()))
        }
        let image = VipsImageRef(output)
        return Result.typed { () throws(ImagingError) in
          let eight =
            image.isUChar ? image : try image.apply(ImagingError.decodeFailed, photointake_vips_cast_uchar)
          return (eight.width, eight.height, eight.bands, try eight.pixelBytes())
        }
      }
      return try result.typedGet()
    }
  }
#endif
