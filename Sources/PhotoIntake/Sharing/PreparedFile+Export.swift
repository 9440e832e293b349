import PhotoMetadata

extension PreparedFile {
  /// Prepares `asset` as `options` asks: the stored bytes (linked, or copied without location), or a JPEG
  /// that every device opens (``ExportOptions/Format/jpeg``), made on the calling thread.
  ///
  /// A movie is prepared as it is here; ``files(for:in:as:folder:)`` re-encodes movies as H.264 on Apple
  /// platforms.
  ///
  /// - Throws: ``Error/cannotConvert(_:)`` for a bomb (refused before any decode) or a picture that cannot
  ///   be decoded, ``Error/notStored(_:)``, ``Error/writeFailed(reason:)``.
  public static func make(
    for asset: Asset, in library: Library, as options: ExportOptions, folder: String = defaultFolder
  ) throws(Error) -> PreparedFile {
    guard asset.type.isImage, options.convertsStills else {
      return try make(for: asset, in: library, withoutLocation: options.stripLocation, folder: folder)
    }
    let object = library.objectPath(for: asset)
    guard asset.damage == nil, (try? Syscalls.lstat(object)) != nil else { throw .notStored(asset.id) }
    let bytes: [UInt8]?
    do throws(ImagingError) {
      bytes = try CompatibleJPEG.make(fileAt: object, options: options)
    } catch {
      throw .cannotConvert(error)
    }
    guard let bytes else {
      return try make(for: asset, in: library, withoutLocation: options.stripLocation, folder: folder)
    }
    let holder = try makeHolder(in: folder)
    var stem = filename(for: asset)
    if let dot = stem.lastIndex(of: ".") { stem = String(stem[..<dot]) }
    let path = holder + "/" + stem + ".jpg"
    do throws(SystemError) {
      try DurableFile.write(bytes, toFile: path, .replacing, syncFolder: false)
    } catch {
      Syscalls.removeEmptyDirectory(holder)
      throw .writeFailed(reason: ImagingError(error).description)
    }
    let removed =
      options.stripLocation && asset.metadata?.location != nil ? ["location (left out of the JPEG)"] : []
    return PreparedFile(path: path, removedLocation: removed)
  }

  /// Prepares `asset` and, when it is half of a Live Photo in the library, its other half (the still first):
  /// the files a `ShareLink` or a share sheet should send together.
  ///
  /// Conversions run on threads of their own, never on the cooperative pool. With ``ExportOptions/Format/jpeg``
  /// a movie is re-encoded as H.264 MPEG-4 on Apple platforms (`AVAssetExportSession`, without location
  /// metadata when asked); on Linux it goes as it is. If one file fails, those prepared before it are
  /// released.
  ///
  /// ```swift
  /// let files = try await PreparedFile.files(for: asset, in: library, as: ExportOptions(format: .jpeg))
  /// defer { files.forEach { $0.release() } }
  /// ```
  /// - Throws: ``Error``; a library that cannot be read is ``Error/notStored(_:)``.
  public static func files(
    for asset: Asset, in library: Library, as options: ExportOptions, folder: String = defaultFolder
  ) async throws(Error) -> [PreparedFile] {
    var parts = [asset]
    if let partner = try? await library.livePhotoPartner(of: asset) { parts.append(partner) }
    parts.sort { $0.type.isImage && !$1.type.isImage }
    var prepared: [PreparedFile] = []
    for part in parts {
      do {
        prepared.append(try await file(for: part, in: library, as: options, folder: folder))
      } catch {
        prepared.forEach { $0.release() }
        throw error
      }
    }
    return prepared
  }

  private static func file(for asset: Asset, in library: Library, as options: ExportOptions, folder: String)
    async throws(Error) -> PreparedFile
  {
    // `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
    #if canImport(AVFoundation, _version: 1)
      if asset.type.isMovie && options.format == .jpeg {
        return try await H264Transcoder.prepare(asset, in: library, options: options, folder: folder)
      }
    #endif
    return try await BlockingLanes.shared.run { () throws(Error) in
      try make(for: asset, in: library, as: options, folder: folder)
    }
  }
}
