import PhotoMetadata

/// Makes a staged copy of an item without its location, durable like any staged file.
enum LocationRemoval {
  /// Writes `staged` without location to `destination`, then hashes and fsyncs the copy.
  ///
  /// - Returns: the copy, or nil when the file carries no location (the original bytes are then kept as
  ///   they are, so the stored file stays byte-exact).
  /// - Throws: ``Importer/Error/metadata(_:)`` when the location cannot be removed losslessly;
  ///   I/O errors of the copy.
  static func strip(_ staged: StagedFile, as name: String) throws(Importer.Error) -> StagedFile? {
    let destination = staged.folder.path(of: name)
    let report: StripReport
    do {
      report = try LocationStripper.strip(fileAt: staged.path, to: destination)
    } catch .io(let code) {
      throw Importer.Error(libraryFailure: SystemError(.write, code, path: destination))
    } catch {
      throw .metadata(error)
    }
    guard report.removedLocation else {
      try? staged.folder.unlink(name)
      return nil
    }
    do {
      return try seal(name, in: staged.folder)
    } catch {
      throw Importer.Error(libraryFailure: error)
    }
  }

  /// Hashes a file written by someone else (the stripper), makes it read-only and flushes it to stable storage:
  /// steps 3 on of ``DurableFile``, like any staged item.
  private static func seal(_ name: String, in folder: Directory) throws(SystemError) -> StagedFile {
    let file = try DurableFile.adopting(name, in: folder)
    let facts = try ChunkedReader().facts(of: file.file)
    try file.seal(readOnly: true)
    let info = try file.file.status()
    return StagedFile(
      folder: folder, name: name, digest: facts.digest, size: facts.size, prefix: facts.prefix,
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }
}
