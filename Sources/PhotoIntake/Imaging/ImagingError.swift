import PhotoMetadata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a thumbnail or rendition could not be made. Each case reads as a sentence a user can act on.
///
/// Renditions are caches: none of these ever affects the original or its import.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The bytes are not a format this platform can decode (unknown content, raw formats without a decoder, a
  /// movie without a video track or whose codec has no decoder here). `type` is what the bytes are, when known.
  case unsupportedContent(type: MediaType?)
  /// A camera raw (`MediaType.isRaw`) whose picture was asked for where only its own could do
  /// (an export, a rendition without embedded previews), or that has no embedded preview that can be shown.
  /// PhotoIntake never develops raw sensor data: a raw's renditions show the largest preview the camera
  /// embedded, and its export is the original file.
  case rawNotDeveloped(type: MediaType, hasPreview: Bool)
  /// The image declares more pixels than the limit; it was refused before any decode.
  case tooManyPixels(declared: Int, limit: Int)
  /// Decoding the image would cost more memory or work than the ``DecodeLimit`` allows (a grid reusing one
  /// tile hundreds of times, a progressive JPEG's coefficients, a huge animation canvas, many frames); it was
  /// refused before any decode. `reason` says what it would cost and which limit it exceeds.
  case overDecodeBudget(reason: String)
  /// The picture is so narrow for its length (a line of pixels thousands long) that reducing it to the
  /// requested size would leave its short side under one pixel; it was not decoded (libvips 8.14 can abort the
  /// process on such a reduction).
  case extremeAspectRatio(width: Int, height: Int)
  /// The file's headers are damaged or contradict themselves (no frame header, impossible sizes, a cut box).
  case malformed(reason: String)
  /// The decoder could not decode the pixels (truncated or corrupt data). `reason` is the decoder's own words.
  case decodeFailed(reason: String)
  /// Encoding the JPEG failed.
  case encodeFailed(reason: String)
  /// The file does not exist (a library original that went missing, or a wrong path).
  case fileNotFound
  /// The file or the rendition folder could not be read or written for lack of permission.
  case permissionDenied
  /// The disk holding the renditions is full.
  case diskFull
  /// Another read or write failed.
  case ioError(operation: String, code: Int32)
  /// A requested size was not a positive number of pixels.
  case invalidSize(Int)
  /// A decoding library (libvips, libheif, the FFmpeg libraries on Linux) could not be loaded: it is not
  /// installed, or not a version this build can use. `package` is the system package that provides it; `reason` is the loader's words.
  /// Only pictures that need the library are affected; importing and reading metadata never load it.
  case libraryUnavailable(library: String, package: String, reason: String)
  /// The request was cancelled while it waited for its turn to decode; nothing was decoded or written.
  case cancelled

  public var description: String {
    switch self {
    case .unsupportedContent(let type):
      if let type, type.isMovie {
        "This movie (\(type.rawValue)) has no video track that can be decoded here, so it has no poster; the "
          + "original is kept as it is."
      } else if let type {
        "Pictures in \(type.rawValue) format cannot be decoded here; the original is kept as it is."
      } else {
        "The content is not a picture format that can be decoded. Check that the file is a photo."
      }
    case .rawNotDeveloped(let type, true):
      "This is a raw photo (\(type.rawValue)): its picture is made by developing the sensor data, which "
        + "PhotoIntake does not do. Its thumbnails show the preview the camera embedded; to share the photo, "
        + "export the original and develop it in a raw converter."
    case .rawNotDeveloped(let type, false):
      "This raw photo (\(type.rawValue)) has no embedded preview that can be shown, and PhotoIntake does not "
        + "develop sensor data; open the original in a raw converter. The original is kept as it is."
    case .tooManyPixels(let declared, let limit):
      "The image declares \(Self.megapixels(declared)) megapixels, more than the \(Self.megapixels(limit)) MP "
        + "limit; it was not decoded, so that it cannot exhaust memory. Raise the limit only for files you trust."
    case .overDecodeBudget(let reason):
      "Decoding this image would \(reason); it was not decoded, so that it cannot exhaust memory or time. "
        + "Raise the decode limit only for files you trust."
    case .extremeAspectRatio(let width, let height):
      "The picture is \(width)×\(height) pixels, too narrow for its length to be reduced to this size (its "
        + "short side would be less than one pixel); ask for a larger size. The original is kept as it is."
    case .malformed(let reason):
      "The file's headers are damaged (\(reason)); it cannot be shown. The original is kept as it is."
    case .decodeFailed(let reason):
      "The file could not be decoded (\(reason)). It may be truncated or corrupt; import it again "
        + "from the source if you have it."
    case .encodeFailed(let reason):
      "The thumbnail could not be encoded (\(reason)). Try again; if it persists, report it."
    case .fileNotFound:
      "The picture's file is missing. Verify the library it belongs to, or check the path."
    case .permissionDenied:
      "Permission was denied reading the picture or writing the renditions. Check the folders' permissions."
    case .diskFull:
      "The disk is full, so the rendition could not be written. Free some space; renditions are remade on demand."
    case .ioError(let operation, let code):
      "A storage error stopped the rendition (\(operation): \(String(cString: strerror(code)))). "
        + "Check the disk; renditions are remade on demand."
    case .invalidSize(let size):
      "\(size) is not a valid size; give the longest side in pixels (1 or more)."
    case .libraryUnavailable(let library, let package, let reason):
      "\(library) could not be loaded (\(reason)), so the picture cannot be decoded here. Install it "
        + "(apt-get install \(package)); importing and reading metadata do not need it."
    case .cancelled:
      "The rendition was not made: its request was cancelled before its turn to decode came. Ask again when it "
        + "is wanted."
    }
  }

  /// A short stable code for JSON output and logs.
  public var code: String {
    switch self {
    case .unsupportedContent: "unsupported-content"
    case .rawNotDeveloped: "raw-not-developed"
    case .tooManyPixels: "too-many-pixels"
    case .overDecodeBudget: "over-decode-budget"
    case .extremeAspectRatio: "extreme-aspect-ratio"
    case .malformed: "malformed"
    case .decodeFailed: "decode-failed"
    case .encodeFailed: "encode-failed"
    case .fileNotFound: "file-not-found"
    case .permissionDenied: "permission-denied"
    case .diskFull: "disk-full"
    case .ioError: "io-error"
    case .invalidSize: "invalid-size"
    case .libraryUnavailable: "library-unavailable"
    case .cancelled: "cancelled"
    }
  }

  package init(_ error: SystemError) {
    switch error.code {
    case ENOENT, ENOTDIR: self = .fileNotFound
    case EACCES, EPERM, EROFS: self = .permissionDenied
    case ENOSPC, EDQUOT: self = .diskFull
    default: self = .ioError(operation: error.operation.rawValue, code: error.code)
    }
  }

  private static func megapixels(_ count: Int) -> String {
    let tenths = count / 100_000
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
  }
}
