// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(ImageIO) && canImport(AVFoundation, _version: 1)
  import AVFoundation
  import CoreGraphics
  import Foundation
  import ImageIO
  import PhotoMetadata

  extension ImageIOThumbnailer {
    /// Thumbnails of several sizes; a movie's poster frame is decoded once for all of them.
    public func thumbnails(ofFileAt path: String, sizes: [Int], request: ThumbnailRequest)
      throws(ImagingError)
      -> [Thumbnail]
    {
      let prefix = try HeaderFile(path: path).bytes(at: 0, length: MediaType.sniffLength)
      if let type = MediaType.sniff(prefix), type.isMovie {
        return try posters(ofMovieAt: path, type: type, sizes: sizes, request: request)
      }
      return try thumbnailsOneByOne(ofFileAt: path, sizes: sizes, request: request)
    }

    /// Poster frames of the movie at `path` with `AVAssetImageGenerator`, as the Linux backend makes them
    /// (CVips's `movie_poster.c`): a frame about 10 % in (1 s to 10 s, at most half the movie), later points
    /// (a quarter, half, three quarters in) when it is nearly black, upright by the track's preferred transform
    /// (`appliesPreferredTrackTransform`), decoded no larger than the largest size (`maximumSize`), then
    /// reduced for each size and encoded as JPEG.
    ///
    /// The generator is asynchronous (`image(at:)`); this call blocks its thread until it is done, like every
    /// ``ThumbnailGenerating`` call. Run it off the cooperative pool, as ``RenditionStore`` does.
    ///
    /// - Throws: ``ImagingError/tooManyPixels(declared:limit:)`` before any decode when the video's coded
    ///   size (or, when the headers state none, the track's natural size) is over the limit, ``ImagingError/unsupportedContent(type:)`` without a video track,
    ///   ``ImagingError/malformed(reason:)`` when AVFoundation cannot read the movie,
    ///   ``ImagingError/decodeFailed(reason:)`` when no frame decodes.
    func posters(ofMovieAt path: String, type: MediaType, sizes: [Int], request: ThumbnailRequest)
      throws(ImagingError) -> [Thumbnail]
    {
      for size in sizes where size <= 0 { throw .invalidSize(size) }
      guard let largest = sizes.max() else { return [] }
      // A regular file (HeaderFile refuses a FIFO, which AVFoundation would wait on forever).
      _ = try HeaderFile(path: path)
      DecodeProbe.willDecode(.movieFrame(seconds: 0))
      let url = URL(fileURLWithPath: path)
      let limit = request.maximumPixelCount
      let quality = request.quality
      // The size the stream codes (its SPS), when the headers state one: the limit is checked against it, not
      // against the track's natural size, which its header only claims.
      let coded = ImageHeaders.codedPixels(ofMovieAt: path)
      let outcome = Protected<Result<[Thumbnail], ImagingError>?>(nil)
      let done = DispatchSemaphore(value: 0)
      // The generator's API is asynchronous; its work runs on AVFoundation's own queues, so waiting here does
      // not hold the task that finishes it.
      Task.detached {
        let made = await Self.posters(
          url: url, type: type, largest: largest, sizes: sizes, limit: limit, coded: coded, quality: quality)
        outcome.withLock { $0 = made }
        done.signal()
      }
      done.wait()
      guard let result = outcome.current else { throw .decodeFailed(reason: "the poster was not made") }
      return try result.typedGet()
    }

    /// Where to look for a poster in a movie of `duration` seconds (unknown: the start), in order; the same
    /// points as CVips's `movie_poster.c`.
    static func posterTimes(duration: Double?) -> [Double] {
      guard let duration, duration.isFinite, duration > 0 else { return [0] }
      var times = [min(max(duration * 0.1, 1), 10, duration / 2)]
      for quarter in 1...3 where duration * Double(quarter) / 4 > times[times.count - 1] + 0.05 {
        times.append(duration * Double(quarter) / 4)
      }
      return times
    }

    /// A mean luma (of 255) below this is a black or nearly black frame: a fade-in, a covered lens.
    static let nearBlack = 24.0

    private static func posters(
      url: URL, type: MediaType, largest: Int, sizes: [Int], limit: Int, coded: Int?, quality: Int
    ) async -> Result<[Thumbnail], ImagingError> {
      let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
      let track: AVAssetTrack
      let duration: CMTime
      let natural: CGSize
      do {
        guard let video = try await asset.loadTracks(withMediaType: .video).first else {
          return .failure(.unsupportedContent(type: type))
        }
        track = video
        duration = try await asset.load(.duration)
        natural = try await track.load(.naturalSize)
      } catch {
        return .failure(
          .malformed(reason: "AVFoundation could not read the movie (\(error.localizedDescription))"))
      }
      let declared = Result.typed { () throws(ImagingError) in
        if let coded {
          if coded > limit { throw .tooManyPixels(declared: coded, limit: limit) }
          return
        }
        try ThumbnailPlan.checkPixelCount(
          width: Int(abs(natural.width)), height: Int(abs(natural.height)), limit: limit)
      }
      if case .failure(let error) = declared { return .failure(error) }
      let generator = AVAssetImageGenerator(asset: asset)
      generator.appliesPreferredTrackTransform = true
      generator.maximumSize = CGSize(width: largest, height: largest)
      // Near the point is good enough for a poster, and much cheaper than frame-exact (no decode from the key
      // frame forward).
      let tolerance = CMTime(seconds: 0.5, preferredTimescale: 600)
      generator.requestedTimeToleranceBefore = tolerance
      generator.requestedTimeToleranceAfter = tolerance
      let seconds = duration.isNumeric ? duration.seconds : nil
      var best: (image: CGImage, time: Double, luma: Double)?
      var failure = "no frame could be decoded"
      for time in posterTimes(duration: seconds) {
        do {
          let (image, actual) = try await generator.image(at: CMTime(seconds: time, preferredTimescale: 600))
          let luma = meanLuma(image)
          if luma > best?.luma ?? -1 {
            best = (image, actual.isNumeric ? actual.seconds : time, luma)
          }
          if luma >= nearBlack { break }
        } catch {
          failure = error.localizedDescription
        }
      }
      guard let best else { return .failure(.decodeFailed(reason: failure)) }
      return Result.typed { () throws(ImagingError) in
        var made: [Thumbnail] = []
        for size in sizes {
          let image = try reduced(best.image, toFit: size)
          made.append(
            Thumbnail(
              jpegData: try jpeg(image, quality: quality), width: image.width, height: image.height,
              source: .movieFrame(seconds: best.time), duration: seconds))
        }
        return made
      }
    }

    /// `image` drawn into an opaque 8-bit sRGB bitmap whose longest side is at most `size` (never enlarged).
    private static func reduced(_ image: CGImage, toFit size: Int) throws(ImagingError) -> CGImage {
      let longest = max(image.width, image.height)
      let scale = longest > size ? Double(size) / Double(longest) : 1
      let width = max(1, Int((Double(image.width) * scale).rounded()))
      let height = max(1, Int((Double(image.height) * scale).rounded()))
      guard let space = CGColorSpace(name: CGColorSpace.sRGB),
        let context = CGContext(
          data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: space,
          bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)
      else { throw .encodeFailed(reason: "no bitmap context") }
      context.interpolationQuality = .high
      context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
      guard let result = context.makeImage() else { throw .encodeFailed(reason: "no image from the context") }
      return result
    }

    /// The mean luma (0…255, BT.601 weights) of `image`, drawn into 16 × 16 pixels.
    private static func meanLuma(_ image: CGImage) -> Double {
      let side = 16
      var pixels = [UInt8](repeating: 0, count: side * side * 4)
      let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
        guard let space = CGColorSpace(name: CGColorSpace.sRGB),
          let context = CGContext(
            data: buffer.baseAddress, width: side, height: side, bitsPerComponent: 8, bytesPerRow: side * 4,
            space: space, bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)
        else { return false }
        context.draw(image, in: CGRect(x: 0, y: 0, width: side, height: side))
        return true
      }
      guard drawn else { return 255 }
      var sum = 0.0
      for at in stride(from: 0, to: pixels.count, by: 4) {
        sum += 0.299 * Double(pixels[at]) + 0.587 * Double(pixels[at + 1]) + 0.114 * Double(pixels[at + 2])
      }
      return sum / Double(side * side)
    }
  }
#endif
