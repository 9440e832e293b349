import PhotoMetadata

/// Chooses which of an item provider's registered types to load, so that the original is kept.
///
/// A picker result's provider can offer several representations of one photo: with
/// `preferredAssetRepresentationMode = .current` a HEIC photo registers `public.heic` and may also offer
/// `public.jpeg`, which the system makes by transcoding (`PHPickerConfiguration.AssetRepresentationMode`).
/// Loading the JPEG re-encodes the photo (a 20 MB HEIC can become a larger, lossier JPEG). This choice loads the
/// least-derived representation PhotoIntake can store, and falls back to whatever is registered so that the
/// bytes, not the type identifier, decide.
///
/// **The RAW policy, one for both import paths: the RAW is kept.** A provider that offers a RAW type and a JPEG
/// (`com.adobe.raw-image` and `public.jpeg`) may be a RAW+JPEG pair or a RAW whose JPEG the system transcodes;
/// only a device can tell which, and the RAW is right for both answers: it is never a transcode. The library
/// path (``AssetResourcePlan``) makes the same choice from the resources, which do tell: a pair's RAW
/// `.alternatePhoto` over its JPEG `.photo`. So one photo arrives as the same file through the picker and
/// through the grid. An app that wants the JPEG of a pair filters on the imported `MediaType`.
public enum RepresentationChoice {
  /// What both import paths do with a RAW and a processed version of one photo.
  public enum RAWPolicy: Sendable, Hashable {
    /// Keep the RAW (DNG, ProRAW, CR2, CR3, NEF, ARW) over a JPEG or HEIC of the same photo.
    case keepRAW
  }

  /// The policy both paths follow.
  public static let rawPolicy = RAWPolicy.keepRAW

  /// Whether a type identifier names a RAW photo format.
  public static func isRAW(_ typeIdentifier: String) -> Bool {
    MediaType(hint: typeIdentifier)?.isRaw ?? false
  }

  /// The type identifier to pass to `loadFileRepresentation(forTypeIdentifier:completionHandler:)`; nil when
  /// the provider has no registered types (a preselected result that stayed selected).
  public static func preferredTypeIdentifier(among registered: [String]) -> String? {
    let known = registered.compactMap { identifier in MediaType(hint: identifier).map { (identifier, $0) } }
    guard let first = known.first else { return registered.first }
    // Stay with the kind (still or movie) the provider lists first: a Live Photo's still comes before its
    // paired movie, and a video's movie is its content.
    let sameKind = known.filter { $0.1.isImage == first.1.isImage }
    return sameKind.min { rank($0.1) < rank($1.1) }?.0
  }

  /// Lower is closer to what the camera wrote. JPEG and MPEG-4 are what `.compatible` transcodes to, so they
  /// come last.
  static func rank(_ type: MediaType) -> Int {
    switch type {
    case .dng, .cr2, .cr3, .nef, .arw, .orf, .rw2, .pef, .raf, .srw, .crw, .mrw, .x3f: 0
    case .heic, .heif, .heics, .avif: 1
    case .tiff, .png, .gif, .webp: 2
    case .jpeg: 3
    case .mov: 0
    case .m4v: 1
    case .mp4: 2
    }
  }
}
