#if canImport(SwiftUI) && canImport(UIKit)
  import PhotoIntake
  import SwiftUI
  import UIKit

  /// What to show when access is refused or restricted (``AccessStateMachine/Screen/explainAndLinkToSettings``,
  /// ``AccessStateMachine/Screen/explainRestricted``): a sentence, and for a refusal a button that opens the
  /// app's page in Settings (`UIApplication.openSettingsURLString`), the only place the user can change it.
  /// A restriction (Screen Time, a profile) gets no button: Settings cannot lift it.
  @MainActor
  public struct PermissionDeniedView: View {
    private let title: String
    private let message: String
    private let linksToSettings: Bool

    /// - Parameters:
    ///   - message: the sentence; ``AccessStateMachine/message`` gives one for photo access.
    ///   - linksToSettings: false for a restriction.
    public init(title: String = "No Access", message: String, linksToSettings: Bool = true) {
      self.title = title
      self.message = message
      self.linksToSettings = linksToSettings
    }

    /// The view for a screen of ``AccessStateMachine``.
    public init(screen: AccessStateMachine.Screen, message: String?) {
      self.init(
        title: screen == .explainRestricted ? "Restricted" : "No Access",
        message: message ?? "Access is turned off.", linksToSettings: screen != .explainRestricted)
    }

    public var body: some View {
      VStack(spacing: 16) {
        Image(systemName: linksToSettings ? "lock" : "lock.slash")
          .font(.largeTitle)
          .foregroundStyle(.secondary)
          .accessibilityHidden(true)
        Text(title).font(.headline)
        Text(message)
          .multilineTextAlignment(.center)
          .foregroundStyle(.secondary)
        if linksToSettings {
          Button("Open Settings") {
            guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
            UIApplication.shared.open(url)
          }
          .buttonStyle(.borderedProminent)
        }
      }
      .padding()
    }
  }
#endif
