import Foundation

extension LibrarySync {
  /// Handles one engine event (`CKSyncEngineDelegate.handleEvent(_:syncEngine:)`).
  public func handleEvent(_ event: SyncEvent, engine: any SyncEngine) async {
    // Events of an engine this sync has replaced (an account change, an expired token) are stale.
    guard engine === self.engine else { return }
    switch event {
    case .stateUpdate(let state):
      // Written with the next ledger transaction, or at the end of the fetch or send: never ahead of what the
      // ledger holds, since every change the state has moved past was handled (and committed) before it came.
      guard let account = engineAccount ?? status.account else { return }
      unsavedState = (account, state.data)
    case .accountChange(let change):
      await accountChanged(change)
    case .fetchedDatabaseChanges(let changes):
      for deletion in changes.deletedZones where deletion.zone == configuration.zone {
        switch deletion.reason {
        case .deleted, .purged: await zoneDeleted()
        case .encryptedDataReset: await encryptedDataReset()
        }
      }
    case .fetchedRecordZoneChanges(let changes):
      await applyFetched(changes)
    case .sentDatabaseChanges(let sent):
      if sent.savedZones.contains(configuration.zone), let account = status.account {
        _ = try? await write { ledger throws(DatabaseError) in
          if try ledger.zoneState(account) == .unknown { try ledger.setZoneState(account, .created) }
        }
      }
      for failure in sent.failedZoneSaves where failure.zone == configuration.zone {
        await note(failure.error)
      }
    case .sentRecordZoneChanges(let sent):
      await applySent(sent)
    case .didFetchRecordZoneChanges(let zone, let error):
      guard zone == configuration.zone, let error else { return }
      fetchFailed = true
      await note(error)
    case .didFetchChanges:
      if !fetchFailed { await concludeCensus() }
      await saveEngineState()
    case .didSendChanges:
      await saveEngineState()
    case .willFetchChanges, .willFetchRecordZoneChanges, .willSendChanges:
      break
    }
  }

  /// Maps a CloudKit failure to the status, and does what it calls for.
  func note(_ error: SyncError) async {
    status.lastError = error
    switch error.code {
    case .networkUnavailable, .networkFailure, .serverResponseLost:
      setCondition(.offline)
    case .requestRateLimited, .zoneBusy, .serviceUnavailable:
      // Nothing is sent again before the wait the server asked for (30 s when it named none).
      let wait = error.retryAfter ?? .seconds(30)
      let until = configuration.uptime() + wait
      notBefore = max(notBefore ?? until, until)
      setCondition(.waiting(retryAfter: wait, reason: error.code))
    case .quotaExceeded:
      await pauseUploads()
    case .notAuthenticated:
      setCondition(.signedOut)
    case .accountTemporarilyUnavailable:
      setCondition(.accountUnavailable)
    case .changeTokenExpired:
      needsRefetch = true
    case .userDeletedZone:
      await zoneDeleted()
    case .zoneNotFound:
      await zoneNotFound()
    case .badContainer, .missingEntitlement, .permissionFailure, .badDatabase, .incompatibleVersion,
      .invalidArguments, .serverRejectedRequest, .internalError:
      setCondition(.failed(error.code))
    default:
      publish()
    }
  }

  /// `quotaExceeded`: asset uploads stop (the engine forgets them; the ledger keeps them as pending),
  /// everything stays here, downloads and removals go on.
  func pauseUploads() async {
    uploadsPaused = true
    if let engine {
      let assetSaves = engine.pendingRecordZoneChanges.filter {
        if case .saveRecord(let id) = $0 { SyncRecord.sha256(fromName: id.name) != nil } else { false }
      }
      engine.remove(pendingRecordZoneChanges: assetSaves)
    }
    setCondition(.quotaExceeded)
  }

  /// The zone is gone because the user deleted the app's data from iCloud (or another device deleted it):
  /// syncing stops, every photo stays here, and every ledger row forgets the server (nothing is uploaded
  /// again unless the app asks, ``uploadAgainAfterZoneDeletion()``).
  func zoneDeleted() async {
    guard let account = status.account else { return }
    _ = try? await write { ledger throws(DatabaseError) in
      try ledger.stopAfterZoneDeletion(account)
    }
    if let engine { engine.remove(pendingRecordZoneChanges: engine.pendingRecordZoneChanges) }
    setCondition(.zoneDeleted)
  }

  /// `zoneNotFound`: a zone this library never saw is simply not made yet (it is created, and the changes sent
  /// again); a zone it used to sync with was deleted: as ``zoneDeleted()``.
  func zoneNotFound() async {
    guard let account = status.account else { return }
    let known =
      (try? await library.syncRead { ledger throws(DatabaseError) in try ledger.zoneState(account) })
    if known == .created {
      await zoneDeleted()
    } else {
      engine?.add(pendingDatabaseChanges: [.saveZone(configuration.zone)])
      await refreshPending()
    }
  }

  /// The user reset their encrypted data: the zone is gone, but not by the user's choice to stop — everything
  /// is uploaded again.
  func encryptedDataReset() async {
    guard let account = status.account else { return }
    _ = try? await write { ledger throws(DatabaseError) in
      try ledger.stopAfterZoneDeletion(account)
      try ledger.restartAfterZoneDeletion(account)
    }
    engine?.add(pendingDatabaseChanges: [.saveZone(configuration.zone)])
    await refreshPending()
  }

  /// The change token expired: a fresh engine re-fetches the whole zone, and whatever the ledger holds as
  /// synced that the re-fetch does not bring was deleted meanwhile (a census, concluded at the end).
  func refetchEverything() async {
    needsRefetch = false
    guard let account = status.account else { return }
    unsavedState = nil
    _ = try? await write { ledger throws(DatabaseError) in
      try ledger.setCensus(account, max(1, try ledger.census(account) + 1))
      try ledger.setEngineState(account, nil)
    }
    await makeEngine(for: account)
    await refreshPending()
    fetchFailed = false
    do {
      try await engine?.fetchChanges()
    } catch {
      await note(Self.syncError(error))
    }
  }

  /// At the end of a complete fetch during a census: a record the ledger holds as on the server that the
  /// re-fetch did not bring is gone from the server outright (PhotoIntake only ever saves tombstones, so
  /// something else deleted it): a photo still here is saved again, nothing is removed.
  func concludeCensus() async {
    guard let account = status.account,
      let generation = try? await library.syncRead({ ledger throws(DatabaseError) in
        try ledger.census(account)
      }),
      generation > 0
    else { return }
    _ = try? await write { ledger throws(DatabaseError) in
      for entry in try ledger.assets(account, in: [.synced, .removed]) where entry.census < generation {
        try Self.recordVanished(entry.sha256, account, ledger)
      }
      try ledger.setCensus(account, 0)
    }
  }
}
