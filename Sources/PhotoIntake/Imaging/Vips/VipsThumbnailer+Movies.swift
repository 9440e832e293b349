#if canImport(CVips)
  import CVips
  import PhotoMetadata

  extension VipsThumbnailer {
    /// Packets read at most for one poster (video and audio together): a few seconds of 60 fps video for each
    /// of the four points tried, far more than the key frame interval of camera movies. A damaged index that
    /// sends the demuxer through a whole movie stops here.
    static let maximumPosterPackets = 3_000

    /// Poster frames of the movie at `path`, one per size, from one decode (CVips's `movie_poster.h`): a frame
    /// about 10 % in that is not black, turned upright by the track's display matrix, reduced for each size and
    /// encoded as JPEG (TurboJPEG, or libvips when it is missing).
    ///
    /// The file is opened here (`HeaderFile`: a regular file, never a FIFO or device) and FFmpeg reads only
    /// that descriptor, with the QuickTime/MP4 demuxer only.
    ///
    /// - Throws: ``ImagingError/libraryUnavailable(library:package:reason:)`` without FFmpeg,
    ///   ``ImagingError/tooManyPixels(declared:limit:)`` before any decode for frames over the limit,
    ///   ``ImagingError/malformed(reason:)`` for a cut or damaged container, ``ImagingError/decodeFailed(reason:)``
    ///   when no frame decodes, ``ImagingError/unsupportedContent(type:)`` without a video track or decoder.
    ///
    /// With `firstFrame`, the first frame is taken instead: an image sequence or burst (``MediaType/heics``)
    /// shows its first picture, as ImageIO and Photos do.
    func posters(
      ofMovieAt path: String, type: MediaType, sizes: [Int], request: ThumbnailRequest,
      firstFrame: Bool = false
    ) throws(ImagingError) -> [Thumbnail] {
      for size in sizes where size <= 0 { throw .invalidSize(size) }
      guard let largest = sizes.max() else { return [] }
      let file = try HeaderFile(path: path)
      // The size the stream codes (its SPS), when the headers state one: the limit is checked against it, not
      // against the track header's claim. Unreadable headers leave the check to FFmpeg's view of the track.
      let coded = ImageHeaders.codedPixels(ofMovieAt: path)
      if let coded, coded > request.maximumPixelCount {
        throw .tooManyPixels(declared: coded, limit: request.maximumPixelCount)
      }
      DecodeProbe.willDecode(.movieFrame(seconds: 0))
      // The demuxer's and decoder's buffers are freed before this returns; hand their pages back.
      defer { photointake_release_free_memory() }
      var poster = photointake_movie_poster()
      var reason = [CChar](repeating: 0, count: 400)
      let status = withExtendedLifetime(file) {
        (firstFrame ? photointake_sequence_first_frame : photointake_movie_poster)(
          file.descriptor, Int32(clamping: largest), Int64(request.maximumPixelCount), Int64(coded ?? 0),
          Int32(Self.maximumPosterPackets), &poster, &reason, reason.count)
      }
      defer { photointake_movie_poster_free(&poster) }
      let words = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      switch status {
      case PHOTOINTAKE_POSTER_OK: break
      case PHOTOINTAKE_POSTER_UNAVAILABLE:
        throw .libraryUnavailable(
          library: "FFmpeg (libavformat, libavcodec, libswscale)",
          package: String(cString: photointake_ffmpeg_packages()), reason: words)
      case PHOTOINTAKE_POSTER_TOO_MANY_PIXELS:
        throw .tooManyPixels(
          declared: Int(clamping: poster.declared_pixels), limit: request.maximumPixelCount)
      case PHOTOINTAKE_POSTER_MALFORMED: throw .malformed(reason: words)
      case PHOTOINTAKE_POSTER_NO_VIDEO, PHOTOINTAKE_POSTER_NO_DECODER: throw .unsupportedContent(type: type)
      default: throw .decodeFailed(reason: words)
      }
      guard let pixels = poster.pixels, poster.width > 0, poster.height > 0 else {
        throw .decodeFailed(reason: "no frame was decoded")
      }
      let orientation = Orientation(rawValue: Int(poster.orientation)) ?? .up
      let source =
        firstFrame ? Thumbnail.Source.primaryImage : Thumbnail.Source.movieFrame(seconds: poster.time)
      let duration = poster.duration >= 0 && !firstFrame ? poster.duration : nil
      let rgb = UnsafeBufferPointer(start: pixels, count: Int(poster.width) * Int(poster.height) * 3)
      let (width, height) = (Int(poster.width), Int(poster.height))
      var made: [Thumbnail]
      if let encoded = try TurboThumbnails.encode(
        rgb: rgb, width: width, height: height, sizes: sizes, orientation: orientation,
        quality: request.quality, source: source)
      {
        made = encoded
      } else {
        made = try encodeWithVips(
          rgb: rgb, width: width, height: height, sizes: sizes, orientation: orientation,
          quality: request.quality, source: source)
      }
      for index in made.indices { made[index].duration = duration }
      return made
    }

    /// The libvips way to the same JPEGs, for a system without libturbojpeg.
    private func encodeWithVips(
      rgb: UnsafeBufferPointer<UInt8>, width: Int, height: Int, sizes: [Int], orientation: Orientation,
      quality: Int, source: Thumbnail.Source
    ) throws(ImagingError) -> [Thumbnail] {
      try Vips.start()
      guard
        let copied = photointake_vips_image_new_from_memory_copy(
          rgb.baseAddress, rgb.count, Int32(width), Int32(height), 3)
      else { throw .encodeFailed(reason: Vips.takeError()) }
      let image = VipsImageRef(copied)
      var made: [Thumbnail] = []
      for size in sizes {
        let reduced = try image.apply(ImagingError.encodeFailed) { input, output in
          photointake_vips_thumbnail_image(input, output, Int32(size), Int32(size))
        }
        made.append(try finish(reduced, orientation: orientation, quality: quality, source: source))
      }
      return made
    }
  }
#endif
