import Foundation
import PhotoIntake
import Testing

struct AccessPolicyTests {
  @Test(arguments: [
    ([PhotoFeature.pick], PhotoAccessLevel.none),
    ([.capturePhoto], .none),
    ([.save], .addOnly),
    ([.pick, .save], .addOnly),
    ([.browse], .readWrite),
    ([.saveToAlbum], .readWrite),
    ([.pick, .save, .browse], .readWrite),
    ([], .none),
  ])
  func leastAccess(_ features: [PhotoFeature], _ level: PhotoAccessLevel) {
    #expect(PhotoFeature.leastAccess(for: features) == level)
  }

  @Test(arguments: [
    ([PhotoFeature.pick], [UsageDescriptionKey]()),
    ([.save], [.photoLibraryAdd]),
    ([.browse, .save], [.photoLibrary, .photoLibraryAdd]),
    ([.capturePhoto], [.camera]),
    ([.captureVideo, .capturePhoto], [.camera, .microphone]),
  ])
  func usageDescriptionKeys(_ features: [PhotoFeature], _ keys: [UsageDescriptionKey]) {
    #expect(PhotoFeature.usageDescriptionKeys(for: features) == keys)
  }
}

struct InfoPlistCheckTests {
  static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0"><dict>
      <key>CFBundleIdentifier</key><string>com.example.app</string>
      <key>NSPhotoLibraryAddUsageDescription</key><string>Saves your edited photos.</string>
      <key>NSCameraUsageDescription</key><string>   </string>
    </dict></plist>
    """

  @Test func reportsMissingAndEmptyKeysForTheFeaturesUsed() throws {
    let findings = try InfoPlistCheck.check(
      plist: Data(Self.plist.utf8), features: [.pick, .save, .captureVideo, .browse])
    #expect(
      findings.map(\.kind) == [
        .missing(.photoLibrary), .empty(.camera), .missing(.microphone), .automaticLimitedAccessAlert,
      ])
    #expect(findings.first?.features == [.browse])
    #expect(findings.last?.severity == .warning)
    #expect(findings.first?.description.contains("NSPhotoLibraryUsageDescription") == true)
  }

  @Test func pickingAloneNeedsNoKey() throws {
    #expect(try InfoPlistCheck.check(plist: Data(Self.plist.utf8), features: [.pick]).isEmpty)
  }

  @Test func theLimitedAlertKeySilencesTheWarning() {
    let entries: [String: any Sendable] = [
      "NSPhotoLibraryUsageDescription": "Shows your photos.",
      InfoPlistCheck.preventAutomaticLimitedAccessAlertKey: true,
    ]
    #expect(InfoPlistCheck.check(entries: entries, features: [.browse]).isEmpty)
  }

  @Test(arguments: ["not a plist", "<plist><array/></plist>"])
  func refusesWhatIsNotAnInfoPlist(_ text: String) {
    #expect(throws: InfoPlistCheck.Error.self) {
      try InfoPlistCheck.check(plist: Data(text.utf8), features: [.browse])
    }
  }
}

struct AccessStateMachineTests {
  @Test(arguments: [
    (AuthorizationStatus.notDetermined, PhotoAccessLevel.readWrite, AccessStateMachine.Screen.ask),
    (.authorized, .readWrite, .content),
    // The seed bug: `.limited` is a grant, never a refusal.
    (.limited, .readWrite, .contentWithLimitedBanner),
    (.denied, .readWrite, .explainAndLinkToSettings),
    (.restricted, .readWrite, .explainRestricted),
    (.notDetermined, .addOnly, .ask),
    (.authorized, .addOnly, .content),
    (.limited, .addOnly, .content),
    (.denied, .addOnly, .explainAndLinkToSettings),
    (.restricted, .addOnly, .explainRestricted),
    // The picker needs nothing, so nothing blocks it.
    (.notDetermined, .none, .content),
    (.denied, .none, .content),
    (.restricted, .none, .content),
    (.limited, .none, .content),
  ])
  func screenForStatus(
    _ status: AuthorizationStatus, _ level: PhotoAccessLevel, _ screen: AccessStateMachine.Screen
  ) {
    var machine = AccessStateMachine(level: level)
    machine.handle(.statusObserved(status))
    #expect(machine.screen == screen)
    #expect(AccessStateMachine.screen(for: status, level: level) == screen)
  }

  @Test func askingFlowsFromPromptToGallery() {
    var machine = AccessStateMachine(features: [.browse])
    #expect(machine.handle(.statusObserved(.notDetermined)).isEmpty)
    #expect(machine.handle(.userTappedAsk) == [.requestAuthorization(.readWrite)])
    #expect(machine.screen == .waitingForAnswer)
    // A second tap while the prompt is up asks nothing more.
    #expect(machine.handle(.userTappedAsk).isEmpty)
    #expect(machine.handle(.requestFinished(.limited)) == [.reloadContent])
    #expect(machine.screen == .contentWithLimitedBanner)
    #expect(machine.message?.contains("Add more photos") == true)
  }

  @Test func limitedBannerOffersTheLimitedPickerAndSettings() {
    var machine = AccessStateMachine(features: [.browse])
    machine.handle(.statusObserved(.limited))
    #expect(machine.handle(.userTappedAddMorePhotos) == [.presentLimitedLibraryPicker])
    // New photos arrive as a library change; the grid is not reloaded.
    #expect(machine.handle(.limitedPickerFinished(newlySelected: ["a"])).isEmpty)
    #expect(machine.handle(.userTappedOpenSettings) == [.openSettings])
    #expect(machine.handle(.statusObserved(.authorized)) == [.reloadContent])
    #expect(machine.screen == .content)
    #expect(machine.handle(.userTappedAddMorePhotos).isEmpty)
  }

  @Test func deniedLinksToSettingsButRestrictedDoesNot() {
    var denied = AccessStateMachine(features: [.browse])
    denied.handle(.statusObserved(.denied))
    #expect(denied.handle(.userTappedOpenSettings) == [.openSettings])
    #expect(denied.handle(.userTappedAsk).isEmpty)
    var restricted = AccessStateMachine(features: [.browse])
    restricted.handle(.statusObserved(.restricted))
    #expect(restricted.handle(.userTappedOpenSettings).isEmpty)
    #expect(restricted.message?.contains("restricted") == true)
  }

  @Test func revokingWhileShowingContentReloads() {
    var machine = AccessStateMachine(features: [.browse])
    machine.handle(.statusObserved(.authorized))
    #expect(machine.handle(.statusObserved(.denied)) == [.reloadContent])
    #expect(machine.screen == .explainAndLinkToSettings)
    #expect(machine.handle(.statusObserved(.denied)).isEmpty)
  }

  @Test func savingNeverReloadsAGallery() {
    var machine = AccessStateMachine(features: [.save])
    #expect(machine.handle(.userTappedAsk) == [.requestAuthorization(.addOnly)])
    #expect(machine.handle(.requestFinished(.authorized)).isEmpty)
    #expect(machine.screen == .content)
  }
}
