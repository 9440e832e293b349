#if canImport(ImageIO)
  import CoreGraphics
  import Foundation
  import ImageIO
  import PhotoMetadata

  /// ``CompatibleJPEG``'s backend on Apple platforms: one `CGImageSourceCreateThumbnailAtIndex` decode (reduced
  /// while decoding where the codec allows, orientation and HEIF `irot`/`imir` applied), written by
  /// `CGImageDestination` with the source's metadata.
  ///
  /// - The decoded image keeps the source's colour space, and ImageIO's JPEG encoder embeds it: Display P3
  ///   stays P3 (no drawing into an sRGB context, unlike a rendition).
  /// - The source's TIFF, EXIF and maker dictionaries are passed to the destination, with the orientation set
  ///   to 1 and the EXIF pixel size set to the output's; without location the GPS dictionary is left out.
  /// - Alpha is put on white (`kCGImageDestinationBackgroundColor`'s default).
  enum ImageIOJPEGConverter {
    static func convert(fileAt path: String, plan: CompatibleJPEG.Plan) throws(ImagingError) -> [UInt8] {
      let sourceOptions = [kCGImageSourceShouldCache: false] as CFDictionary
      guard let source = CGImageSourceCreateWithURL(URL(fileURLWithPath: path) as CFURL, sourceOptions),
        CGImageSourceGetCount(source) > 0
      else { throw .unsupportedContent(type: plan.metadata.type) }
      var properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any] ?? [:]
      guard let width = properties[kCGImagePropertyPixelWidth] as? Int ?? plan.metadata.width,
        let height = properties[kCGImagePropertyPixelHeight] as? Int ?? plan.metadata.height
      else { throw .malformed(reason: "the image declares no size") }
      // ImageIO's view of the size serves the bomb guard for formats without a header reader here.
      try ThumbnailPlan.checkPixelCount(width: width, height: height, limit: plan.maximumPixelCount)
      let longest = max(width, height)
      DecodeProbe.willDecode(.primaryImage)
      let decodeOptions: [CFString: Any] = [
        kCGImageSourceCreateThumbnailFromImageAlways: true,
        kCGImageSourceCreateThumbnailWithTransform: true,
        kCGImageSourceThumbnailMaxPixelSize: min(plan.maxPixelSize ?? longest, longest),
        kCGImageSourceShouldCacheImmediately: true,
      ]
      guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, decodeOptions as CFDictionary) else {
        throw .decodeFailed(
          reason: "ImageIO could not decode it (status \(CGImageSourceGetStatus(source).rawValue))")
      }
      properties[kCGImagePropertyOrientation] = 1
      properties[kCGImagePropertyPixelWidth] = nil
      properties[kCGImagePropertyPixelHeight] = nil
      if var tiff = properties[kCGImagePropertyTIFFDictionary] as? [CFString: Any] {
        tiff[kCGImagePropertyTIFFOrientation] = 1
        properties[kCGImagePropertyTIFFDictionary] = tiff
      }
      if var exif = properties[kCGImagePropertyExifDictionary] as? [CFString: Any] {
        exif[kCGImagePropertyExifPixelXDimension] = image.width
        exif[kCGImagePropertyExifPixelYDimension] = image.height
        properties[kCGImagePropertyExifDictionary] = exif
      }
      if plan.stripLocation { properties[kCGImagePropertyGPSDictionary] = nil }
      properties[kCGImageDestinationLossyCompressionQuality] = Double(plan.quality) / 100
      let data = NSMutableData()
      guard
        let destination = CGImageDestinationCreateWithData(
          data as CFMutableData, "public.jpeg" as CFString, 1, nil)
      else { throw .encodeFailed(reason: "ImageIO has no JPEG encoder") }
      CGImageDestinationAddImage(destination, image, properties as CFDictionary)
      guard CGImageDestinationFinalize(destination) else {
        throw .encodeFailed(reason: "ImageIO could not write it")
      }
      return [UInt8](data as Data)
    }
  }
#endif
