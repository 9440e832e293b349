import PhotoMetadata

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durable copies out of the library, to paths the user chose: each one a ``DurableFile`` made beside its
/// target, published with `.neverReplacing` (nothing is ever overwritten, not even a dangling link) and made
/// durable with its folder.
enum ObjectExport {
  /// Copies the open object `object` to `target`, hashing it through the one ``ChunkedReader`` as it goes; with
  /// `expecting`, nothing appears at `target` unless the bytes hash to it.
  static func copy(_ object: OpenFile, to target: String, expecting: SHA256Digest?, id: AssetID)
    throws(Library.Error)
  {
    try refuseExisting(target)
    let (folder, name) = try split(target)
    let new: DurableFile
    do throws(SystemError) {
      new = try DurableFile.create(in: folder, name: DurableFile.temporaryName(for: name))
    } catch {
      throw Library.Error(error)
    }
    do throws(Library.Error) {
      let tally = ContentTally()
      try ChunkedReader().read(
        object, tallying: tally, failure: { Library.Error.unreadableObject(id, reason: $0.description) }
      ) {
        chunk throws(Library.Error) in
        do throws(SystemError) { try new.write(chunk) } catch { throw Library.Error(error) }
      }
      if let expecting, tally.finish().digest != expecting { throw Library.Error.alteredObject(id) }
      try publish(new, as: name, in: folder, target: target)
    } catch {
      new.discard()
      throw error
    }
  }

  /// Writes `bytes` (a converted picture) to a new file at `target`.
  static func write(_ bytes: [UInt8], to target: String) throws(Library.Error) {
    try refuseExisting(target)
    let (folder, name) = try split(target)
    do throws(SystemError) {
      try DurableFile.write(bytes, in: folder, as: name, .neverReplacing, syncFolder: true)
    } catch {
      throw error.code == EEXIST ? .destinationExists(target) : Library.Error(error)
    }
  }

  /// Writes a copy of the object at `objectPath` without its location (``LocationStripper``: only metadata
  /// bytes change) to a new file at `target`, after checking the object's hash when `expecting` is given.
  static func copyWithoutLocation(
    _ object: OpenFile, at objectPath: String, expecting: SHA256Digest?, id: AssetID, to target: String
  ) throws(Library.Error) {
    if let expecting {
      let facts: ContentFacts
      do throws(SystemError) { facts = try ChunkedReader().facts(of: object) } catch {
        throw .unreadableObject(id, reason: error.description)
      }
      guard facts.digest == expecting else { throw .alteredObject(id) }
    }
    try refuseExisting(target)
    let (folder, name) = try split(target)
    let temporary = DurableFile.temporaryName(for: name)
    do throws(MetadataError) {
      // The stripper creates the file itself, new (it fails if the name exists: then it is someone else's).
      _ = try LocationStripper.strip(fileAt: objectPath, to: folder.path(of: temporary))
    } catch {
      if case .io(let code) = error {
        if code != EEXIST { try? folder.unlink(temporary) }
        throw .io(reason: String(cString: strerror(code)))
      }
      throw .cannotConvert(id, .malformed(reason: "its location cannot be removed: \(error.description)"))
    }
    let new: DurableFile
    do throws(SystemError) {
      new = try DurableFile.adopting(temporary, in: folder)
    } catch {
      try? folder.unlink(temporary)
      throw Library.Error(error)
    }
    do throws(Library.Error) {
      try publish(new, as: name, in: folder, target: target)
    } catch {
      new.discard()
      throw error
    }
  }

  /// Steps 3 to 5 of ``DurableFile`` for an export: sealed, linked to `name` (never replacing), folder fsynced.
  private static func publish(_ new: DurableFile, as name: String, in folder: Directory, target: String)
    throws(Library.Error)
  {
    do throws(SystemError) {
      try new.seal()
      try new.publish(as: name, in: folder, .neverReplacing, syncFolder: true)
    } catch {
      throw error.code == EEXIST ? .destinationExists(target) : Library.Error(error)
    }
  }

  private static func refuseExisting(_ target: String) throws(Library.Error) {
    if (try? Syscalls.lstat(target)) != nil { throw .destinationExists(target) }
  }

  private static func split(_ target: String) throws(Library.Error) -> (Directory, String) {
    do throws(SystemError) {
      return try DurableFile.split(target)
    } catch {
      throw Library.Error(error)
    }
  }
}
