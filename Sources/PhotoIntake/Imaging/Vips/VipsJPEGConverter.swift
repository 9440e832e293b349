#if canImport(CVips)
  import CVips
  import PhotoMetadata

  /// ``CompatibleJPEG``'s Linux backend: one decode with libvips or libheif, the orientation applied, the
  /// source's ICC profile embedded unchanged, the EXIF block carried over.
  ///
  /// Unlike a rendition, nothing is converted to sRGB: a Display P3 photo stays P3 with its profile, as
  /// Photos exports it. Alpha is put on white (JPEG has none); 16-bit and CMYK images become 8-bit sRGB, and
  /// then their profile (which described the old samples) is left out.
  enum VipsJPEGConverter {
    /// An image sequence or burst as its first frame: libheif 1.15 reads no `pict` track, so FFmpeg's HEVC
    /// decoder makes it, as it makes the sequence's rendition (the declared size was checked by the plan, and
    /// the decoder checks the frame's own size against the same limit). A sequence carries no EXIF block or
    /// ICC profile to keep.
    static func firstFrame(ofSequenceAt path: String, plan: CompatibleJPEG.Plan) throws(ImagingError)
      -> [UInt8]
    {
      let longest = max(plan.metadata.width ?? 0, plan.metadata.height ?? 0)
      let size = plan.maxPixelSize ?? (longest > 0 ? longest : Vips.maximumCoordinate)
      let request = ThumbnailRequest(
        maxPixelSize: size, maximumPixelCount: plan.maximumPixelCount, quality: plan.quality,
        allowsEmbeddedPreview: false)
      let frames = try VipsThumbnailer().posters(
        ofMovieAt: path, type: .heics, sizes: [size], request: request, firstFrame: true)
      guard let frame = frames.first else { throw .decodeFailed(reason: "no frame was decoded") }
      return frame.jpegData
    }

    static func convert(fileAt path: String, plan: CompatibleJPEG.Plan) throws(ImagingError) -> [UInt8] {
      if plan.metadata.type == .heics { return try firstFrame(ofSequenceAt: path, plan: plan) }
      try Vips.start()
      defer { photointake_release_free_memory() }
      let (decoded, heifProfile, heifPixels) = try decode(path, plan: plan)
      var image = try VipsThumbnailer().oriented(decoded, plan.orientation ?? .up)
      var profile = heifProfile ?? iccProfile(of: image)
      let fail = ImagingError.encodeFailed
      if image.hasAlpha { image = try image.apply(fail, photointake_vips_flatten_white) }
      if photointake_vips_image_get_interpretation(image.pointer) == VIPS_INTERPRETATION_CMYK {
        // A CMYK JPEG (print workflows): its own profile converts it; browsers show CMYK JPEG badly.
        if let converted = try? image.apply(fail, photointake_vips_icc_to_srgb) { image = converted }
        profile = nil
      }
      if !image.isUChar || (image.bands != 3 && image.bands != 1) {
        image = try image.apply(fail, photointake_vips_colourspace_srgb)
        profile = nil
      }
      if !image.isUChar { image = try image.apply(fail, photointake_vips_cast_uchar) }
      var buffer: UnsafeMutableRawPointer?
      var length = 0
      guard
        photointake_vips_jpegsave_buffer(image.pointer, &buffer, &length, Int32(plan.quality)) == 0,
        let buffer
      else {
        // A streamed conversion decodes while it encodes: a failure then is the decoder's (a cut file).
        let reason = Vips.takeError(hiding: path)
        throw plan.streams && plan.maxPixelSize == nil
          ? .decodeFailed(reason: reason) : .encodeFailed(reason: reason)
      }
      defer { photointake_g_free(buffer) }
      // A full-size HEIF image reads libheif's buffer in place until it is encoded.
      withExtendedLifetime(heifPixels) {}
      let encoded = Array(UnsafeRawBufferPointer(start: buffer, count: length))
      let exif: [UInt8]?
      do {
        exif = try ExifCarryOver.app1Payload(
          fileAt: path, width: image.width, height: image.height, removeLocation: plan.stripLocation)
      } catch {
        throw .malformed(reason: "its EXIF block cannot be carried over: \(error)")
      }
      return CompatibleJPEG.inserting(exif: exif, iccProfile: profile, into: encoded)
    }

    /// Decodes the primary image, reduced to fit the plan's size (while decoding where the format allows),
    /// into memory, or, when the plan streams (``CompatibleJPEG/Plan/streams``), as a pipeline the encoder
    /// pulls row by row. Returns libheif's ICC profile for HEIF (libvips images made from libheif's pixels
    /// carry it too, but reading it back is a copy), and libheif's decoded image when the result reads it in
    /// place (keep it alive until the encode).
    private static func decode(_ path: String, plan: CompatibleJPEG.Plan) throws(ImagingError)
      -> (VipsImageRef, [UInt8]?, HEIFImage?)
    {
      let metadata = plan.metadata
      // Clamped to libvips's largest coordinate: a size over 32 bits reaches here for a header without a
      // usable size (nothing "fits" then), and libvips only ever reduces (VIPS_SIZE_DOWN).
      let size = plan.maxPixelSize.map { Int32(min($0, Vips.maximumCoordinate)) }
      DecodeProbe.willDecode(.primaryImage)
      if [.heic, .heif, .avif].contains(metadata.type) {
        let file = try HEIFFile(path: path)
        let item = try file.primaryImage()
        // HEVC and AV1 have no reduced decode: libheif's view of the size is checked before the full one.
        try ThumbnailPlan.checkPixelCount(
          width: item.width, height: item.height, limit: plan.maximumPixelCount)
        let profile = item.iccProfile
        let decoded = try item.decode()
        guard let size else {
          // Full size: libvips reads libheif's buffer in place (a copy would double the peak, 3 bytes per
          // pixel more, which DecodeCost does not allow for); the caller keeps `decoded` until the encode.
          return (try decoded.vipsImage(iccProfile: profile), profile, decoded)
        }
        let image = try decoded.vipsImage(iccProfile: profile).apply(ImagingError.decodeFailed) {
          photointake_vips_thumbnail_image($0, $1, size, size)
        }
        // The libvips image reads libheif's buffer in place: compute it while `decoded` is alive.
        let computed = try withExtendedLifetime(decoded) { () throws(ImagingError) in
          try image.materialized(hiding: path)
        }
        return (computed, profile, nil)
      }
      var output: UnsafeMutablePointer<CVips.VipsImage>?
      if metadata.type == .jpeg, let width = metadata.width, let height = metadata.height {
        // DCT scaling: a 4000 px photo asked at 1000 px decodes 1/16 of its pixels.
        let shrink = plan.maxPixelSize.map { ThumbnailPlan.jpegShrink(max(width, height), to: $0) } ?? 1
        guard photointake_vips_jpegload_shrink(path, &output, Int32(shrink), 1) == 0, let output else {
          throw .decodeFailed(reason: Vips.takeError(hiding: path))
        }
        var image = VipsImageRef(output)
        if let size {
          image = try image.apply(ImagingError.decodeFailed) {
            photointake_vips_thumbnail_image($0, $1, size, size)
          }
        }
        return (try image.materialized(hiding: path), nil, nil)
      }
      // Other formats: libvips reads the header first, and its size passes the bomb guard before any decode
      // (libnsgif, for one, grows a GIF's screen to its largest frame).
      guard let opened = photointake_vips_open_header(path, 1) else {
        throw .decodeFailed(reason: Vips.takeError(hiding: path))
      }
      let header = VipsImageRef(opened)
      try ThumbnailPlan.checkPixelCount(
        width: header.width, height: header.height, limit: plan.maximumPixelCount)
      // Full size and upright: the encoder pulls rows through the decoder (libvips's sequential access), so a
      // large PNG never sits in memory whole. One that must be turned is computed into memory first.
      guard let size else {
        return (plan.streams ? header : try header.materialized(hiding: path), nil, nil)
      }
      // WebP scales while it loads inside vips_thumbnail; the orientation is applied afterwards, by us.
      guard
        photointake_vips_thumbnail_file(path, &output, size, size, plan.orientation == nil ? 0 : 1, 1) == 0,
        let output
      else { throw .decodeFailed(reason: Vips.takeError(hiding: path)) }
      return (try VipsImageRef(output).materialized(hiding: path), nil, nil)
    }

    /// A copy of the ICC profile libvips attached while loading (JPEG APP2, PNG `iCCP`, WebP `ICCP`).
    private static func iccProfile(of image: VipsImageRef) -> [UInt8]? {
      var length = 0
      guard let data = photointake_vips_image_get_icc_profile(image.pointer, &length), length > 0 else {
        return nil
      }
      return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
  }
#endif
