#if canImport(SwiftUI) && canImport(UIKit) && canImport(Observation) && canImport(Photos)
  import PhotoIntake
  import SwiftUI

  /// The banner of ``AccessStateMachine/Screen/contentWithLimitedBanner``: says the app sees only the photos the
  /// user selected, with an "Add more photos" action that presents the limited-library picker, and a secondary
  /// link to Settings for full access. Shown above the content, which stays visible: `.limited` is a grant.
  ///
  /// It shows nothing on other screens, so it can sit above a gallery unconditionally:
  ///
  /// ```swift
  /// VStack { LimitedAccessBanner(access: access); LibraryGrid() }
  /// ```
  @available(iOS 17, macOS 14, *)
  @MainActor
  public struct LimitedAccessBanner: View {
    private let access: PhotoLibraryAccess

    public init(access: PhotoLibraryAccess) { self.access = access }

    public var body: some View {
      if access.screen == .contentWithLimitedBanner {
        VStack(alignment: .leading, spacing: 8) {
          Text(access.message ?? "You've given access to some of your photos.")
            .font(.subheadline)
          HStack {
            Button("Add More Photos") {
              guard let presenter = PresentingViewController.current() else { return }
              Task { await access.addMorePhotos(presenter: presenter) }
            }
            .buttonStyle(.borderedProminent)
            Button("Settings") { access.openSettings() }
              .buttonStyle(.bordered)
          }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .padding()
        .background(.thinMaterial, in: RoundedRectangle(cornerRadius: 12))
        .accessibilityElement(children: .contain)
      }
    }
  }
#endif
