import Foundation

/// Finds what an audit reads in a folder: every `.swift` file, every `Info.plist` (`Info.plist` or
/// `*-Info.plist`), `project.pbxproj` and `.xcconfig` files, podspecs, and the storyboards, xibs, Core Data
/// models and Objective-C files that name Swift types, skipping build products and dependencies.
struct ProjectScanner {
  struct Inventory: Sendable {
    /// Paths relative to the root, each list sorted, with `/` separators.
    var swiftFiles: [String] = []
    var propertyLists: [String] = []
    var buildSettings: [String] = []
    /// Podspecs (`.podspec`, `.podspec.json`): CocoaPods builds the files below them without a project file.
    var podspecs: [String] = []
    /// Storyboards, xibs, Core Data models (`contents`) and Objective-C files: where the system or other code
    /// names the app's Swift types (see ``InterfaceNames``).
    var interfaceFiles: [String] = []
  }

  /// Folders never worth reading: build output, dependency checkouts, version control.
  static let skippedFolders: Set<String> = [".build", "Pods", "Carthage", "DerivedData", ".git", ".swiftpm"]

  /// - Throws: ``Auditor/Error/notAFolder(_:)`` when `root` is missing or not a folder.
  static func inventory(of root: String) throws(Auditor.Error) -> Inventory {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue
    else { throw .notAFolder(root) }
    var inventory = Inventory()
    FolderReader.walk(root, descend: { !skippedFolders.contains($0) }) { next in
      let name = ProjectPath.lastComponent(next)
      if skippedFolders.contains(name) { return }
      if name.hasSuffix(".swift") {
        inventory.swiftFiles.append(next)
      } else if name == "Info.plist" || name.hasSuffix("-Info.plist") {
        inventory.propertyLists.append(next)
      } else if name == "project.pbxproj" || name.hasSuffix(".xcconfig") {
        inventory.buildSettings.append(next)
      } else if name.hasSuffix(".podspec") || name.hasSuffix(".podspec.json") {
        inventory.podspecs.append(next)
      } else if name.hasSuffix(".storyboard") || name.hasSuffix(".xib") || name.hasSuffix(".m")
        || name.hasSuffix(".mm") || name.hasSuffix(".h")
        || (name == "contents" && next.contains(".xcdatamodel/"))
      {
        inventory.interfaceFiles.append(next)
      }
    }
    inventory.swiftFiles.sort()
    inventory.propertyLists.sort()
    inventory.buildSettings.sort()
    inventory.podspecs.sort()
    inventory.interfaceFiles.sort()
    return inventory
  }
}
