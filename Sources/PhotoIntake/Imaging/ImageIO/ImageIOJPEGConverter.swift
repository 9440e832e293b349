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
  /// - An HDR photo keeps its gain map as ``GainMapCarryOver`` decides: on iOS 18 and macOS 15 the picture is
  ///   decoded to HDR and the encoder makes an ISO 21496-1 gain map from it; before, Apple's auxiliary gain map
  ///   is copied (without its `exif:GPS*` properties when the location goes).
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
      let gainMap = GainMapCarryOver.decide(
        source: gainMapSource(source), orientation: plan.metadata.orientation, canEncodeISO: canEncodeISO)
      DecodeProbe.willDecode(.primaryImage)
      var decodeOptions: [CFString: Any] = [
        kCGImageSourceCreateThumbnailFromImageAlways: true,
        kCGImageSourceCreateThumbnailWithTransform: true,
        kCGImageSourceThumbnailMaxPixelSize: min(plan.maxPixelSize ?? longest, longest),
        kCGImageSourceShouldCacheImmediately: true,
      ]
      #if canImport(AVFoundation, _version: 2330)
        // The iOS 18 / macOS 15 SDKs and later (the AVFoundation overlay's version tells the SDKs apart).
        if gainMap == .encodeISOFromHDR, #available(iOS 18, macOS 15, tvOS 18, visionOS 2, *) {
          decodeOptions[kCGImageSourceDecodeRequest] = kCGImageSourceDecodeToHDR
          properties[kCGImageDestinationEncodeRequest] = kCGImageDestinationEncodeToISOGainmap
        }
      #endif
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
      // Auxiliary data goes after the image it belongs to (CGImageDestination.h).
      if gainMap == .copyAppleGainMap,
        var info = CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeHDRGainMap)
          as? [CFString: Any]
      {
        if plan.stripLocation, let metadata = info[kCGImageAuxiliaryDataInfoMetadata] {
          info[kCGImageAuxiliaryDataInfoMetadata] = removingLocation(from: metadata as AnyObject)
        }
        CGImageDestinationAddAuxiliaryDataInfo(
          destination, kCGImageAuxiliaryDataTypeHDRGainMap, info as CFDictionary)
      }
      guard CGImageDestinationFinalize(destination) else {
        throw .encodeFailed(reason: "ImageIO could not write it")
      }
      return [UInt8](data as Data)
    }

    /// Whether the running system's JPEG encoder makes ISO 21496-1 gain maps (iOS 18, macOS 15).
    private static var canEncodeISO: Bool {
      #if canImport(AVFoundation, _version: 2330)
        if #available(iOS 18, macOS 15, tvOS 18, visionOS 2, *) { return true }
      #endif
      return false
    }

    /// The gain map ImageIO finds in the primary image (ISO 21496-1 first: a file with both is read that way
    /// from iOS 18 on).
    private static func gainMapSource(_ source: CGImageSource) -> GainMapCarryOver.Source {
      #if canImport(AVFoundation, _version: 2330)
        if #available(iOS 18, macOS 15, tvOS 18, visionOS 2, *),
          CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeISOGainMap) != nil
        {
          return .iso
        }
      #endif
      if CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeHDRGainMap) != nil {
        return .apple
      }
      return .none
    }

    /// A copy of a gain map's XMP without the properties ``GainMapCarryOver`` says go with the location;
    /// anything that is not a `CGImageMetadata` is returned as it is.
    private static func removingLocation(from object: AnyObject) -> AnyObject {
      guard CFGetTypeID(object) == CGImageMetadataGetTypeID() else { return object }
      let metadata = unsafeDowncast(object, to: CGImageMetadata.self)
      guard let copy = CGImageMetadataCreateMutableCopy(metadata),
        let tags = CGImageMetadataCopyTags(metadata) as? [CGImageMetadataTag]
      else { return object }
      for tag in tags {
        guard let namespace = CGImageMetadataTagCopyNamespace(tag) as String?,
          let prefix = CGImageMetadataTagCopyPrefix(tag) as String?,
          let name = CGImageMetadataTagCopyName(tag) as String?,
          GainMapCarryOver.dropsFromGainMapMetadata(namespace: namespace, name: name)
        else { continue }
        CGImageMetadataRemoveTagWithPath(copy, nil, "\(prefix):\(name)" as CFString)
      }
      return copy
    }
  }
#endif
