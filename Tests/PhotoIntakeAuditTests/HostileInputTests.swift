import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// Generated files no app contains but an audit must survive: they are made here, at test time, at the
/// sizes that crashed or stalled earlier versions. Speed and memory are measured by `Benchmarks/audit.sh`;
/// these tests check that the audit finishes with the right answer.
struct HostileInputTests {
  static func audit(_ files: [String: String]) async throws -> AuditReport {
    try await offThePool {
      let folder = TemporaryDirectory()
      for (path, text) in files { try folder.write(path, text) }
      return try Auditor().audit(folder: folder.path, displayName: ".")
    }
  }

  /// 30,000 nested interpolations (a 300 KB file) overflowed the lexer's recursion: now the file is one
  /// skipped item, and the project's other files are still audited.
  @Test func deeplyNestedInterpolationIsSkippedNotFatal() async throws {
    let depth = 30_000
    let nested =
      "let s = \"" + String(repeating: "\\(\"", count: depth) + "x"
      + String(repeating: "\")", count: depth) + "\"\n"
    let report = try await Self.audit([
      "Nested.swift": nested,
      "Picker.swift":
        "import UIKit\nlet picker = UIImagePickerController()\nfunc show() { present(picker, animated: true) }\n",
    ])
    #expect(report.skipped.map(\.file) == ["Nested.swift"])
    #expect(report.findings.map(\.rule) == ["picker-legacy"])
  }

  /// Nesting up to the limit is lexed as code: the innermost interpolation's identifier is seen.
  @Test func nestingWithinTheLimitIsLexed() {
    // The innermost `\(inner)` is the last level allowed.
    let depth = Lexer.maximumNesting - 1
    let source =
      "let s = \"" + String(repeating: "\\(\"", count: depth) + "\\(inner)"
      + String(repeating: "\")", count: depth) + "\"\nafter\n"
    let lexed = Lexer.lex(Array(source.utf8))
    let tooDeep = lexed.tooDeep
    #expect(!tooDeep)
    let names = lexed.tokens.indices.filter { lexed.tokens[$0].kind == .identifier }.map { lexed.text($0) }
    #expect(names == ["let", "s", "inner", "after"])
    let deeper = Lexer.lex(Array(("let s = \"" + String(repeating: "\\(\"", count: depth + 2)).utf8))
    let deeperIsTooDeep = deeper.tooDeep
    #expect(deeperIsTooDeep)
  }

  /// 8,000 `.wait()` calls in one function took 19 s (each re-scanned the function and the file's
  /// declarations); every one of them is still judged: a wait for a picked item's load is reported.
  @Test func thousandsOfWaitsInOneFunctionAreEachJudged() async throws {
    let count = 8_000
    let waits = String(repeating: "    semaphore.wait()\n", count: count)
    let source = """
      import PhotosUI
      final class Loader {
        func load(_ provider: NSItemProvider) {
          let semaphore = DispatchSemaphore(value: 0)
          provider.loadObject(ofClass: UIImage.self) { _, _ in semaphore.signal() }
      \(waits)  }
      }

      """
    let report = try await Self.audit(["Loader.swift": source])
    #expect(report.findings.count == count)
    #expect(report.findings.allSatisfy { $0.rule == "sync-load" })
  }

  /// A 48 MB one-line string literal is one token; the file is audited and nothing in it is code.
  @Test func hugeOneLineLiteralIsOneToken() async throws {
    let literal = "let big = \"" + String(repeating: "UIImagePickerController ", count: 2_000_000) + "\"\n"
    let file = SourceFile(path: "Big.swift", bytes: Array(literal.utf8))
    #expect(file.count == 4)
    let report = try await Self.audit(["Big.swift": literal])
    #expect(report.findings.isEmpty)
    #expect(report.swiftFiles == 1)
  }

  /// Thousands of persisted identifiers and assignments in one file: every store is found once.
  @Test func thousandsOfStoresAreEachFound() async throws {
    let count = 4_000
    var body = ""
    for index in 0..<count {
      body += "    let ids\(index) = results.compactMap(\\.assetIdentifier)\n"
      body += "    defaults.set(ids\(index), forKey: \"k\(index)\")\n"
    }
    let source = """
      import PhotosUI
      final class Store {
        let defaults = UserDefaults.standard
        func save(_ results: [PHPickerResult]) {
      \(body)  }
      }

      """
    let report = try await Self.audit(["Store.swift": source])
    #expect(report.findings.count == count)
  }

  /// Thousands of decodes handed on through completions and thousands of awaited calls in one function:
  /// the flow into a grid's array is still found, and following them stays linear (bounded per file and
  /// per round), so the file finishes.
  @Test func thousandsOfHandedOnDecodesFinish() async throws {
    let count = 4_000
    var loaders = ""
    var calls = ""
    for index in 0..<count {
      loaders += "  func load\(index)(_ data: Data, completion: @escaping (UIImage?) -> Void) {\n"
      loaders += "    let image = UIImage(data: data)\n    completion(image)\n  }\n"
      calls += "    if let image = await fetch(data) { photos.append(image) }\n"
    }
    let source = """
      import SwiftUI
      final class Model: ObservableObject {
        @Published var photos: [UIImage] = []
        func fetch(_ data: Data) async -> UIImage? {
          return UIImage(data: data)
        }
      \(loaders)
        func fill(_ data: Data) async {
      \(calls)  }
      }
      struct Grid: View {
        @StateObject var model = Model()
        var body: some View { List(model.photos, id: \\.self) { Image(uiImage: $0) } }
      }

      """
    let report = try await Self.audit(["Model.swift": source])
    #expect(report.findings.filter { $0.rule == "full-decode-thumbnail" }.count == 1)
  }

  /// Thousands of helpers that cells call, each calling thousands of image helpers, and thousands of
  /// `Image(data:)` initializer calls in one grid: each function's list call is looked up once, so the
  /// helper pass stays linear and finds the decode once.
  @Test func thousandsOfListHelpersFinish() async throws {
    let count = 4_000
    var helpers = ""
    var calls = ""
    var images = ""
    for index in 0..<count {
      helpers += "  func show\(index)(_ name: String) -> UIImage? { stored(name) ?? stored(name) }\n"
      calls += "    _ = show\(index)(name)\n"
      images += "          Image(data: data)\n"
    }
    let source = """
      import SwiftUI
      import UIKit
      func stored(_ name: String) -> UIImage? { UIImage(contentsOfFile: name) }
      extension Image {
        init(data: Data) { self.init(uiImage: UIImage(data: data) ?? UIImage()) }
      }
      final class PhotoCell: UICollectionViewCell {
        func configure(_ name: String) {
      \(calls)  }
      \(helpers)}
      struct Grid: View {
        let photos: [Data]
        var body: some View {
          LazyVGrid(columns: []) {
            ForEach(photos, id: \\.self) { data in
      \(images)      }
          }
        }
      }

      """
    let report = try await Self.audit(["Cells.swift": source])
    #expect(report.findings.filter { $0.rule == "full-decode-thumbnail" }.count == 2)
  }

  /// A list that reads one receiver thousands of times, declared thousands of ways, still reaches the
  /// decoding property of its type once per read and finishes: each receiver's type is worked out once.
  @Test func thousandsOfReceiverReadsInAListAreEachKnown() async throws {
    let count = 4_000
    var declarations = ""
    var reads = ""
    for index in 0..<count {
      declarations += "  let frames\(index): [Frame] = []\n"
      reads += "        let frame = frames\(index)[0]\n        Text(frame.caption)\n"
    }
    let source = """
      import SwiftUI
      import UIKit

      final class Frame {
        let data = Data()
        var caption: UIImage? { UIImage(data: data) }
      }

      struct Strip: View {
        let frames: [Frame]
      \(declarations)
        var body: some View {
          List(frames) { frame in
      \(reads)    }
        }
      }

      """
    let report = try await Self.audit(["Strip.swift": source])
    #expect(report.findings.map(\.rule) == ["full-decode-thumbnail"])
  }

  /// A member that reads thousands of stored assets, each a `let` its initializer loaded after filling,
  /// asks once per name whether a local shadows it and whether the initializer left it loaded, and
  /// finishes: nothing is reported.
  @Test func thousandsOfStoredAssetReadsAreEachKnown() async throws {
    let count = 3_000
    var declarations = ""
    var fills = ""
    var reads = ""
    for index in 0..<count {
      declarations += "  private let clip\(index): AVAsset\n"
      fills +=
        "    clip\(index) = AVAsset(url: url)\n    clip\(index).loadValuesAsynchronously(forKeys: [\"duration\"]) {}\n"
      reads += "    _ = clip\(index).duration\n"
    }
    let source = """
      import AVFoundation
      import UIKit

      final class Reel: UIView {
      \(declarations)
        init(url: URL) {
      \(fills)    super.init(frame: .zero)
        }

        required init?(coder: NSCoder) { fatalError() }

        override func layoutSubviews() {
      \(reads)  }
      }

      """
    let report = try await Self.audit(["Reel.swift": source])
    #expect(report.findings.isEmpty)
  }

  /// Thousands of queue helpers that return the main queue, each called once, and thousands of observed
  /// properties, each read twice inside a block on a helper's (main) queue and set once off main: one pass
  /// finds the helpers and each read costs a constant check, and no observer is taken for main because
  /// main-thread code reads its property.
  @Test func thousandsOfQueueHelpersAndObservedReadsFinish() async throws {
    let count = 2_000
    var members = ""
    var calls = ""
    for index in 0..<count {
      members += """
          func queue\(index)() -> DispatchQueue { return DispatchQueue.main }
          var clip\(index): AVAsset? { didSet { _ = clip\(index)?.duration } }

        """
      calls += "    queue\(index)().async { _ = self.clip\(index) == nil; _ = self.clip\(index) == nil }\n"
      calls += "    DispatchQueue.global().async { self.clip\(index) = AVAsset(url: url) }\n"
    }
    let source = """
      import AVFoundation
      import UIKit

      final class Reel: UIViewController {
        let url = URL(fileURLWithPath: "/tmp/clip.mov")
      \(members)
        override func viewDidLoad() {
          super.viewDidLoad()
      \(calls)  }
      }

      """
    let report = try await Self.audit(["Reel.swift": source])
    #expect(report.findings.isEmpty)
  }

  /// Thousands of first reads of new assets in one function, each reported: how bad each is (a remote URL or
  /// a local file) was worked out by scanning the whole function per asset, quadratic (8,000 took 2.4 s in a
  /// release build); now the function's assignments are indexed once.
  @Test func thousandsOfReportedAssetReadsInOneFunctionFinish() async throws {
    let count = 3_000
    var reads = ""
    for index in 0..<count {
      reads +=
        "    DispatchQueue.main.async { let a\(index) = AVAsset(url: self.url); _ = a\(index).duration }\n"
    }
    let source = """
      import AVFoundation
      import UIKit

      final class Reel: UIViewController {
        let url = URL(fileURLWithPath: "/tmp/clip.mov")
        override func viewDidLoad() {
          super.viewDidLoad()
      \(reads)  }
      }

      """
    let report = try await Self.audit(["Reel.swift": source])
    #expect(report.findings.count == count)
    #expect(report.findings.allSatisfy { $0.rule == "sync-load" && $0.severity == .warning })
  }

  /// A file that ends in the middle of a local's declaration (`let x =`) inside a member that reads a
  /// stored asset: the look for "the local unwraps the property itself" stops at the end of the file.
  @Test func fileEndingInALocalDeclarationIsAudited() async throws {
    let source = """
      import AVFoundation
      import UIKit
      final class V: UIViewController {
        let asset = AVAsset(url: URL(fileURLWithPath: "a.mov"))
        override func viewDidLoad() {
          _ = asset.tracks(withMediaType: .video)
          let x =
      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.swiftFiles == 1 && report.skipped.isEmpty)
  }

  /// Thousands of types, each handing a stored asset to the next one's initializer: whether the last
  /// one's read finds it loaded is followed a bounded number of types deep, not once per type on the stack.
  @Test func longChainsOfTypesHandingOnAnAssetFinish() async throws {
    let count = 6_000
    var source = "import AVFoundation\n"
    for index in 0..<count {
      source += "final class T\(index) { let asset: AVAsset; init(asset: AVAsset) { self.asset = asset }; "
      source += "func next() { _ = T\(index + 1)(asset: asset) } }\n"
    }
    source += "final class T\(count) { let asset: AVAsset; init(asset: AVAsset) { self.asset = asset }; "
    source += "func show() { _ = asset.tracks(withMediaType: .video) } }\n"
    let report = try await Self.audit(["Chain.swift": source])
    #expect(report.swiftFiles == 1 && report.skipped.isEmpty)
  }

  /// Thousands of screens that each call their own `setUp()`, in an app whose storyboard (thousands of
  /// scenes) names ten of them: the types nothing names are found in one pass over the names, and a call of
  /// a name thousands of types declare is followed once, not once per caller and callee.
  @Test func thousandsOfScreensNothingNamesFinish() async throws {
    let count = 5_000
    let named = 10
    var source = "import UIKit\n@main final class AppDelegate: UIResponder, UIApplicationDelegate {}\n"
    for index in 0..<count {
      source += "final class Screen\(index): UIViewController {\n"
      source += "  override func viewDidLoad() { super.viewDidLoad(); setUp() }\n"
      source += "  func setUp() {\n    let picker = UIImagePickerController()\n"
      source += "    picker.sourceType = .photoLibrary\n    present(picker, animated: true)\n  }\n}\n"
    }
    var storyboard = "<document><scenes>\n"
    for index in 0..<count {
      let name = index < named ? "Screen\(index)" : "Other\(index)"
      storyboard += "<scene><viewController id=\"v\(index)\" customClass=\"\(name)\"/></scene>\n"
    }
    storyboard += "</scenes></document>\n"
    let project = """
      B1 /* Main.storyboard */ = {isa = PBXFileReference; path = Main.storyboard; };
      GENERATE_INFOPLIST_FILE = YES;
      INFOPLIST_KEY_NSPhotoLibraryUsageDescription = "Photos";

      """
    let report = try await Self.audit([
      "Screens.swift": source, "Main.storyboard": storyboard, "App.xcodeproj/project.pbxproj": project,
    ])
    #expect(report.findings.filter { $0.rule == "picker-legacy" }.count == named)
  }

  /// A collection of 1,500 small apps, each an Xcode project with its own Info.plist, half of them declaring
  /// the camera key, plus one project whose settings name 2,000 Info.plists and a file 200 folders deep:
  /// each camera picker is judged by its own project's keys, and finding a file's project stays a walk up
  /// its own path.
  @Test func thousandsOfSiblingAppsAreEachJudgedByTheirOwnKeys() async throws {
    let count = 1_500
    var files: [String: String] = [:]
    let picker =
      "import UIKit\nfunc pick(_ picker: UIImagePickerController) { picker.sourceType = .camera }\n"
    for index in 0..<count {
      let key = index.isMultiple(of: 2) ? "<key>NSCameraUsageDescription</key><string>Scan.</string>" : ""
      files["Apps/App\(index)/App\(index).xcodeproj/project.pbxproj"] =
        "{ objects = { 1 = { isa = PBXProject; }; 2 = { buildSettings = { INFOPLIST_FILE = App\(index)/Info.plist; }; }; }; }\n"
      files["Apps/App\(index)/App\(index)/Info.plist"] =
        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>\(key)</dict></plist>\n"
      files["Apps/App\(index)/App\(index)/Picker.swift"] = picker
    }
    var settings = "{ objects = { 1 = { isa = PBXProject; }; 2 = { buildSettings = {\n"
    for index in 0..<2_000 { settings += "INFOPLIST_FILE = \"$(SRCROOT)/Plists/\(index)/Info.plist\";\n" }
    files["Many/Many.xcodeproj/project.pbxproj"] = settings + "}; }; }; }\n"
    let deep = (0..<200).map { "d\($0)" }.joined(separator: "/")
    files["Many/\(deep)/Picker.swift"] = picker
    let report = try await Self.audit(files)
    let reported = report.findings.filter { $0.rule == "missing-usage-key" }
    #expect(reported.count == count / 2)
    #expect(reported.allSatisfy { $0.file.hasPrefix("Apps/App") })
  }

  /// 4,000 actions that each loop over the same stored array of assets and over assets they map from URLs:
  /// each mapped loop's first read is reported once, the stored array's once in all.
  @Test func thousandsOfLoopsOverAssetsFinish() async throws {
    let count = 4_000
    var source = "import AVFoundation\nimport UIKit\nfinal class Merge: UIViewController {\n"
    source += "  var assets: [AVAsset] = []\n  var urls: [URL] = []\n"
    for index in 0..<count {
      source += "  @IBAction func merge\(index)(_ sender: UIButton) {\n"
      source += "    for asset in assets { print(asset.duration) }\n"
      source += "    let made = urls.map { AVAsset(url: $0) }\n"
      source += "    for (number, clip) in made.enumerated() { print(number, clip.duration) }\n  }\n"
    }
    let report = try await Self.audit(["Merge.swift": source + "}\n"])
    #expect(report.findings.filter { $0.rule == "sync-load" }.count == count + 1)
  }

  /// A `willDisplay` that sets 3,000 properties of its cell to the asset at its index, and a cell whose 3,000
  /// observers each request the image unchecked: each request is reported once.
  @Test func thousandsOfObservedCellPropertiesFinish() async throws {
    let count = 3_000
    var controller = """
      import Photos
      import UIKit
      final class Grid: UIViewController {
        var fetchResult: PHFetchResult<PHAsset>!
        func collectionView(_ view: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
          view.dequeueReusableCell(withReuseIdentifier: "Cell", for: indexPath)
        }
        func collectionView(_ view: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {
          guard let cell = cell as? Cell else { return }
          let asset = fetchResult[indexPath.item]

      """
    var cell =
      "import Photos\nimport UIKit\nfinal class Cell: UICollectionViewCell {\n  let imageView = UIImageView()\n"
    for index in 0..<count {
      controller += "    cell.asset\(index) = asset\n"
      cell +=
        "  var asset\(index): PHAsset? { didSet { PHImageManager.default().requestImage(for: asset\(index)!, "
      cell +=
        "targetSize: .zero, contentMode: .aspectFill, options: nil) { image, _ in self.imageView.image = image } } }\n"
    }
    let report = try await Self.audit(["Grid.swift": controller + "  }\n}\n", "Cell.swift": cell + "}\n"])
    #expect(report.findings.filter { $0.rule == "grid-keyed-by-index" }.count == count)
  }

  /// 3,000 list views that draw a content closure per row, each used once with a row that decodes through a
  /// helper: the wrappers are found in one pass and each use's helper is reported once.
  @Test func thousandsOfListWrappersFinish() async throws {
    let count = 3_000
    var wrappers = "import SwiftUI\n"
    var uses = "import SwiftUI\nimport UIKit\n"
    for index in 0..<count {
      wrappers += "struct Rows\(index)<Content: View>: View { let content: (Int) -> Content\n"
      wrappers += "  var body: some View { List(0..<3, id: \\.self) { item in self.content(item) } } }\n"
      uses += "func photo\(index)(_ name: String) -> UIImage { UIImage(contentsOfFile: name) ?? UIImage() }\n"
      uses += "struct Screen\(index): View { var body: some View { Rows\(index)(content: { item in "
      uses += "Image(uiImage: photo\(index)(\"\\(item)\")) }) } }\n"
    }
    let report = try await Self.audit(["Rows.swift": wrappers, "Screens.swift": uses])
    #expect(report.findings.filter { $0.rule == "full-decode-thumbnail" }.count == count)
  }
}
