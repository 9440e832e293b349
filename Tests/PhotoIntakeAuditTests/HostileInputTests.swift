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
      "Picker.swift": "import UIKit\nlet picker = UIImagePickerController()\n",
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
  /// Thousands of top-level assets, each read once by its own member of one type: whether each name is a
  /// stored property of the type is answered from one merged table per type, not a walk over every
  /// member per name (8,000 took 18 s), and every first read is reported.
  @Test func thousandsOfOutsideAssetsReadInOneTypeAreEachReported() async throws {
    let count = 3_000
    var globals = ""
    var members = ""
    for index in 0..<count {
      globals += "let g\(index) = AVAsset(url: URL(fileURLWithPath: \"\(index)\"))\n"
      members += "  func f\(index)() { _ = g\(index).tracks(withMediaType: .video) }\n"
    }
    let source =
      "import AVFoundation\nimport UIKit\n\(globals)final class V: UIViewController {\n\(members)}\n"
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.count == count)
    #expect(report.findings.allSatisfy { $0.rule == "sync-load" })
  }

  /// Thousands of `private var clip: AVAsset?` declarations, one a line: a declaration ending in a postfix
  /// `?` ends its statement (it ran on to the end of the type, once per declaration), and whether a member
  /// sets a property is looked up by name. Each member that sets its clip and reads it is reported once;
  /// the members that read it later are not.
  @Test func thousandsOfPrivateOptionalAssetsAreEachJudged() async throws {
    let count = 2_000
    var declarations = ""
    var members = ""
    for index in 0..<count {
      declarations += "  private var clip\(index): AVAsset?\n"
      members +=
        "  func open\(index)(_ url: URL) { clip\(index) = AVAsset(url: url); _ = clip\(index)?.duration }\n"
      members += "  func show\(index)() { _ = clip\(index)?.duration }\n"
    }
    let source =
      "import AVFoundation\nimport UIKit\nfinal class V: UIViewController {\n\(declarations)\(members)}\n"
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.count == count)
    #expect(report.findings.allSatisfy { $0.line > count + 3 && ($0.line - count - 4) % 2 == 0 })
  }

  /// A type of thousands of members on one line, separated by `;`: each declaration is read to its `;`,
  /// not to the end of the line, and a label in a call is no declaration.
  @Test func oneLineTypeOfThousandsOfMembersIsReadOnce() async throws {
    let count = 8_000
    let members = (0..<count).map { "var a\($0): Int?" }.joined(separator: "; ")
    let labels = (0..<count).map { "a\($0): \($0)" }.joined(separator: ", ")
    let source =
      "import AVFoundation\nimport UIKit\nfinal class V: UIViewController { \(members); "
      + "let asset = AVAsset(url: URL(fileURLWithPath: \"a\")); "
      + "func show() { _ = asset.tracks(withMediaType: .video); print(\(labels)) } }\n"
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.map(\.rule) == ["sync-load"])
  }

  /// Functions nested thousands deep, each reached from a cell: the type around each is one look, and a
  /// call counts for the innermost function around it, so the decode at the bottom is reported once.
  @Test func deeplyNestedHelpersReachedFromACellFinish() async throws {
    let depth = 2_000
    let nest =
      String(repeating: "func show() { _ = stored(name)\n", count: depth)
      + String(repeating: "}\n", count: depth)
    let source = """
      import UIKit
      func stored(_ name: String) -> UIImage? { UIImage(contentsOfFile: name) }
      final class PhotoCell: UICollectionViewCell {
        let name = "a"
        func configure() { show() }
      \(nest)}
      final class VC: UIViewController, UICollectionViewDataSource {
        func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
          let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath) as! PhotoCell
          cell.configure()
          return cell
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.skipped.isEmpty)
    #expect(report.findings.map(\.rule) == ["full-decode-thumbnail"])
  }

  /// Thousands of functions that each take an asset and read it, and one function of thousands of asset
  /// parameters: a parameter's function is found by one look at its parenthesis and a binary search, and
  /// a name's declarations are looked up in the scopes around the read, not all of them.
  @Test func thousandsOfAssetParametersAreEachJudged() async throws {
    let count = 3_000
    let functions = (0..<count).map { "  func f\($0)(a: AVAsset) { _ = a.duration }" }.joined(separator: "\n")
    let parameters = (0..<count).map { "b\($0): AVAsset" }.joined(separator: ", ")
    let source =
      "import AVFoundation\nimport UIKit\nfinal class V: UIViewController {\n\(functions)\n"
      + "  func g(\(parameters)) { _ = b0.duration }\n}\n"
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.count == count + 1)
  }

  /// Thousands of legacy requests inside one `if` of thousands of conditions, in a project that only saves:
  /// each block's condition is read once for all the requests in it, and each request is reported; inside
  /// an `if` within the `else` of `if #available(iOS 14, *)` none is.
  @Test func thousandsOfRequestsInsideOneLongConditionAreEachJudged() async throws {
    let count = 2_000
    let condition = (0..<count).map { "c\($0)" }.joined(separator: " && ")
    let requests = String(repeating: "      PHPhotoLibrary.requestAuthorization { _ in }\n", count: count)
    func source(_ head: String, _ tail: String) -> String {
      """
      import Photos
      import UIKit
      final class V: UIViewController {
        func save(_ image: UIImage) {
          \(head) {
      \(requests)    }\(tail)
          PHPhotoLibrary.shared().performChanges({ PHAssetChangeRequest.creationRequestForAsset(from: image) })
        }
      }

      """
    }
    let plain = try await Self.audit(["V.swift": source("if \(condition)", "")])
    #expect(plain.findings.count == count)
    #expect(plain.findings.allSatisfy { $0.rule == "over-request-save" })
    let legacy = try await Self.audit([
      "V.swift": source("if #available(iOS 14, *) {} else { if \(condition)", " }")
    ])
    #expect(legacy.findings.count == 0)
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

  /// A completion handler that passes the temporary URL to a method at hundreds of call sites, which passes
  /// it on to another method at hundreds more: each method's parameter is followed once per depth, not once
  /// per path (the fourth power of the calls). Kept in a property by the last method, it is reported once.
  @Test func hundredsOfCallsHandingOnATemporaryURLAreFollowedOnce() async throws {
    let count = 200
    func source(keeps: Bool) -> String {
      let first = String(repeating: "      self.m1(u: url)\n", count: count)
      let second = String(repeating: "    self.m2(u: u)\n", count: count)
      return """
        import UIKit
        import UniformTypeIdentifiers
        final class V: UIViewController {
          var kept: URL?
          func m1(u: URL) {
        \(second)  }
          func m2(u: URL) {
            print(u)\(keeps ? "\n    self.kept = u" : "")
          }
          func pick(_ provider: NSItemProvider) {
            provider.loadFileRepresentation(forTypeIdentifier: UTType.movie.identifier) { url, error in
        \(first)    }
          }
        }

        """
    }
    let read = try await Self.audit(["V.swift": source(keeps: false)])
    #expect(read.findings.filter { $0.rule == "temp-url-escapes" }.isEmpty)
    let kept = try await Self.audit(["V.swift": source(keeps: true)])
    #expect(kept.findings.filter { $0.rule == "temp-url-escapes" }.count == 1)
  }

  /// Thousands of `let pK = url.path` in one completion handler: each alias's own uses are read from one
  /// table of the handler's names, not the whole handler once per alias. The last, read by later work, is
  /// reported.
  @Test func thousandsOfAliasesOfATemporaryURLAreEachFollowed() async throws {
    let count = 8_000
    let aliases = (0..<count).map { "      let p\($0) = url.path\n" }.joined()
    let source = """
      import UIKit
      import UniformTypeIdentifiers
      final class V: UIViewController {
        func pick(_ provider: NSItemProvider) {
          provider.loadFileRepresentation(forTypeIdentifier: UTType.movie.identifier) { url, error in
      \(aliases)      DispatchQueue.main.async { print(p\(count - 1)) }
          }
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.map(\.rule) == ["temp-url-escapes"])
  }

  /// `let c = [d, d, …]; let b = [c, c, …]; let a = [b, b, …]` saved to UserDefaults: each value is read
  /// once per depth, not once per path through the names (cubic). A photo identifier's name at the bottom
  /// is reported.
  @Test func nestedArraysOfLocalsSavedToDefaultsAreReadOnce() async throws {
    let count = 100
    func source(_ bottom: String) -> String {
      func list(_ name: String) -> String {
        "[" + Array(repeating: name, count: count).joined(separator: ", ") + "]"
      }
      return """
        import Photos
        import UIKit
        final class V: UIViewController {
          func f() {
            let \(bottom) = "x"
            let c = \(list(bottom))
            let b = \(list("c"))
            let a = \(list("b"))
            UserDefaults.standard.set(a, forKey: "k")
          }
        }

        """
    }
    let text = try await Self.audit(["V.swift": source("d")])
    #expect(text.findings.filter { $0.rule == "identifier-only-persistence" }.isEmpty)
    let identifiers = try await Self.audit(["V.swift": source("assetIDs")])
    #expect(identifiers.findings.filter { $0.rule == "identifier-only-persistence" }.count == 1)
  }

  /// One function of a thousand defaulted `SourceType` parameters and a thousand calls that each pass one:
  /// each call is fitted to the declaration once and its labels counted, not once per parameter. Each
  /// default is left out by some call, so each picker is still reported.
  @Test func aThousandDefaultedSourceTypesAreEachJudged() async throws {
    let count = 1_000
    // One a line: a finding's token is found by walking its line.
    let parameters = (0..<count).map { "\n    s\($0): UIImagePickerController.SourceType = .photoLibrary" }
      .joined(separator: ",")
    let calls = (0..<count).map { "    present(s\($0): .camera)\n" }.joined()
    let source = """
      import UIKit
      final class V: UIViewController {
        func present(\(parameters)) { let p = UIImagePickerController(); p.sourceType = s0; present(p, animated: true) }
        func go() {
      \(calls)  }
      }

      """
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>NSPhotoLibraryUsageDescription</key><string>x</string></dict></plist>

      """
    let report = try await Self.audit(["V.swift": source, "Info.plist": plist])
    #expect(report.findings.count == count)
    #expect(report.findings.allSatisfy { $0.rule == "picker-legacy" })
  }

  /// Thousands of `try!` in one array literal whose first element loads an item: the statement's end is
  /// found once and its loads counted by a subtraction. Only the first `try!`'s statement holds the load.
  @Test func thousandsOfForcedTriesInOneStatementAreEachJudged() async throws {
    let count = 20_000
    let tries = Array(repeating: "try! g()", count: count).joined(separator: ", ")
    let source = """
      import UIKit
      func g(_ x: Any? = nil) throws -> Int { 0 }
      final class V: UIViewController {
        func f(_ provider: NSItemProvider) {
          let x = [try! g(provider.loadItem(forTypeIdentifier: "public.image", options: nil)), \(tries)]
          print(x)
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.filter { $0.rule == "sync-load" }.count == 1)
  }

  /// Thousands of full-size decodes appended to one local that becomes the data a list draws: the local's
  /// declaration and later stores are indexed once per function, and every decode is reported.
  @Test func thousandsOfDecodesIntoOneLocalListAreEachReported() async throws {
    let count = 4_000
    let decodes = (0..<count).map { "    loaded.append(UIImage(data: d\($0 % 10))!)\n" }.joined()
    let parameters = (0..<10).map { "d\($0): Data" }.joined(separator: ", ")
    let source = """
      import SwiftUI
      import UIKit
      final class Model: ObservableObject {
        @Published var photos: [UIImage] = []
        func load(\(parameters)) {
          var loaded: [UIImage] = []
      \(decodes)    photos = loaded
        }
      }
      struct Grid: View {
        @ObservedObject var model: Model
        var body: some View {
          List { ForEach(model.photos, id: \\.self) { image in Image(uiImage: image) } }
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.filter { $0.rule == "full-decode-thumbnail" }.count == count)
  }

  /// Thousands of `guard status != .authorized else { return }` in one function: whether the function
  /// mentions `.limited` and where it last asks again are answered once. Followed by a request, none is
  /// reported; without one, each is.
  @Test func thousandsOfAuthorizedGuardsInOneFunctionAreEachJudged() async throws {
    let count = 4_000
    func source(asksAgain: Bool) -> String {
      let guards = String(repeating: "    guard status != .authorized else { return }\n", count: count)
      return """
        import Photos
        import UIKit
        final class V: UIViewController {
          func f() {
            let status: PHAuthorizationStatus = PHPhotoLibrary.authorizationStatus(for: .readWrite)
        \(guards)\(asksAgain ? "    PHPhotoLibrary.requestAuthorization(for: .readWrite) { _ in }\n" : "")  }
        }

        """
    }
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>NSPhotoLibraryUsageDescription</key><string>x</string></dict></plist>

      """
    let asks = try await Self.audit(["V.swift": source(asksAgain: true), "Info.plist": plist])
    #expect(asks.findings.filter { $0.rule == "limited-ignored" }.isEmpty)
    let ignores = try await Self.audit(["V.swift": source(asksAgain: false), "Info.plist": plist])
    #expect(ignores.findings.filter { $0.rule == "limited-ignored" }.count == count)
  }

  /// Thousands of `ForEach(0..<assets.count)` in one view over a fetch result: the view's array
  /// declarations are read once, and every loop is reported.
  @Test func thousandsOfIndexLoopsOverAFetchResultAreEachReported() async throws {
    let count = 4_000
    let loops = (0..<count).map { "      ForEach(0..<assets.count, id: \\.self) { i in Text(\"\($0)\") }\n" }
      .joined()
    let source = """
      import Photos
      import SwiftUI
      struct Grid: View {
        var assets: PHFetchResult<PHAsset> = PHAsset.fetchAssets(with: nil)
        var body: some View {
          VStack {
      \(loops)    }
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.count == count)
    #expect(report.findings.allSatisfy { $0.rule == "grid-keyed-by-index" })
  }
}
