#if canImport(CVips)
  import CVips

  /// A HEIF or AVIF file opened with libheif (ISO/IEC 23008-12). Owns the `heif_context`; the handles and
  /// images made from it keep it alive.
  ///
  /// libheif parses the `meta` box when the file is opened and decodes only what is asked: the primary image
  /// or one thumbnail item. It applies `irot`, `imir` and `clap` while decoding, so pixels come out upright.
  final class HEIFFile {
    fileprivate let context: OpaquePointer

    /// Loads libheif and registers its plugins (HEVC and AV1 decoders), once per process; nil when ready.
    ///
    /// libheif is opened here, at the first HEIF or AVIF, not linked: it brings x265, libde265, dav1d and aom,
    /// which a process that renders no HEIF never loads (see CVips's `imaging_loader.h`).
    private static let startFailure: ImagingError? = {
      if let failure = ImagingError.loading(library: "libheif", package: "libheif1", photointake_heif_load) {
        return failure
      }
      let started = photointake_heif_init()
      guard started.code == heif_error_Ok else {
        return .decodeFailed(reason: "libheif could not be started")
      }
      return nil
    }()

    /// Opens `path`, refusing any image wider or taller than `maximumDimension` (libheif's own guard, behind
    /// the bomb guard).
    ///
    /// - Throws: ``ImagingError/libraryUnavailable(library:package:reason:)`` when libheif cannot be loaded.
    init(path: String, maximumDimension: Int = 65535) throws(ImagingError) {
      if let failure = Self.startFailure { throw failure }
      guard let context = photointake_heif_context_alloc() else {
        throw .decodeFailed(reason: "libheif could not allocate a context")
      }
      self.context = context
      photointake_heif_context_set_maximum_image_size_limit(context, Int32(clamping: maximumDimension))
      try Self.check(photointake_heif_context_read_from_file(context, path))
    }

    deinit { photointake_heif_context_free(context) }

    /// The primary image (`pitm`).
    func primaryImage() throws(ImagingError) -> HEIFImageHandle {
      var handle: OpaquePointer?
      try Self.check(photointake_heif_context_get_primary_image_handle(context, &handle))
      guard let handle else { throw .malformed(reason: "the HEIF file has no primary image") }
      return HEIFImageHandle(handle, file: self)
    }

    /// Maps a libheif error to ours; its message never contains the path.
    static func check(_ error: heif_error) throws(ImagingError) {
      guard error.code != heif_error_Ok else { return }
      let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
      switch error.code {
      case heif_error_Input_does_not_exist: throw .fileNotFound
      case heif_error_Unsupported_filetype: throw .unsupportedContent(type: nil)
      default: throw .decodeFailed(reason: message)
      }
    }
  }

  /// One image item of a ``HEIFFile`` (the primary image or a thumbnail). Owns its `heif_image_handle`.
  final class HEIFImageHandle {
    private let pointer: OpaquePointer
    private let file: HEIFFile

    fileprivate init(_ pointer: OpaquePointer, file: HEIFFile) {
      self.pointer = pointer
      self.file = file
    }

    deinit { photointake_heif_image_handle_release(pointer) }

    var width: Int { Int(photointake_heif_image_handle_get_width(pointer)) }
    var height: Int { Int(photointake_heif_image_handle_get_height(pointer)) }

    /// The first thumbnail item (`thmb` reference), the one ``ImageHeaders`` reports.
    func firstThumbnail() -> HEIFImageHandle? {
      var id: heif_item_id = 0
      guard photointake_heif_image_handle_get_list_of_thumbnail_IDs(pointer, &id, 1) == 1 else { return nil }
      var thumbnail: OpaquePointer?
      guard photointake_heif_image_handle_get_thumbnail(pointer, id, &thumbnail).code == heif_error_Ok,
        let thumbnail
      else {
        return nil
      }
      return HEIFImageHandle(thumbnail, file: file)
    }

    /// The embedded ICC profile (`colr` of type `prof` or `rICC`), if any. An `nclx` colour description has no
    /// profile; such pixels are taken as sRGB (as libvips's heifload does).
    var iccProfile: [UInt8]? {
      let type = photointake_heif_image_handle_get_color_profile_type(pointer)
      guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
      let size = photointake_heif_image_handle_get_raw_color_profile_size(pointer)
      guard size > 0, size < 1 << 24 else { return nil }
      var profile = [UInt8](repeating: 0, count: size)
      let error = profile.withUnsafeMutableBytes {
        photointake_heif_image_handle_get_raw_color_profile(pointer, $0.baseAddress)
      }
      return error.code == heif_error_Ok ? profile : nil
    }

    /// Decodes the item to interleaved 8-bit RGB (RGBA with alpha), transformations applied. HDR (10/12-bit)
    /// content is reduced to 8 bits.
    func decode() throws(ImagingError) -> HEIFImage {
      let hasAlpha = photointake_heif_image_handle_has_alpha_channel(pointer) != 0
      var image: OpaquePointer?
      try HEIFFile.check(
        photointake_heif_decode_8bit(
          pointer, &image, hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB))
      guard let image else { throw .decodeFailed(reason: "libheif returned no image") }
      return HEIFImage(image, bands: hasAlpha ? 4 : 3)
    }
  }

  /// Decoded pixels of a HEIF item. Owns the `heif_image`.
  final class HEIFImage {
    private let pointer: OpaquePointer
    let bands: Int

    fileprivate init(_ pointer: OpaquePointer, bands: Int) {
      self.pointer = pointer
      self.bands = bands
    }

    deinit { photointake_heif_image_release(pointer) }

    /// A libvips image of the pixels, with `iccProfile` attached for the colour conversion.
    ///
    /// When libheif's rows are contiguous the pixels are not copied, unless `copying` is set: keep this object
    /// alive until the libvips image (and anything made from it) has been computed. An image that must outlive
    /// it without a resize in between needs `copying` (`vips_image_copy_memory` of an image already in memory
    /// only adds a reference).
    func vipsImage(iccProfile: [UInt8]?, copying: Bool = false) throws(ImagingError) -> VipsImageRef {
      // libvips and libheif load separately; a caller that reached here through libheif alone still gets a
      // loaded libvips (reading the started state costs nothing after the first time).
      try Vips.start()
      let width = Int(photointake_heif_image_get_width(pointer))
      let height = Int(photointake_heif_image_get_height(pointer))
      var stride: Int32 = 0
      guard width > 0, height > 0, let plane = photointake_heif_image_get_plane_readonly(pointer, &stride)
      else { throw .decodeFailed(reason: "libheif returned no pixels") }
      let row = width * bands
      let made: UnsafeMutablePointer<CVips.VipsImage>?
      if Int(stride) == row && copying {
        made = photointake_vips_image_new_from_memory_copy(
          plane, row * height, Int32(width), Int32(height), Int32(bands))
      } else if Int(stride) == row {
        made = photointake_vips_image_new_from_memory(
          plane, row * height, Int32(width), Int32(height), Int32(bands))
      } else {
        // Rows padded for alignment: copy them together (libvips images have no stride).
        var packed = [UInt8](repeating: 0, count: row * height)
        packed.withUnsafeMutableBytes { target in
          for y in 0..<height {
            (target.baseAddress! + y * row).copyMemory(from: plane + y * Int(stride), byteCount: row)
          }
        }
        made = packed.withUnsafeBytes {
          photointake_vips_image_new_from_memory_copy(
            $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands))
        }
      }
      guard let made else { throw .decodeFailed(reason: Vips.takeError()) }
      let image = VipsImageRef(made)
      if let iccProfile {
        iccProfile.withUnsafeBytes { photointake_vips_image_set_icc_profile(made, $0.baseAddress, $0.count) }
      }
      return image
    }
  }
#endif
