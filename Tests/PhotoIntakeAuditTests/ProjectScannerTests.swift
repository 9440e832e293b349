import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

struct ProjectScannerTests {
  static let trigger =
    "let picker = UIImagePickerController()\npicker.sourceType = .photoLibrary\npresent(picker, animated: true)\n"

  /// Build products and dependency checkouts are not the project's code.
  @Test(arguments: [".build", "Pods", "Carthage", "DerivedData", ".git", "App/.build/checkouts/Dep"])
  func skippedFolders(_ folder: String) throws {
    let root = TemporaryDirectory()
    try root.write("\(folder)/Sources/Picker.swift", Self.trigger)
    try root.write("App/Sources/Picker.swift", Self.trigger)
    let findings = try Auditor().audit(folder: root.path).findings
    #expect(findings.map(\.pathInRoot) == ["App/Sources/Picker.swift"])
  }

  @Test func findingsNameFilesAsTheFolderWasNamed() throws {
    let root = TemporaryDirectory()
    try root.write("A/Picker.swift", Self.trigger)
    let files = [
      try Auditor().audit(folder: root.path + "/A", displayName: "A").findings.map(\.file),
      try Auditor().audit(folder: root.path + "/A", displayName: ".").findings.map(\.file),
      try Auditor().audit(folder: root.path + "/A", displayName: "proj/A/").findings.map(\.file),
    ]
    #expect(files == [["A/Picker.swift"], ["Picker.swift"], ["proj/A/Picker.swift"]])
  }

  @Test func notAFolder() throws {
    let root = TemporaryDirectory()
    try root.write("file.swift", "let x = 1\n")
    #expect(throws: Auditor.Error.notAFolder(root.path + "/file.swift")) {
      try Auditor().audit(folder: root.path + "/file.swift")
    }
    #expect(throws: Auditor.Error.notAFolder(root.path + "/missing")) {
      try Auditor().audit(folder: root.path + "/missing")
    }
  }

  @Test func unknownRules() {
    #expect(throws: Auditor.Error.unknownRule("nope")) { try Auditor(only: ["nope"]) }
    #expect(throws: Auditor.Error.unknownRule("nope")) { try Auditor(disabled: ["picker-legacy", "nope"]) }
    #expect((try? Auditor(only: ["sync-load"]))?.rules.map(\.id) == ["sync-load"])
    #expect((try? Auditor(disabled: ["sync-load"]))?.rules.count == Auditor.allRules.count - 1)
    #expect(Auditor.Error.unknownRule("x").description.contains("--list-rules"))
  }

  /// Keys count from XML and binary Info.plists, build settings in project.pbxproj and .xcconfig, and a
  /// damaged plist is read as text rather than treated as declaring nothing.
  @Test(arguments: [
    ("xml", true), ("binary", true), ("pbxproj", true), ("xcconfig", true), ("damaged", true),
    ("other-key", false), ("similar-setting", false),
  ])
  func usageKeySources(_ source: String, _ declared: Bool) throws {
    let root = TemporaryDirectory()
    try root.write("App/Camera.swift", "let input = try AVCaptureDeviceInput(device: device)\n")
    let key = "NSCameraUsageDescription"
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>\(key)</key><string>Scan.</string></dict></plist>
      """
    switch source {
    case "xml": try root.write("App/Info.plist", xml)
    case "binary":
      let data = try PropertyListSerialization.data(
        fromPropertyList: [key: "Scan."], format: .binary, options: 0)
      try data.write(to: URL(fileURLWithPath: root.path + "/App/Info.plist"))
    case "pbxproj":
      try root.write("App.xcodeproj/project.pbxproj", "isa = PBXProject; INFOPLIST_KEY_\(key) = \"Scan.\";")
    case "xcconfig": try root.write("Config/App.xcconfig", "INFOPLIST_KEY_\(key) = Scan receipts\n")
    case "damaged": try root.write("App/Info.plist", "<<<<<<< HEAD\n" + xml)
    case "other-key":
      try root.write("App/Info.plist", xml.replacingOccurrences(of: key, with: "NSCameraUsage"))
    default:
      try root.write(
        "App.xcodeproj/project.pbxproj", "isa = PBXProject; INFOPLIST_KEY_\(key)2 = \"Scan.\";")
    }
    let findings = try Auditor().audit(folder: root.path).findings
    #expect(findings.map(\.rule) == (declared ? [] : ["missing-usage-key"]))
  }
}
