import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// Files no target of an Xcode project compiles are skipped and listed; everything else is audited.
struct TargetMembershipTests {
  static let trigger =
    "let picker = UIImagePickerController()\npicker.sourceType = .photoLibrary\npresent(picker, animated: true)\n"

  /// A project file whose Sources build phases list `compiled` (one phase per entry) and that references
  /// `referenced` as well; `extra` goes into its `objects`.
  static func project(compiled: [[String]], referenced: [String] = [], extra: String = "") -> String {
    var objects = ""
    var number = 0
    var phases = ""
    for (index, phase) in compiled.enumerated() {
      var files = ""
      for name in phase {
        number += 1
        objects += "\t\tB\(number) /* \(name) in Sources */ = {isa = PBXBuildFile; fileRef = F\(number); };\n"
        objects +=
          "\t\tF\(number) = {isa = PBXFileReference; path = \"\(name)\"; sourceTree = \"<group>\"; };\n"
        files += "\t\t\t\tB\(number) /* \(name) in Sources */,\n"
      }
      phases +=
        "\t\tP\(index) = {\n\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tfiles = (\n\(files)\t\t\t);\n\t\t};\n"
    }
    for name in referenced {
      number += 1
      objects += "\t\tF\(number) = {isa = PBXFileReference; path = \"\(name)\"; };\n"
    }
    return "// !$*UTF8*$!\n{\n\tobjects = {\n\(objects)\(phases)\(extra)\t};\n}\n"
  }

  @Test func namesComeFromEverySourcesPhaseThroughBuildFiles() {
    let text = Self.project(
      compiled: [["Camera.swift", "Group/Picker.swift"], ["Share.swift"]], referenced: ["Picker copy.swift"])
    #expect(
      TargetMembership.compiledNames(in: Array(text.utf8)) == ["Camera.swift", "Picker.swift", "Share.swift"])
  }

  /// Project files that cannot say what is compiled decide nothing.
  @Test func projectsThatCannotSay() {
    let synchronized = Self.project(
      compiled: [["Camera.swift"]],
      extra: "\t\tS1 = {isa = PBXFileSystemSynchronizedRootGroup; path = App; };\n")
    #expect(TargetMembership.compiledNames(in: Array(synchronized.utf8)) == nil)
    let settingsOnly =
      "{\n\tobjects = {\n\t\tC1 = {isa = XCBuildConfiguration; buildSettings = {A = B;}; };\n\t};\n}\n"
    #expect(TargetMembership.compiledNames(in: Array(settingsOnly.utf8)) == nil)
    let text = Self.project(compiled: [["Camera.swift"]])
    #expect(TargetMembership.compiledNames(in: Array(text.dropLast(4).utf8)) == nil)
    #expect(TargetMembership.compiledNames(in: Array(text.utf8)) == ["Camera.swift"])
  }

  /// The reader keeps a stack of its own, so no nesting in a hostile project file exhausts the thread's.
  @Test func deeplyNestedProjectFileIsRead() {
    let depth = 200_000
    let text =
      "{ objects = " + String(repeating: "(", count: depth) + String(repeating: ")", count: depth) + "; }"
    #expect(TargetMembership.compiledNames(in: Array(text.utf8)) == nil)
    let phase = Self.project(compiled: [["Camera.swift"]])
    let nested = phase.replacingOccurrences(
      of: "isa = PBXSourcesBuildPhase;",
      with: "isa = PBXSourcesBuildPhase; deep = " + String(repeating: "{a=", count: depth)
        + String(repeating: "};", count: depth))
    #expect(TargetMembership.compiledNames(in: Array(nested.utf8)) == ["Camera.swift"])
  }

  @Test func staleCopiesAreSkippedAndListed() throws {
    let root = TemporaryDirectory()
    try root.write("App/App.xcodeproj/project.pbxproj", Self.project(compiled: [["Picker.swift"]]))
    try root.write("App/Sources/Picker.swift", Self.trigger)
    try root.write("App/Sources/Picker copy.swift", Self.trigger)
    // Outside the project's folder: nothing says it is not compiled.
    try root.write("Shared/Picker 2.swift", Self.trigger)
    let report = try Auditor().audit(folder: root.path, displayName: ".")
    #expect(report.findings.map(\.pathInRoot) == ["App/Sources/Picker.swift", "Shared/Picker 2.swift"])
    #expect(report.skipped.map(\.file) == ["App/Sources/Picker copy.swift"])
    #expect(report.skipped.first?.reason.contains("App/App.xcodeproj") == true)
  }

  /// A package manifest or podspec above a file builds it without the project file.
  @Test(arguments: ["Package.swift", "PickerKit.podspec"])
  func manifestsKeepFilesAudited(_ manifest: String) throws {
    let root = TemporaryDirectory()
    try root.write("App.xcodeproj/project.pbxproj", Self.project(compiled: [["AppDelegate.swift"]]))
    try root.write(
      manifest, manifest.hasSuffix(".swift") ? "// swift-tools-version:5.9\n" : "Pod::Spec.new\n")
    try root.write("Sources/PickerKit/Picker.swift", Self.trigger)
    let report = try Auditor().audit(folder: root.path, displayName: ".")
    #expect(report.findings.map(\.pathInRoot) == ["Sources/PickerKit/Picker.swift"])
    #expect(report.skipped.isEmpty)
  }

  /// `EXCLUDED_SOURCE_FILE_NAMES` patterns match as `fnmatch(3)` does without flags: `*` crosses `/`.
  @Test(arguments: [
    ("Snippets/*", "Snippets/avfoundation/Setup.swift", true),
    ("Snippets/*", "App/Snippets.swift", false),
    ("*Tests.swift", "AppTests.swift", true),
    ("View?.swift", "View2.swift", true),
    ("View?.swift", "View.swift", false),
    ("*a*a*a*b", String(repeating: "a", count: 200), false),
  ])
  func excludedSourcePatterns(_ pattern: String, _ path: String, _ matches: Bool) {
    #expect(TargetMembership.glob(pattern, matches: path) == matches)
  }
}
