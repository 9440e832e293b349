import Foundation

extension LibrarySync {
  /// An account signed in, out, or changed. Nothing here is ever deleted because of it: each account has its
  /// own ledger; photos of one account are never uploaded into another.
  func accountChanged(_ change: SyncEvent.SyncAccountChange) async {
    switch change {
    case .signIn(let user):
      await signedIn(user)
    case .signOut(let previous):
      await signedOut(previous)
    case .switchAccounts(let previous, let current):
      await signedOut(previous)
      await signedIn(current)
    }
  }

  /// An account is signed in: it becomes the account synced with; what no account holds yet is adopted by it;
  /// the engine runs from the state saved for it (a fresh engine that first saw it keeps running).
  private func signedIn(_ user: String) async {
    let saved = try? await write { ledger throws(DatabaseError) -> Data? in
      try ledger.ensureAccount(user)
      try ledger.setSetting("account", user)
      if try ledger.setting("enabled") == "1" { try ledger.adoptUnowned(into: user) }
      return try ledger.engineState(user)
    }
    status.account = user
    uploadsPaused = false
    let zone = try? await library.syncRead { ledger throws(DatabaseError) in try ledger.zoneState(user) }
    setCondition(zone == .deleted ? .zoneDeleted : .idle)
    if engineAccount != user {
      if engineAccount == nil && (saved ?? nil) == nil {
        engineAccount = user
      } else {
        await makeEngine(for: user)
      }
    }
    await refreshPending()
  }

  /// The account signed out (or is being replaced): its ledger and engine state stay for its return; the
  /// library keeps every photo; a fresh engine waits for the next account.
  private func signedOut(_ previous: String) async {
    _ = try? await write { ledger throws(DatabaseError) in
      if try ledger.setting("account") == previous { try ledger.setSetting("account", nil) }
    }
    status.account = nil
    uploadsPaused = false
    notBefore = nil
    setCondition(.signedOut)
    await makeEngine(for: nil)
  }

  /// Where each asset stands with iCloud, for per-photo badges.
  public func states(of assets: [Asset]) async -> [AssetID: AssetSyncState] {
    let account = status.account
    let paused = uploadsPaused
    let syncing = status.condition != .off
    let shas = assets.map { ($0.id, $0.sha256.hex) }
    return
      (try? await library.syncRead { ledger throws(DatabaseError) -> [AssetID: AssetSyncState] in
        var states: [AssetID: AssetSyncState] = [:]
        for (id, sha) in shas {
          states[id] = try Self.state(sha, account: syncing ? account : nil, paused: paused, ledger)
        }
        return states
      }) ?? [:]
  }

  /// Where one asset stands with iCloud.
  public func state(of asset: Asset) async -> AssetSyncState {
    await states(of: [asset])[asset.id] ?? .localOnly(.notSyncing)
  }

  private static func state(_ sha: String, account: String?, paused: Bool, _ ledger: SyncLedger)
    throws(DatabaseError) -> AssetSyncState
  {
    guard let account else { return .localOnly(.notSyncing) }
    guard let entry = try ledger.asset(account, sha) else {
      return try ledger.owners(ofAsset: sha).isEmpty ? .localOnly(.notSyncing) : .localOnly(.otherAccount)
    }
    switch entry.state {
    case .uploading: return paused ? .localOnly(.quotaExceeded) : .uploading
    case .synced: return .synced
    case .downloading: return .downloading
    case .deleting, .removed: return .removedRemotely
    case .conflicted: return .conflicted
    case .tooLarge: return .localOnly(.tooLarge)
    case .stopped: return .localOnly(.zoneDeleted)
    }
  }
}
