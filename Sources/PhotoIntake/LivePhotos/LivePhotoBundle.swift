import PhotoMetadata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The still and the movie of a Live Photo as an item provider hands them over: a folder (a `.pvt` package)
/// holding both files, found by their bytes.
///
/// A Live Photo picked with `PHPickerViewController` or `PhotosPicker` registers
/// `com.apple.live-photo-bundle`; loading that type gives a folder with the still (HEIC or JPEG) and the paired
/// movie (QuickTime), named like `IMG_0100.HEIC` and `IMG_0100.MOV`. The names are not trusted (invariant 4):
/// each regular file's first bytes decide what it is; other entries are ignored.
public struct LivePhotoBundle: Sendable, Hashable {
  /// The type identifier of the bundle, as the picker registers it.
  public static let typeIdentifier = "com.apple.live-photo-bundle"
  /// The abstract Live Photo type (`UTType.livePhoto`); a provider listing it can produce the bundle too.
  public static let livePhotoTypeIdentifier = "com.apple.live-photo"

  /// The bundle type some providers register instead of ``typeIdentifier`` (seen from the picker for Live
  /// Photos shared from other apps or synced libraries). Loading it gives the same folder; a provider that lists
  /// only it and a still type would otherwise import silently as a still.
  public static let privateTypeIdentifier = "com.apple.private.live-photo-bundle"

  /// Whether a registered type identifier stands for a Live Photo bundle.
  public static func isBundleType(_ identifier: String) -> Bool {
    identifier == typeIdentifier || identifier == privateTypeIdentifier
      || identifier == livePhotoTypeIdentifier
  }

  /// The still image.
  public var stillPath: String
  /// The still's format, from its bytes.
  public var stillType: MediaType
  /// The paired movie; nil when the provider handed over a still alone.
  public var moviePath: String?
  /// The movie's format, from its bytes; nil without a movie.
  public var movieType: MediaType?

  /// A bundle of a still and, when there is one, its movie.
  public init(stillPath: String, stillType: MediaType, moviePath: String?, movieType: MediaType?) {
    self.stillPath = stillPath
    self.stillType = stillType
    self.moviePath = moviePath
    self.movieType = movieType
  }

  /// Finds the still and the movie at `path`: a folder holding both, or a single still image.
  ///
  /// When a folder holds several stills or movies, the least-derived of each kind is chosen (HEIC before JPEG,
  /// QuickTime before MPEG-4, as ``RepresentationChoice`` ranks them), then the first by name.
  ///
  /// - Throws: ``Importer/Error/conversionFailed(reason:)`` when there is no still image;
  ///   ``Importer/Error/notRegularFile(_:)`` for a symbolic link or device in place of the bundle.
  public static func open(at path: String) throws(Importer.Error) -> LivePhotoBundle {
    let kind: FileKind
    do {
      kind = Platform.fileType(try Syscalls.lstat(path).st_mode)
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
    var stills: [(path: String, type: MediaType)] = []
    var movies: [(path: String, type: MediaType)] = []
    switch kind {
    case .regular:
      if let type = try sniff(path) {
        if type.isImage { stills.append((path, type)) } else { movies.append((path, type)) }
      }
    case .directory:
      let names: [String]
      do {
        names = try Syscalls.contentsOfDirectory(path).sorted()
      } catch {
        throw Importer.Error(sourceFailure: error)
      }
      for name in names where !name.hasPrefix(".") {
        let child = path + "/" + name
        // Only regular files: a link inside a bundle is never followed.
        guard let info = try? Syscalls.lstat(child), Platform.fileType(info.st_mode) == .regular,
          let type = try sniff(child)
        else { continue }
        if type.isImage { stills.append((child, type)) } else { movies.append((child, type)) }
      }
    default:
      throw .notRegularFile(kind)
    }
    // `min` keeps the first of equal ranks, and the names were sorted.
    guard
      let still = stills.min(by: { RepresentationChoice.rank($0.type) < RepresentationChoice.rank($1.type) })
    else {
      throw .conversionFailed(reason: "the Live Photo bundle holds no still image")
    }
    let movie = movies.min { RepresentationChoice.rank($0.type) < RepresentationChoice.rank($1.type) }
    return LivePhotoBundle(
      stillPath: still.path, stillType: still.type, moviePath: movie?.path, movieType: movie?.type)
  }

  /// The media type of a file's first bytes; nil for anything else.
  private static func sniff(_ path: String) throws(Importer.Error) -> MediaType? {
    do {
      let file = try OpenFile(path: path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
      return MediaType.sniff(try file.bytes(at: 0, length: MediaType.sniffLength))
    } catch {
      throw Importer.Error(sourceFailure: error)
    }
  }
}
