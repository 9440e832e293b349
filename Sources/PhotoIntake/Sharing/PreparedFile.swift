import Foundation
import PhotoMetadata

/// A library asset as a named file for another app — a share sheet, `PHAssetCreationRequest` — optionally
/// without its location.
///
/// Objects are stored under their SHA-256, without an extension, and must never be written to; other apps need
/// a name whose extension matches the bytes ("IMG_0100.heic"). So the file is prepared in a temporary folder:
/// a hard link to the object when it goes as it is (nothing is copied), or a copy that `LocationStripper`
/// wrote without GPS when the location must go (only metadata bytes change; pixels are not re-encoded).
/// Call ``release()`` when the other app is done with it.
///
/// ```swift
/// let file = try PreparedFile.make(for: asset, in: library, withoutLocation: true)
/// defer { file.release() }
/// present(ShareLink(item: URL(fileURLWithPath: file.path)))
/// ```
public struct PreparedFile: Sendable, Hashable {
  /// The named file.
  public var path: String
  /// What was removed to take the location out (empty when nothing was, or nothing had to be).
  public var removedLocation: [String]

  /// Why a file could not be prepared.
  public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// The asset's bytes are missing or damaged in the library.
    case notStored(AssetID)
    /// The location cannot be removed from this file without re-encoding it.
    case cannotRemoveLocation(MetadataError)
    /// The temporary folder could not be written.
    case writeFailed(reason: String)
    /// No compatible copy (a JPEG, an H.264 movie) could be made; nothing was prepared.
    case cannotConvert(ImagingError)
    /// The task was cancelled; whatever the conversion had written was removed.
    case cancelled

    public var description: String {
      switch self {
      case .notStored:
        "The photo's file is missing or damaged in the app's library. Import it again, then try once more."
      case .cannotRemoveLocation(let error):
        "The location cannot be removed from this file without re-encoding it, so it was not shared: "
          + error.description
      case .writeFailed(let reason):
        "A temporary copy could not be written (\(reason)). Free some space and try again."
      case .cannotConvert(let error):
        "No compatible copy could be made, so nothing was shared: " + error.description
      case .cancelled:
        "Preparing the file was cancelled; nothing was kept."
      }
    }
  }

  /// The folder prepared files go to by default: `<temporary directory>/PhotoIntakePrepared`.
  public static var defaultFolder: String {
    let temporary = NSTemporaryDirectory()
    return (temporary.hasSuffix("/") ? temporary : temporary + "/") + "PhotoIntakePrepared"
  }

  /// Prepares `asset` from `library`.
  ///
  /// - Parameters:
  ///   - withoutLocation: remove EXIF/XMP GPS and QuickTime location; an asset imported with its location
  ///     already stripped is linked as it is.
  ///   - folder: where to put the file; each file gets a folder of its own inside it.
  /// - Throws: ``Error``.
  public static func make(
    for asset: Asset, in library: Library, withoutLocation: Bool, folder: String = defaultFolder
  ) throws(Error) -> PreparedFile {
    let object = library.objectPath(for: asset)
    guard asset.damage == nil, (try? Syscalls.lstat(object)) != nil else { throw .notStored(asset.id) }
    let holder = try makeHolder(in: folder)
    let path = holder + "/" + filename(for: asset)
    if withoutLocation && !asset.locationStripped {
      do {
        let report = try LocationStripper.strip(fileAt: object, to: path)
        return PreparedFile(path: path, removedLocation: report.removed)
      } catch .io(let code) {
        Syscalls.removeEmptyDirectory(holder)
        throw .writeFailed(reason: String(cString: strerror(code)))
      } catch {
        Syscalls.removeEmptyDirectory(holder)
        throw .cannotRemoveLocation(error)
      }
    }
    do throws(Importer.Error) {
      try FilePlacement.place(object, at: path)
    } catch {
      Syscalls.removeEmptyDirectory(holder)
      throw .writeFailed(reason: error.description)
    }
    return PreparedFile(path: path, removedLocation: [])
  }

  /// Makes a private folder of its own for one prepared file inside `folder`.
  static func makeHolder(in folder: String) throws(Error) -> String {
    let holder = folder + "/" + UUID().uuidString.lowercased()
    do {
      try Syscalls.makeDirectory(folder, mode: 0o700)
      try Syscalls.makeDirectory(holder, mode: 0o700)
    } catch {
      throw .writeFailed(reason: error.description)
    }
    return holder
  }

  /// Deletes the prepared file (never the library's object: a link is only a second name).
  public func release() {
    try? Syscalls.unlink(path)
    if let slash = path.lastIndex(of: "/") { Syscalls.removeEmptyDirectory(String(path[..<slash])) }
  }

  /// "IMG_0100.heic": the asset's name without its extension (its sanitized original name, or "Photo" or
  /// "Video"), then the extension of what the bytes are, so that a file named ".jpg" holding HEIC is sent as
  /// ".heic".
  public static func filename(for asset: Asset) -> String {
    var stem = asset.name ?? ""
    if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
    if stem.isEmpty { stem = asset.type.isImage ? "Photo" : "Video" }
    return stem + "." + asset.type.preferredFilenameExtension
  }
}
