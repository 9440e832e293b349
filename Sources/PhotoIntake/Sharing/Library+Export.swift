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

  /// Copies an asset's bytes to `destination` (a file path, or an existing folder to put it in under its
  /// name) without ever overwriting: written to a temporary file beside it, fsynced, then linked into place.
  ///
  /// The bytes are re-hashed while they are copied: an asset whose bytes no longer match is refused
  /// (``Error/alteredObject(_:)``) and nothing is left at the destination, unless `force` is set.
  ///
  /// - Returns: the path written.
  @discardableResult
  public nonisolated func export(_ id: AssetID, to destination: String, force: Bool = false)
    async throws(Error)
    -> String
  {
    guard let asset = try await asset(id) else { throw .notFound(id) }
    if asset.damage != nil && !force { throw .alteredObject(id) }
    return try await BlockingLanes.io.run { () throws(Error) -> String in
      let target: String
      if let info = try? Syscalls.lstat(destination), Platform.fileType(info.st_mode) == .directory {
        let name = asset.name ?? "\(asset.id).\(asset.type.preferredFilenameExtension)"
        target = (destination.hasSuffix("/") ? destination : destination + "/") + name
      } else {
        target = destination
      }
      let file = try self.store.open(asset)
      try ObjectExport.copy(file, to: target, expecting: force ? nil : asset.sha256, id: id)
      return target
    }
  }

  /// The other half of a Live Photo: the movie of a still, or the still of a movie, when both are in the
  /// library and carry the same content identifier (``LivePhotoPairing``); nil otherwise.
  public nonisolated func livePhotoPartner(of asset: Asset) async throws(Error) -> Asset? {
    guard let identifier = asset.metadata?.livePhotoID, !identifier.isEmpty else { return nil }
    let ids = try await read { database throws(DatabaseError) in
      try database.assets(withLivePhotoID: identifier, except: asset.id)
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
    let file = try store.open(asset)
    if let conversion {
      if !force {
        let facts: ContentFacts
        do { facts = try store.reader.facts(of: file) } catch {
          throw .unreadableObject(asset.id, reason: error.description)
        }
        guard facts.digest == asset.sha256 else { throw .alteredObject(asset.id) }
      }
      let bytes: [UInt8]
      do throws(ImagingError) {
        bytes = try CompatibleJPEG.make(fileAt: object, plan: conversion.typedGet())
      } catch {
        throw .cannotConvert(asset.id, error)
      }
      try ObjectExport.write(bytes, to: target)
      return ExportedFile(asset: asset.id, path: target, isConverted: true)
    }
    let expecting = force ? nil : asset.sha256
    if options.stripLocation && !asset.locationStripped {
      try ObjectExport.copyWithoutLocation(file, at: object, expecting: expecting, id: asset.id, to: target)
    } else {
      try ObjectExport.copy(file, to: target, expecting: expecting, id: asset.id)
    }
    return ExportedFile(asset: asset.id, path: target, isConverted: false)
  }
}
