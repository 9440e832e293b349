import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// Projects side by side are followed as separate apps only when each builds an app: a project of
/// frameworks or libraries is linked into the apps beside it, and the callbacks it makes run there.
struct ReachabilityProgramsTests {
  static func project(_ files: [String], productType: String?) -> String {
    var objects = ""
    var builds: [String] = []
    for (number, name) in files.enumerated() {
      objects += " B\(number) = { isa = PBXBuildFile; fileRef = F\(number); };\n"
      objects += " F\(number) = { isa = PBXFileReference; path = \(name); };\n"
      builds.append("B\(number)")
    }
    let type = productType.map { " productType = \"\($0)\";" } ?? ""
    return """
      // !$*UTF8*$!
      { objects = {
       T = { isa = PBXNativeTarget; buildPhases = ( S );\(type) };
       S = { isa = PBXSourcesBuildPhase; files = ( \(builds.joined(separator: ", ")), ); };
      \(objects)}; }

      """
  }

  static let kit = """
    public protocol ScanHandling: AnyObject { func scannerDidFinish(result: String) }
    public final class Scanner {
      public weak var handler: ScanHandling?
      public init() {}
      public func finish() { handler?.scannerDidFinish(result: "x") }
    }

    """
  static let coordinator = """
    import AVFoundation
    import Kit
    final class ScanCoordinator: NSObject, ScanHandling {
      let session = AVCaptureSession()
      func scannerDidFinish(result: String) {
        DispatchQueue.main.async { self.session.startRunning() }
      }
    }

    """
  static let app = """
    import SwiftUI
    import Kit
    @main struct MyApp: App {
      let scanner = Scanner()
      let coordinator = ScanCoordinator()
      init() { scanner.handler = coordinator }
      var body: some Scene { WindowGroup { Text("hi") } }
    }

    """

  /// The app's delegate method runs when the kit beside it calls it: reported, whether the kit's project
  /// says it builds a framework or says nothing of its kind.
  @Test(arguments: ["com.apple.product-type.framework", nil] as [String?])
  func aKitBesideTheAppCallsIntoIt(_ kitType: String?) throws {
    let root = TemporaryDirectory()
    try root.write(
      "App/App.xcodeproj/project.pbxproj",
      Self.project(["MyApp.swift", "Scanner.swift"], productType: "com.apple.product-type.application"))
    try root.write("App/MyApp.swift", Self.app)
    try root.write("App/Scanner.swift", Self.coordinator)
    try root.write("Kit/Kit.xcodeproj/project.pbxproj", Self.project(["Picker.swift"], productType: kitType))
    try root.write("Kit/Picker.swift", Self.kit)
    let report = try Auditor().audit(folder: root.path, displayName: ".")
    #expect(
      report.findings.map { "\($0.pathInRoot):\($0.line) \($0.rule)" } == [
        "App/Scanner.swift:6 session-main-thread"
      ])
  }
}
