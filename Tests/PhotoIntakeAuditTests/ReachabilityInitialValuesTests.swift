import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// A stored property's initial value (`lazy var listView = CameraListView()`) is computed only when its type
/// is made: in a view controller that nothing makes (no storyboard, no code names it), what the value makes
/// never runs either.
struct ReachabilityInitialValuesTests {
  static let project = """
    // !$*UTF8*$!
    { objects = {
     T = { isa = PBXNativeTarget; buildPhases = ( S ); productType = "com.apple.product-type.application"; };
     S = { isa = PBXSourcesBuildPhase; files = ( B0, B1, B2 ); };
     B0 = { isa = PBXBuildFile; fileRef = F0; };
     B1 = { isa = PBXBuildFile; fileRef = F1; };
     B2 = { isa = PBXBuildFile; fileRef = F2; };
     F0 = { isa = PBXFileReference; path = AppDelegate.swift; };
     F1 = { isa = PBXFileReference; path = Screens.swift; };
     F2 = { isa = PBXFileReference; path = CameraListView.swift; };
     C = { isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = App/Info.plist; }; };
    }; }

    """
  static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    <key>NSCameraUsageDescription</key><string>Scans</string>
    </dict></plist>

    """
  static func delegate(root: String) -> String {
    """
    import UIKit
    @main final class AppDelegate: UIResponder, UIApplicationDelegate {
      var window: UIWindow?
      func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
      ) -> Bool {
        window = UIWindow()
        window?.rootViewController = \(root)()
        window?.makeKeyAndVisible()
        return true
      }
    }

    """
  }
  static let screens = """
    import UIKit
    final class HomeViewController: UIViewController {}
    final class LegacyEditViewController: UIViewController {
      lazy var listView = CameraListView()
      override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(listView)
      }
    }

    """
  static let listView = """
    import AVFoundation
    import UIKit
    final class CameraListView: UIView {
      let session = AVCaptureSession()
      override func didMoveToWindow() {
        super.didMoveToWindow()
        session.startRunning()
      }
    }

    """

  static func audit(root controller: String) throws -> [String] {
    let root = TemporaryDirectory()
    try root.write("App.xcodeproj/project.pbxproj", Self.project)
    try root.write("App/Info.plist", Self.plist)
    try root.write("App/AppDelegate.swift", Self.delegate(root: controller))
    try root.write("App/Screens.swift", Self.screens)
    try root.write("App/CameraListView.swift", Self.listView)
    let report = try Auditor().audit(folder: root.path, displayName: ".")
    return report.findings.map { "\($0.pathInRoot):\($0.line) \($0.rule)" }
  }

  /// The app makes the controller whose property makes the view: the view's `startRunning()` is reported.
  @Test func aMadeControllersPropertyRuns() throws {
    #expect(
      try Self.audit(root: "LegacyEditViewController") == ["App/CameraListView.swift:7 session-main-thread"])
  }

  /// Nothing makes the controller: its property's initial value, and the view it makes, never run.
  @Test func anUnmadeControllersPropertyNeverRuns() throws {
    #expect(try Self.audit(root: "HomeViewController") == [])
  }
}
