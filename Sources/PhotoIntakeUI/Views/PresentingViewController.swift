#if canImport(UIKit)
  import UIKit

  /// The view controller to present system UI from (the limited-library picker needs one), for SwiftUI apps
  /// that have none at hand: the key window's root, then down its presented controllers.
  @MainActor
  public enum PresentingViewController {
    public static func current() -> UIViewController? {
      let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
      let window =
        scenes.flatMap(\.windows).first(where: \.isKeyWindow) ?? scenes.first?.windows.first
      var controller = window?.rootViewController
      while let presented = controller?.presentedViewController { controller = presented }
      return controller
    }
  }
#endif
