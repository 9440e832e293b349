import Testing

@testable import PhotoIntakeAudit

/// The project model's call graph and execution contexts, asked directly.
struct ProjectModelTests {
  static func model(_ sources: [String: String]) -> ProjectModel {
    var facts = ProjectFacts()
    var files: [SourceFile] = []
    for (path, text) in sources.sorted(by: { $0.key < $1.key }) {
      let file = SourceFile(path: path, bytes: Array(text.utf8))
      facts.add(file)
      files.append(file)
    }
    return ProjectModel(files: files, facts: facts)
  }

  /// `caller → callee` for every call the graph resolved, by display name.
  static func edges(_ model: ProjectModel) -> Set<String> {
    Set(model.calls.map { "\(model.functions[$0.caller].display) → \(model.functions[$0.callee].display)" })
  }

  static func context(_ model: ProjectModel, _ display: String) -> ProjectModel.Context? {
    model.functions.firstIndex { $0.display == display }.map { model.origins[$0].context }
  }

  @Test func callsResolveByNameArityAndReceiverType() {
    let model = Self.model([
      "A.swift": """
      final class Camera {
        func start() {}
        func start(at time: Int) {}
        func stop() {}
      }
      final class Location {
        func stop() {}
      }
      """,
      "B.swift": """
      final class Screen {
        let camera = Camera()
        var location: Location?
        func open() {
          camera.start()
          location?.stop()
          self.close(animated: true)
        }
        func close(animated: Bool) {}
      }
      """,
    ])
    #expect(
      Self.edges(model) == [
        "Screen.open() → Camera.start()", "Screen.open() → Location.stop()",
        "Screen.open() → Screen.close(animated:)",
      ])
  }

  @Test func unknownReceiversMatchOnlyFewCandidates() {
    let types = (1...4).map { "final class T\($0) { func configure() {} }" }.joined(separator: "\n")
    let model = Self.model([
      "T.swift": types,
      "U.swift":
        "func use(_ items: [Any]) { items.first.configure() }\nfunc one(_ things: [Any]) { things.first?.helper() }\nfinal class H { func helper() {} }",
    ])
    #expect(Self.edges(model) == ["one(_:) → H.helper()"])
  }

  @Test func protocolsDispatchToConformersAndSingletonsResolve() {
    let others = (1...4).map { "final class Other\($0) { func go() {} }" }.joined(separator: "\n")
    let model = Self.model([
      "A.swift": """
      protocol Loadable { func load() }
      struct Photo: Loadable { func load() {} }
      struct Note { func load() {} }
      final class Loader {
        static let shared = Loader()
        func go() {}
      }
      """,
      "B.swift": others,
      "C.swift": """
      func show(_ item: Loadable) {
        item.load()
        Loader.shared.go()
      }
      """,
    ])
    #expect(Self.edges(model) == ["show(_:) → Photo.load()", "show(_:) → Loader.go()"])
  }

  @Test func mainSpreadsThroughCallsButNotIntoQueues() {
    let model = Self.model([
      "VC.swift": """
      import UIKit
      final class ScanViewController: BaseController {
        let helper = Helper()
        override func viewDidLoad() {
          helper.direct()
          DispatchQueue.global().async { self.helper.queued() }
          Task.detached { self.helper.detached() }
        }
      }
      """,
      "Helper.swift": """
      final class Helper {
        func direct() { inner() }
        func inner() {}
        func queued() {}
        func detached() {}
        func loadAll() async {}
      }
      actor Store {
        func save() {}
      }
      """,
    ])
    #expect(Self.context(model, "ScanViewController.viewDidLoad()") == .main)
    #expect(Self.context(model, "Helper.direct()") == .main)
    #expect(Self.context(model, "Helper.inner()") == .main)
    #expect(Self.context(model, "Helper.queued()") == .unknown)
    #expect(Self.context(model, "Helper.detached()") == .unknown)
    #expect(Self.context(model, "Store.save()") == .elsewhere)
  }

  @Test func traceNamesThePathFromTheSeed() throws {
    let sources = [
      "Cell.swift": """
      import UIKit
      final class PhotoCell: UICollectionViewCell {
        func configure(with item: PhotoAsset) { _ = item.fullImage }
      }
      """,
      "Asset.swift": """
      struct PhotoAsset {
        var fullImage: Int {
          return 1
        }
      }
      """,
    ]
    let model = Self.model(sources)
    let file = try #require(model.files.first { $0.path == "Asset.swift" })
    let token = try #require(file.tokens.indices.first { file.text($0) == "return" })
    let (context, path) = model.trace(token, in: file)
    #expect(context == .main)
    #expect(path.map(\.function) == ["PhotoCell.configure(with:)", "PhotoAsset.fullImage"])
    #expect(path.first?.reason == "member of PhotoCell (UICollectionViewCell)")
  }
}
