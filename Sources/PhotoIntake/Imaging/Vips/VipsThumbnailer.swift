#if canImport(CVips)
  import CVips
  import PhotoMetadata

  /// Thumbnails with libvips and libheif (Linux): JPEG reduced while decoding (DCT scaling), WebP scaled on
  /// load, HEIF/AVIF through libheif, embedded previews when they are large enough, orientation applied, output
  /// 8-bit sRGB JPEG without metadata. Movies (MOV, MP4, M4V) get a poster frame through the FFmpeg libraries,
  /// with the track's display matrix applied (see `posters(ofMovieAt:type:sizes:request:)`).
  ///
  /// Each call reads the headers first (`ImageHeaders`), refuses bombs before any decoder sees the file, then
  /// decodes one source per group of sizes and reduces it for the smaller sizes. libvips is loaded and started
  /// at the first call (`Vips.start()`), libheif at the first HEIF or AVIF; libvips runs without its loadable
  /// modules, with untrusted loaders blocked and no operation cache; freed decoder memory is given back to the
  /// system after each call.
  ///
  /// - Throws: ``ImagingError/libraryUnavailable(library:package:reason:)`` from every call when libvips (or,
  ///   for HEIF and AVIF, libheif; for movies, FFmpeg) cannot be loaded.
  public struct VipsThumbnailer: ThumbnailGenerating {
    /// A thumbnailer that opens libvips and libheif at its first thumbnail.
    public init() {}

    /// Formats libvips decodes faithfully here. Raw formats are left out: libvips would read a TIFF-based raw
    /// file's first IFD (a tiny preview or undebayered sensor data), not the photo. A raw's rendition is made
    /// from the preview the camera embedded (``ThumbnailPlan``), decoded on its own.
    static let decodableTypes: Set<MediaType> = [.jpeg, .png, .gif, .webp, .heic, .heif, .avif, .tiff]

    public func thumbnail(ofFileAt path: String, request: ThumbnailRequest) throws(ImagingError) -> Thumbnail
    {
      try thumbnails(ofFileAt: path, sizes: [request.maxPixelSize], request: request)[0]
    }

    public func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest)
      throws(ImagingError)
      -> [Thumbnail]
    {
      // libvips and TurboJPEG take 32-bit sizes and libvips refuses more than its largest coordinate (a size
      // over 32 bits trapped converting it); a thumbnail is never enlarged, so a larger size is the same.
      let sizes = sizes.map { min($0, Vips.maximumCoordinate) }
      let metadata: MediaMetadata
      let shape: DecodeShape
      do {
        (metadata, shape) = try ImageHeaders.survey(fileAt: path)
      } catch .unsupportedContent(let type?) where type.isMovie {
        return try posters(ofMovieAt: path, type: type, sizes: sizes, request: request)
      }
      if metadata.type == .heics {
        // libheif 1.15 reads no `pict` track; FFmpeg's HEVC decoder does. The declared size is checked first.
        if let width = metadata.width, let height = metadata.height {
          try ThumbnailPlan.checkPixelCount(width: width, height: height, limit: request.maximumPixelCount)
        }
        return try posters(ofMovieAt: path, type: .heics, sizes: sizes, request: request, firstFrame: true)
      }
      guard Self.decodableTypes.contains(metadata.type) || metadata.type.isRaw else {
        throw .unsupportedContent(type: metadata.type)
      }
      var plans: [ThumbnailPlan] = []
      for size in sizes {
        var single = request
        single.maxPixelSize = size
        plans.append(try ThumbnailPlan.make(metadata, shape: shape, request: single))
      }
      // A JPEG with nothing to convert goes through TurboJPEG directly, all sizes from one decode.
      if plans.allSatisfy({ $0.source == .primaryImage }),
        let made = TurboThumbnails.make(
          path: path, metadata: metadata, sizes: sizes, orientation: plans[0].orientation, request: request)
      {
        return made
      }
      try Vips.start()
      defer { photointake_release_free_memory() }
      // Decode each source once, at the largest size asked of it; reduce that for the smaller sizes.
      var results = [Thumbnail?](repeating: nil, count: sizes.count)
      var groups: [ThumbnailPlan.Source: [Int]] = [:]
      for index in sizes.indices { groups[plans[index].source, default: []].append(index) }
      for indices in groups.values {
        let ordered = indices.sorted { sizes[$0] > sizes[$1] }
        let first = ordered[0]
        let (decoded, source, partial) = try decode(
          path, plan: plans[first], size: sizes[first], request: request)
        for index in ordered {
          let image =
            index == first
            ? decoded
            : try decoded.apply(ImagingError.decodeFailed) { input, output in
              photointake_vips_thumbnail_image(input, output, Int32(sizes[index]), Int32(sizes[index]))
            }
          results[index] = try finish(
            image, orientation: plans[index].orientation, quality: request.quality, source: source)
          results[index]?.isPartial = partial
        }
      }
      return results.map { $0! }
    }

    /// Decodes the plan's source reduced to fit `size`, into memory. A damaged embedded preview is no reason to
    /// fail: the primary image is decoded instead, except a raw's, which has no primary image to decode here.
    private func decode(_ path: String, plan: ThumbnailPlan, size: Int, request: ThumbnailRequest)
      throws(ImagingError) -> (VipsImageRef, Thumbnail.Source, partial: Bool)
    {
      if case .preview(let preview) = plan.source {
        if plan.metadata.type.isRaw {
          return (
            try decodePreview(path, preview: preview, size: size), .embeddedPreview(preview.kind), false
          )
        }
        if let image = try? decodePreview(path, preview: preview, size: size) {
          return (image, .embeddedPreview(preview.kind), false)
        }
      }
      let (image, partial) = try decodePrimary(path, plan: plan, size: size, request: request)
      return (image, .primaryImage, partial)
    }

    /// Decodes the primary image reduced to fit `size`; true when its data was cut short or damaged and the
    /// picture is partial.
    private func decodePrimary(_ path: String, plan: ThumbnailPlan, size: Int, request: ThumbnailRequest)
      throws(ImagingError) -> (VipsImageRef, partial: Bool)
    {
      let metadata = plan.metadata
      DecodeProbe.willDecode(.primaryImage)
      if [.heic, .heif, .avif].contains(metadata.type) {
        return (try decodeHEIF(path, thumbnail: false, size: size, limit: request.maximumPixelCount), false)
      }
      do {
        return (try decodePrimary(path, plan: plan, size: size, request: request, strict: true), false)
      } catch .decodeFailed(let reason) {
        // Truncated or damaged data: decoded again as libvips does by default (and vipsthumbnail shows it),
        // the part it cannot read filled in, and the result marked partial. The pixel checks run again.
        guard let partial = try? decodePrimary(path, plan: plan, size: size, request: request, strict: false)
        else { throw .decodeFailed(reason: reason) }
        return (partial, true)
      }
    }

    /// One decode of a non-HEIF primary image; `strict` fails on truncated data.
    private func decodePrimary(
      _ path: String, plan: ThumbnailPlan, size: Int, request: ThumbnailRequest, strict: Bool
    ) throws(ImagingError) -> VipsImageRef {
      let metadata = plan.metadata
      if metadata.type != .jpeg {
        // libvips reads only the header now, and the bomb guard checks the size the decoder itself will
        // allocate: for a format without a header reader here, and for any file whose headers tell libvips
        // something else than they told ours (libnsgif grows a GIF's screen to its largest frame while
        // scanning). A refusal here is a typed error; the same lie found by an allocation would end the
        // process (GLib aborts when g_malloc fails).
        guard let opened = photointake_vips_open_header(path, strict ? 1 : 0) else {
          throw failure(path, type: metadata.type)
        }
        let header = VipsImageRef(opened)
        try ThumbnailPlan.checkPixelCount(
          width: header.width, height: header.height, limit: request.maximumPixelCount)
        try ThumbnailPlan.checkReducible(width: header.width, height: header.height, to: size)
      }
      var output: UnsafeMutablePointer<CVips.VipsImage>?
      let loaded: Int32
      if metadata.type == .jpeg, let width = metadata.width, let height = metadata.height {
        loaded = photointake_vips_jpegload_shrink(
          path, &output, Int32(ThumbnailPlan.jpegShrink(max(width, height), to: size)), strict ? 1 : 0)
        if loaded == 0, let image = output {
          output = nil
          let reduced = try VipsImageRef(image).apply({ _ in failure(path, type: metadata.type) }) {
            input, output in
            photointake_vips_thumbnail_image(input, output, Int32(size), Int32(size))
          }
          return try materialize(reduced, path: path, type: metadata.type)
        }
      } else {
        // WebP shrinks while loading inside vips_thumbnail; PNG, GIF and TIFF stream through it. The orientation
        // is ours to apply, except for formats read here without a header reader (libvips applies theirs).
        loaded = photointake_vips_thumbnail_file(
          path, &output, Int32(size), Int32(size), plan.orientation == nil ? 0 : 1, strict ? 1 : 0)
      }
      guard loaded == 0, let output else { throw failure(path, type: metadata.type) }
      return try materialize(VipsImageRef(output), path: path, type: metadata.type)
    }

    /// Computes the pixels; a failure while decoding is reported as the decoder's.
    private func materialize(_ image: VipsImageRef, path: String, type: MediaType) throws(ImagingError)
      -> VipsImageRef
    {
      do {
        return try image.materialized(hiding: path)
      } catch {
        throw failure(path, type: type)
      }
    }

    /// Decodes a HEIF/AVIF primary image or its first thumbnail with libheif, reduced to fit `size`.
    private func decodeHEIF(_ path: String, thumbnail: Bool, size: Int, limit: Int) throws(ImagingError)
      -> VipsImageRef
    {
      let file = try HEIFFile(path: path)
      var item = try file.primaryImage()
      if thumbnail {
        guard let small = item.firstThumbnail() else {
          throw .malformed(reason: "the HEIF thumbnail item is missing")
        }
        item = small
      } else {
        // libheif's view of the size, checked again before the only full-size decode PhotoIntake ever does
        // (HEVC and AV1 have no reduced-resolution decode).
        try ThumbnailPlan.checkPixelCount(width: item.width, height: item.height, limit: limit)
      }
      try ThumbnailPlan.checkReducible(width: item.width, height: item.height, to: size)
      let decoded = try item.decode()
      let reduced = try decoded.vipsImage(iccProfile: item.iccProfile).apply(ImagingError.decodeFailed) {
        input, output in
        photointake_vips_thumbnail_image(input, output, Int32(size), Int32(size))
      }
      // The libvips image reads libheif's buffer in place: compute it while `decoded` is alive.
      return try withExtendedLifetime(decoded) { () throws(ImagingError) in
        try reduced.materialized(hiding: path)
      }
    }

    private func decodePreview(_ path: String, preview: EmbeddedPreview, size: Int) throws(ImagingError)
      -> VipsImageRef
    {
      DecodeProbe.willDecode(.embeddedPreview(preview.kind))
      if preview.kind == .heifThumbnail {
        return try decodeHEIF(path, thumbnail: true, size: size, limit: Int.max)
      }
      guard let offset = preview.offset, let length = preview.length, length <= 64 << 20 else {
        throw .malformed(reason: "the embedded preview has no byte range")
      }
      var bytes = try HeaderFile(path: path).bytes(at: offset, length: length)
      guard bytes.count == length else { throw .malformed(reason: "the embedded preview is cut short") }
      if preview.type == .tiff, let width = preview.width, let height = preview.height {
        // A raw's uncompressed RGB preview: rows of width × 3 bytes, wrapped as they are (copied, since the
        // buffer does not outlive this call) and reduced.
        guard width > 0, height > 0, length == width * height * 3,
          let wrapped = photointake_vips_image_new_from_memory_copy(
            bytes, length, Int32(width), Int32(height), 3)
        else { throw .malformed(reason: "the embedded preview's samples do not fill its size") }
        return try VipsImageRef(wrapped).apply(ImagingError.decodeFailed) { input, output in
          photointake_vips_thumbnail_image(input, output, Int32(size), Int32(size))
        }.materialized(hiding: nil)
      }
      // libvips reads the buffer in place, so the pixels are computed before it goes out of scope.
      let result = bytes.withUnsafeMutableBytes { buffer -> Result<VipsImageRef, ImagingError> in
        var output: UnsafeMutablePointer<CVips.VipsImage>?
        guard
          photointake_vips_thumbnail_buffer(
            buffer.baseAddress, buffer.count, &output, Int32(size), Int32(size)) == 0, let output
        else { return .failure(.decodeFailed(reason: Vips.takeError())) }
        return Result.typed { () throws(ImagingError) in try VipsImageRef(output).materialized(hiding: nil) }
      }
      return try result.typedGet()
    }

    /// Orientation, colour and encoding: the steps every source shares.
    func finish(
      _ decoded: VipsImageRef, orientation: Orientation?, quality: Int, source: Thumbnail.Source
    ) throws(ImagingError) -> Thumbnail {
      var image = try oriented(decoded, orientation ?? .up)
      let fail = ImagingError.encodeFailed
      if image.hasICCProfile, let converted = try? image.apply(fail, photointake_vips_icc_to_srgb) {
        // A damaged profile is ignored (the pixels are then taken as sRGB), as browsers do.
        image = converted
      }
      if image.hasAlpha { image = try image.apply(fail, photointake_vips_flatten_white) }
      if !image.isSRGB || image.bands != 3 {
        image = try image.apply(fail, photointake_vips_colourspace_srgb)
      }
      if !image.isUChar { image = try image.apply(fail, photointake_vips_cast_uchar) }
      var buffer: UnsafeMutableRawPointer?
      var length = 0
      guard
        photointake_vips_jpegsave_buffer(image.pointer, &buffer, &length, Int32(max(1, min(100, quality))))
          == 0,
        let buffer
      else { throw .encodeFailed(reason: Vips.takeError()) }
      defer { photointake_g_free(buffer) }
      let data = Array(UnsafeRawBufferPointer(start: buffer, count: length))
      return Thumbnail(jpegData: data, width: image.width, height: image.height, source: source)
    }

    /// Applies an EXIF orientation (EXIF 2.32 §4.6.5) to stored pixels: libvips turns clockwise.
    func oriented(_ image: VipsImageRef, _ orientation: Orientation) throws(ImagingError) -> VipsImageRef {
      let fail = ImagingError.decodeFailed
      func turn(_ image: VipsImageRef, _ angle: VipsAngle) throws(ImagingError) -> VipsImageRef {
        try image.apply(fail) { photointake_vips_rot($0, $1, angle) }
      }
      func mirror(_ image: VipsImageRef, _ direction: VipsDirection) throws(ImagingError) -> VipsImageRef {
        try image.apply(fail) { photointake_vips_flip($0, $1, direction) }
      }
      switch orientation {
      case .up: return image
      case .upMirrored: return try mirror(image, VIPS_DIRECTION_HORIZONTAL)
      case .down: return try turn(image, VIPS_ANGLE_D180)
      case .downMirrored: return try mirror(image, VIPS_DIRECTION_VERTICAL)
      case .leftMirrored: return try mirror(turn(image, VIPS_ANGLE_D90), VIPS_DIRECTION_HORIZONTAL)
      case .right: return try turn(image, VIPS_ANGLE_D90)
      case .rightMirrored: return try mirror(turn(image, VIPS_ANGLE_D270), VIPS_DIRECTION_HORIZONTAL)
      case .left: return try turn(image, VIPS_ANGLE_D270)
      }
    }

    /// The error for a failed open or decode of the primary image.
    private func failure(_ path: String, type: MediaType) -> ImagingError {
      let reason = Vips.takeError(hiding: path)
      if reason.contains("is not a known file format") || reason.contains("not a known") {
        return .unsupportedContent(type: type)
      }
      return .decodeFailed(reason: reason)
    }
  }
#endif
