import Foundation

/// What became of one download.
enum DownloadOutcome: Sendable {
  /// The asset is in the library.
  case imported(Asset)
  /// The bytes did not hash to the record's name: refused, nothing kept.
  case refused
  /// The import failed (disk full, a damaged file): the ledger still holds it as downloading.
  case failed(Importer.Error)
}

extension Library {
  /// Imports an asset downloaded from iCloud through the same path as any import: the engine's file is copied
  /// into staging and hashed, the hash must be the record's name (else the bytes are refused), then intent,
  /// link and row — the row, its listing and the ledger's "synced" in one transaction.
  ///
  /// The asset keeps the id, name, import time and strip status its record carries, and is listed in the
  /// batch the record names as its home until that batch's own record orders it.
  func importDownload(path: String, fields: AssetRecordFields, account: String) async -> DownloadOutcome {
    do throws(Error) {
      return try await whileWriting { () throws(Error) in
        await importDownloadWhileWriting(path: path, fields: fields, account: account)
      }
    } catch {
      return .failed(.database(reason: error.description))
    }
  }

  private func importDownloadWhileWriting(path: String, fields: AssetRecordFields, account: String) async
    -> DownloadOutcome
  {
    let home = fields.homeBatch ?? "icloud-\(account.prefix(12))"
    let createdAt = fields.importedAt ?? Date().timeIntervalSince1970
    let placement: (batch: BatchRecord, position: Int, idIsFree: Bool)
    let assetID = fields.assetID
    do throws(DatabaseError) {
      placement = try await manifest.ledgerTransaction { ledger throws(DatabaseError) in
        let batch = try ledger.ensureLibraryBatch(home, createdAt: createdAt)
        // A loop, not `Optional.map`: before the iOS 18 SDK, `map` rethrows `any Error`, not the typed error.
        var free = false
        if let id = assetID { free = !(try ledger.libraryAssetExists(id: id)) }
        return (batch, try ledger.nextPosition(batchSequence: batch.sequence), free)
      }
    } catch {
      return .failed(.database(reason: error.description))
    }
    var configuration = Importer.Configuration()
    configuration.maximumConcurrentItems = 1
    let importer = Importer(library: self, configuration: configuration)
    let staged = await importer.stageItem(
      FileItemSource(path: path), index: placement.position, batch: placement.batch, progress: { _ in })
    switch staged {
    case .finished(let report):
      if case .failed(let error) = report.result { return .failed(error) }
      return .failed(.database(reason: "the download was not staged"))
    case .ready(var request, _):
      guard request.staged.digest.hex == fields.sha256 else {
        request.staged.discard()
        return .refused
      }
      request.name = NameSanitizer.sanitize(fields.name)
      if placement.idIsFree, let id = fields.assetID { request.assetID = AssetID(rawValue: id) }
      request.importedAt = fields.importedAt.map(Date.init(timeIntervalSince1970:))
      request.locationStripped = fields.locationStripped
      request.sync = .download(
        DownloadNote(
          account: account, sha256: fields.sha256, systemFields: fields.systemFields, homeBatch: home,
          homeKey: fields.homeKey ?? PositionKey.initial(placement.position).rawValue,
          homeBatchCreatedAt: createdAt, presence: fields.presence))
      let report = await importer.commitItem(request, index: placement.position, typeHintMismatch: nil)
      switch report.result {
      case .imported(let asset), .duplicate(let asset): return .imported(asset)
      case .failed(let error): return .failed(error)
      }
    }
  }
}
