import PhotoMetadata
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Library {
  /// One file written by ``export(_:to:options:force:)``.
  public struct ExportedFile: Sendable, Hashable {
    /// The asset it was made from.
    public var asset: AssetID
    /// Where it was written.
    public var path: String
    /// Whether it is a JPEG converted from the stored picture; false when it holds the stored bytes (with
    /// the location removed, if asked) — a movie, or a JPEG that needed neither turning nor resizing.
    public var isConverted: Bool
  }

  /// The other half of a Live Photo: the movie of a still, or the still of a movie, when both are in the
  /// library and carry the same content identifier (``LivePhotoPairing``); nil otherwise.
  public nonisolated func livePhotoPartner(of asset: Asset) async throws(Error) -> Asset? {
    guard let identifier = asset.metadata?.livePhotoID, !identifier.isEmpty else { return nil }
    let ids = try await read { database throws(Error) -> [AssetID] in
      do throws(DatabaseError) {
        // Identifiers are compared apart from letter case (as Photos does); the spellings writers use are
        // upper case (iPhone) or as written, so these three cover them through the index.
        let statement = try database.prepare(
          "SELECT id FROM assets WHERE live_photo_id IN (?1, ?2, ?3) AND id != ?4 ORDER BY imported_at LIMIT 8"
        )
        try statement.bind(
          .text(identifier), .text(identifier.uppercased()), .text(identifier.lowercased()),
          .text(asset.id.rawValue))
        var ids: [AssetID] = []
        while try statement.step() { ids.append(AssetID(rawValue: statement.text(0) ?? "")) }
        return ids
      } catch {
        throw Error(error)
      }
    }
    for id in ids {
      guard let other = try await self.asset(id), other.type.isImage != asset.type.isImage else { continue }
      let pairing =
        asset.type.isImage
        ? LivePhotoPairing(still: asset.metadata, movie: other.metadata)
        : LivePhotoPairing(still: other.metadata, movie: asset.metadata)
      if pairing.isLivePhoto { return other }
    }
    return nil
  }

  /// Exports an asset — and, for half of a Live Photo, its other half — as `options` asks: the stored bytes,
  /// or a JPEG every device opens; with or without location; at most `maxPixelSize` pixels.
  ///
  /// `destination` is an existing folder (each file keeps the asset's name, with `.jpg` when converted) or a
  /// file path (a Live Photo's other half goes beside it, same name, its own extension). Nothing is ever
  /// overwritten: every destination is checked before anything is written, and each file is written to a
  /// temporary file beside it, fsynced, then linked into place (failing if something appeared meanwhile).
  /// If one file fails, the ones written before it are removed.
  ///
  /// The stored bytes are re-hashed first; an asset whose bytes no longer match is refused
  /// (``Error/alteredObject(_:)``) unless `force` is set. Conversions run on threads of their own, never on
  /// the cooperative pool. Movies are exported as they are: there is no video encoder here, and
  /// ``PreparedFile/files(for:in:as:folder:)`` re-encodes them on Apple platforms.
  ///
  /// - Returns: the files written, the asset's first.
  /// - Throws: ``Error/notFound(_:)``, ``Error/destinationExists(_:)``, ``Error/alteredObject(_:)``,
  ///   ``Error/cannotConvert(_:_:)`` (bombs are refused before any decode), I/O errors.
  public nonisolated func export(
    _ id: AssetID, to destination: String, options: ExportOptions, force: Bool = false
  ) async throws(Error) -> [ExportedFile] {
    guard let asset = try await asset(id) else { throw .notFound(id) }
    var parts = [asset]
    if let partner = try await livePhotoPartner(of: asset) { parts.append(partner) }
    // Which parts become JPEGs decides their names; the headers tell, before anything is written. Each part is
    // then converted by the plan that named it.
    let objects = parts.map { objectPath(for: $0) }
    let candidates = parts
    // nil: exported as it is. A refusal (a bomb) counts as a conversion; exportPart reports it, typed.
    let plans = await BlockingLanes.shared.run { () -> [Result<CompatibleJPEG.Plan, ImagingError>?] in
      zip(candidates, objects).map { part, object in
        guard part.type.isImage, options.convertsStills else { return nil }
        do throws(ImagingError) {
          return try CompatibleJPEG.plan(fileAt: object, options: options).map { .success($0) }
        } catch {
          return .failure(error)
        }
      }
    }
    let converts = plans.map { $0 != nil }
    let targets = Self.exportTargets(parts, converts: converts, destination: destination)
    for target in targets where (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
    var written: [ExportedFile] = []
    for ((part, plan), target) in zip(zip(parts, plans), targets) {
      do {
        let file = try await BlockingLanes.shared.run { () throws(Error) in
          try self.exportPart(part, plan: plan, to: target, options: options, force: force)
        }
        written.append(file)
      } catch {
        for file in written { try? Syscalls.unlink(file.path) }
        throw error
      }
    }
    return written
  }

  /// Where each part goes. A JPEG, converted or not, keeps its name; anything converted gets ".jpg".
  private static func exportTargets(_ parts: [Asset], converts: [Bool], destination: String) -> [String] {
    let isFolder =
      (try? Syscalls.lstat(destination)).map { Platform.fileType($0.st_mode) == .directory } ?? false
    func renamed(_ index: Int) -> Bool { converts[index] && parts[index].type != .jpeg }
    if isFolder {
      let folder = destination.hasSuffix("/") ? destination : destination + "/"
      return parts.indices.map { index in
        // As imported, as `export` always named its files.
        let stored = parts[index].name ?? "\(parts[index].id).\(parts[index].type.preferredFilenameExtension)"
        return folder + (renamed(index) ? stem(stored) + ".jpg" : stored)
      }
    }
    var targets = [destination]
    for index in parts.indices.dropFirst() {
      targets.append(
        stem(destination) + "." + (renamed(index) ? "jpg" : parts[index].type.preferredFilenameExtension))
    }
    return targets
  }

  /// `name` without its extension (a leading dot is part of the name).
  private static func stem(_ name: String) -> String {
    let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
    guard let dot = name[slash...].lastIndex(of: "."), dot != slash else { return name }
    return String(name[..<dot])
  }

  /// Writes one asset to `target` (blocking: run on a lane): converted by `conversion`'s plan (or refused with
  /// its error), or as it is (without location when asked) when there is none.
  private nonisolated func exportPart(
    _ asset: Asset, plan conversion: Result<CompatibleJPEG.Plan, ImagingError>?, to target: String,
    options: ExportOptions, force: Bool
  ) throws(Error) -> ExportedFile {
    if asset.damage != nil && !force { throw .alteredObject(asset.id) }
    let object = objectPath(for: asset)
    let descriptor = try openObject(asset.sha256, id: asset.id)
    defer { Syscalls.close(descriptor) }
    if let conversion {
      if !force {
        let digest: SHA256Digest
        do throws(SystemError) {
          digest = try FileHasher.hash(descriptor: descriptor, path: object)
        } catch {
          throw Error(error)
        }
        guard digest == asset.sha256 else { throw .alteredObject(asset.id) }
      }
      let bytes: [UInt8]
      do throws(ImagingError) {
        bytes = try CompatibleJPEG.make(fileAt: object, plan: conversion.typedGet())
      } catch {
        throw .cannotConvert(asset.id, error)
      }
      try FileExporter.writeNoClobber(bytes, to: target)
      return ExportedFile(asset: asset.id, path: target, isConverted: true)
    }
    if options.stripLocation && !asset.locationStripped {
      try FileExporter.stripNoClobber(
        object, descriptor: descriptor, expecting: force ? nil : asset.sha256,
        id: asset.id, to: target)
    } else {
      try FileExporter.copyNoClobber(
        from: descriptor, path: object, to: target, expecting: force ? nil : asset.sha256, id: asset.id)
    }
    return ExportedFile(asset: asset.id, path: target, isConverted: false)
  }
}

extension FileExporter {
  /// Writes a copy of the object without its location (``LocationStripper``: only metadata bytes change)
  /// to a new file at `target`, after checking the object's hash when `expecting` is given.
  static func stripNoClobber(
    _ object: String, descriptor: Int32, expecting: SHA256Digest?, id: AssetID, to target: String
  ) throws(Library.Error) {
    if let expecting {
      let digest: SHA256Digest
      do throws(SystemError) {
        digest = try FileHasher.hash(descriptor: descriptor, path: object)
      } catch {
        throw Library.Error(error)
      }
      guard digest == expecting else { throw .alteredObject(id) }
    }
    if (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
    let temporary = temporaryPath(beside: target)
    // Removed only if the stripper created it: a file already at that name (EEXIST) is someone else's.
    var created = true
    defer { if created { try? Syscalls.unlink(temporary) } }
    do throws(MetadataError) {
      _ = try LocationStripper.strip(fileAt: object, to: temporary)
    } catch {
      if case .io(EEXIST) = error { created = false }
      if case .io(let code) = error { throw .io(reason: String(cString: strerror(code))) }
      throw .cannotConvert(id, .malformed(reason: "its location cannot be removed: \(error.description)"))
    }
    do throws(SystemError) {
      let written = try Syscalls.open(temporary, O_RDONLY | O_NOFOLLOW)
      defer { Syscalls.close(written) }
      try Syscalls.fsync(written, path: temporary)
    } catch {
      throw Library.Error(error)
    }
    try publish(temporary, at: target)
  }
}
