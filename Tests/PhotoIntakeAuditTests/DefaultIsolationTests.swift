import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` (Xcode 26's setting for new app targets) and a package
/// target's `.defaultIsolation(MainActor.self)` make unannotated code main-actor: a capture session started
/// there blocks the main thread.
struct DefaultIsolationTests {
  /// A camera model no UIKit or SwiftUI type marks main-actor: only the target's default isolation does.
  static let camera = """
    import AVFoundation

    \(Self.declaration)CameraModel {
      let session = AVCaptureSession()
      \(Self.method)func start() {
        session.startRunning()
      }
    }

    """
  static let declaration = "final class "
  static let method = ""

  static func camera(type: String = "final class ", method: String = "") -> String {
    camera.replacingOccurrences(of: "final class CameraModel", with: type + "CameraModel")
      .replacingOccurrences(of: "  func start()", with: "  " + method + "func start()")
  }

  /// A project file with one native target per entry of `targets`, each compiling `names` (or the
  /// synchronized folder `folder`), with a Debug and a Release configuration whose
  /// `SWIFT_DEFAULT_ACTOR_ISOLATION` is `isolation` (unset when nil); `projectIsolation` sets it at the
  /// project level.
  static func project(
    targets: [(names: [String], folder: String?, isolation: [String?])], projectIsolation: String? = nil
  ) -> String {
    var objects = ""
    var number = 0
    func next() -> String {
      number += 1
      return "X\(number)"
    }
    func configurations(_ values: [String?]) -> String {
      let list = next()
      var ids: [String] = []
      for (index, value) in values.enumerated() {
        let id = next()
        ids.append(id)
        let setting = value.map { "SWIFT_DEFAULT_ACTOR_ISOLATION = \($0); " } ?? ""
        objects +=
          "\t\t\(id) = {isa = XCBuildConfiguration; buildSettings = {\(setting)SWIFT_VERSION = 6.0; }; name = \(index == 0 ? "Debug" : "Release"); };\n"
      }
      objects +=
        "\t\t\(list) = {isa = XCConfigurationList; buildConfigurations = (\(ids.joined(separator: ", ")), ); };\n"
      return list
    }
    var targetIDs: [String] = []
    for target in targets {
      var files: [String] = []
      for name in target.names {
        let build = next()
        let reference = next()
        objects += "\t\t\(build) = {isa = PBXBuildFile; fileRef = \(reference); };\n"
        objects +=
          "\t\t\(reference) = {isa = PBXFileReference; path = \"\(name)\"; sourceTree = \"<group>\"; };\n"
        files.append(build)
      }
      let phase = next()
      objects +=
        "\t\t\(phase) = {isa = PBXSourcesBuildPhase; files = (\(files.joined(separator: ", ")), ); };\n"
      var groups = ""
      if let folder = target.folder {
        let group = next()
        objects +=
          "\t\t\(group) = {isa = PBXFileSystemSynchronizedRootGroup; path = \(folder); sourceTree = \"<group>\"; };\n"
        groups = "fileSystemSynchronizedGroups = (\(group), ); "
      }
      let list = configurations(target.isolation)
      let id = next()
      targetIDs.append(id)
      objects +=
        "\t\t\(id) = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (\(phase), ); \(groups)name = App; };\n"
    }
    let projectList = configurations([projectIsolation, projectIsolation])
    objects +=
      "\t\tP1 = {isa = PBXProject; buildConfigurationList = \(projectList); targets = (\(targetIDs.joined(separator: ", ")), ); };\n"
    return "// !$*UTF8*$!\n{\n\tobjects = {\n\(objects)\t};\n\trootObject = P1;\n}\n"
  }

  static func findings(
    project: String, files: [String: String], at projectPath: String = "App.xcodeproj/project.pbxproj"
  )
    throws -> [String]
  {
    let root = TemporaryDirectory()
    if !project.isEmpty { try root.write(projectPath, project) }
    for (path, text) in files { try root.write(path, text) }
    let report = try Auditor().audit(folder: root.path, displayName: ".")
    return report.findings.map { "\($0.pathInRoot):\($0.line) \($0.rule)" }
  }

  @Test func mainActorTargetStartsTheSessionOnMain() throws {
    let project = Self.project(targets: [(["CameraModel.swift"], nil, ["MainActor", "MainActor"])])
    let found = try Self.findings(project: project, files: ["App/CameraModel.swift": Self.camera()])
    #expect(found == ["App/CameraModel.swift:6 session-main-thread"])
  }

  @Test func projectLevelSettingAndSynchronizedFolders() throws {
    // Set once for the project; the target compiles its folder whole (Xcode 16's synchronized group).
    let project = Self.project(targets: [([], "App", [nil, nil])], projectIsolation: "MainActor")
    let found = try Self.findings(project: project, files: ["App/CameraModel.swift": Self.camera()])
    #expect(found == ["App/CameraModel.swift:6 session-main-thread"])
  }

  /// Code that opts out, targets that do not set it in every configuration, and a second target that
  /// compiles the file without it, all run where they are called: nothing is reported.
  @Test(
    arguments: [
      ("final class ", "nonisolated ", ["MainActor", "MainActor"], false),
      ("nonisolated final class ", "", ["MainActor", "MainActor"], false),
      ("actor ", "", ["MainActor", "MainActor"], false),
      ("@SessionActor final class ", "", ["MainActor", "MainActor"], false),
      ("final class ", "@SessionActor ", ["MainActor", "MainActor"], false),
      ("final class ", "", ["MainActor", nil], false),
      ("final class ", "", ["nonisolated", "nonisolated"], false),
      ("final class ", "", [nil, nil], false),
      ("final class ", "", ["MainActor", "MainActor"], true),
    ] as [(String, String, [String?], Bool)])
  func optingOut(_ type: String, _ method: String, _ isolation: [String?], _ secondTarget: Bool) throws {
    var targets: [(names: [String], folder: String?, isolation: [String?])] = [
      (["CameraModel.swift"], nil, isolation)
    ]
    if secondTarget { targets.append((["CameraModel.swift"], nil, [nil, nil])) }
    let found = try Self.findings(
      project: Self.project(targets: targets),
      files: ["App/CameraModel.swift": Self.camera(type: type, method: method)])
    #expect(found.isEmpty)
  }

  @Test func helperEveryCallerRunsOffMainStaysOffMain() throws {
    let text = """
      import AVFoundation

      final class CameraModel {
        let session = AVCaptureSession()
        let queue = DispatchQueue(label: "session")
        func start() {
          queue.async { self.run() }
        }
        func run() {
          session.startRunning()
        }
      }

      """
    let project = Self.project(targets: [(["CameraModel.swift"], nil, ["MainActor", "MainActor"])])
    #expect(try Self.findings(project: project, files: ["App/CameraModel.swift": text]).isEmpty)
  }
}

extension DefaultIsolationTests {
  /// Each Swift file asks every main-actor target, so a folder of more than 512 targets and folders in all
  /// decides nothing rather than cost files times targets.
  @Test func tooManyTargetsDecideNothing() throws {
    let root = TemporaryDirectory()
    let one = Self.project(targets: [(["CameraModel.swift"], nil, ["MainActor", "MainActor"])])
    for number in 0..<600 { try root.write("App/P\(number).xcodeproj/project.pbxproj", one) }
    try root.write("App/CameraModel.swift", Self.camera())
    #expect(try Auditor().audit(folder: root.path).findings.isEmpty)
    // Below the bound it still decides.
    let fewer = TemporaryDirectory()
    for number in 0..<500 { try fewer.write("App/P\(number).xcodeproj/project.pbxproj", one) }
    try fewer.write("App/CameraModel.swift", Self.camera())
    #expect(try Auditor().audit(folder: fewer.path).findings.map(\.rule) == ["session-main-thread"])
  }
}

extension DefaultIsolationTests {
  /// The manifest is lexed: the setting belongs to the target call that lists it, whatever `name:` a
  /// dependency inside that call writes; a commented-out setting and one kept in a variable outside the
  /// call decide nothing.
  @Test(
    arguments: [
      (
        """
        .target(name: "Plain"),
        .target(name: "CameraKit", swiftSettings: [.defaultIsolation(MainActor.self)]),
        """, ["Sources/CameraKit/CameraModel.swift:6 session-main-thread"]
      ),
      (
        """
        .target(
          name: "CameraKit",
          dependencies: [.product(name: "Logging", package: "swift-log")],
          swiftSettings: [.defaultIsolation(MainActor.self)]),
        .target(name: "Plain"),
        """, ["Sources/CameraKit/CameraModel.swift:6 session-main-thread"]
      ),
      (
        """
        .target(name: "CameraKit"), // swiftSettings: [.defaultIsolation(MainActor.self)]
        .target(name: "Plain"),
        """, []
      ),
      (
        """
        .target(name: "CameraKit", swiftSettings: shared),
        .target(name: "Plain"),
        ]
        )
        let shared: [SwiftSetting] = [.defaultIsolation(MainActor.self)]
        let unused = [
        """, []
      ),
    ] as [(String, [String])])
  func packageSettingsAreReadFromTheTargetCall(_ targets: String, _ expected: [String]) throws {
    let manifest = """
      // swift-tools-version: 6.2
      import PackageDescription
      let package = Package(
        name: "Camera",
        targets: [
      \(targets)
        ]
      )
      """
    let found = try Self.findings(
      project: manifest,
      files: [
        "Sources/CameraKit/CameraModel.swift": Self.camera(),
        "Sources/Plain/CameraModel.swift": Self.camera(),
      ], at: "Package.swift")
    #expect(found == expected)
  }
}
