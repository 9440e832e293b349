#if canImport(CloudKit) && canImport(SwiftUI)
  import CloudKit
  import Observation
  import PhotoIntake
  import SwiftUI

  /// The state of iCloud sync for SwiftUI: an on/off switch, the ``PhotoIntake/SyncStatus`` to show, and each
  /// photo's ``PhotoIntake/AssetSyncState`` for its badge.
  ///
  /// ```swift
  /// let model = LibrarySyncModel(library: library, database: container.privateCloudDatabase)
  /// Toggle("iCloud", isOn: Binding(get: { model.isEnabled }, set: { model.setEnabled($0) }))
  /// ```
  @available(iOS 17.0, macOS 14.0, *)
  @MainActor
  @Observable
  public final class LibrarySyncModel {
    /// The sync.
    public let sync: LibrarySync
    /// Whether syncing is on (the app's switch).
    public private(set) var isEnabled = false
    /// The status now.
    public private(set) var status = SyncStatus()
    /// Each photo's state, for the photos asked about with ``refreshBadges(for:)``.
    public private(set) var badges: [AssetID: AssetSyncState] = [:]
    @ObservationIgnored private var following: Task<Void, Never>?
    @ObservationIgnored private var observed: [Asset] = []

    /// A model syncing `library` with `database` (the user's private database), off until
    /// ``setEnabled(_:)``.
    public init(library: Library, database: CKDatabase) {
      sync = LibrarySync(library: library) { state, delegate in
        CloudKitSyncEngine(database: database, state: state, delegate: delegate)
      }
    }

    /// Turns syncing on or off. Off keeps every photo; on, what was imported meanwhile is uploaded.
    public func setEnabled(_ enabled: Bool) {
      guard enabled != isEnabled else { return }
      isEnabled = enabled
      following?.cancel()
      following = nil
      let sync = self.sync
      if enabled {
        following = Task { [weak self] in
          await sync.start()
          for await status in await sync.statusUpdates() {
            guard let self else { return }
            self.status = status
            await self.refreshBadges(for: self.observed)
          }
        }
      } else {
        Task { await sync.stop() }
        status = SyncStatus()
        badges = [:]
      }
    }

    /// Reads the state of `assets` (the photos on screen); they are read again at each status change.
    public func refreshBadges(for assets: [Asset]) async {
      observed = assets
      guard isEnabled else { return }
      badges = await sync.states(of: assets)
    }
  }

  /// A small iCloud symbol for a photo's ``PhotoIntake/AssetSyncState``: synced, on its way up or down, or kept
  /// on this device only (and why, for accessibility).
  @available(iOS 17.0, macOS 14.0, *)
  public struct SyncBadge: View {
    /// The state shown.
    public let state: AssetSyncState

    /// A badge for `state`.
    public init(state: AssetSyncState) { self.state = state }

    public var body: some View {
      Image(systemName: Self.symbol(for: state))
        .font(.caption)
        .padding(4)
        .foregroundStyle(.white)
        .shadow(radius: 1)
        .accessibilityLabel(Text(Self.label(for: state)))
    }

    /// The SF Symbol of a state.
    public static func symbol(for state: AssetSyncState) -> String {
      switch state {
      case .synced: "checkmark.icloud"
      case .uploading: "icloud.and.arrow.up"
      case .downloading: "icloud.and.arrow.down"
      case .conflicted: "exclamationmark.icloud"
      case .removedRemotely: "trash"
      case .localOnly: "icloud.slash"
      }
    }

    /// A sentence for VoiceOver.
    public static func label(for state: AssetSyncState) -> String {
      switch state {
      case .synced: "In iCloud"
      case .uploading: "Uploading to iCloud"
      case .downloading: "Downloading from iCloud"
      case .conflicted: "Changed on two devices; merging"
      case .removedRemotely: "Removed on another device"
      case .localOnly(.notSyncing): "On this device only"
      case .localOnly(.otherAccount): "From another iCloud account; kept on this device"
      case .localOnly(.tooLarge): "Too large for iCloud; kept on this device"
      case .localOnly(.quotaExceeded): "iCloud storage is full; kept on this device"
      case .localOnly(.zoneDeleted): "Removed from iCloud by you; kept on this device"
      }
    }
  }
#endif
