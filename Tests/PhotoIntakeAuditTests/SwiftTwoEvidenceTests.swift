import Testing

@testable import PhotoIntakeAudit

/// Which files are read as Swift 2 code, whose functions leave the first parameter unlabeled.
struct SwiftTwoEvidenceTests {
  static func isSwiftTwo(_ text: String) -> Bool {
    SwiftTwoEvidence.isSwiftTwo(SourceFile(path: "A.swift", bytes: Array(text.utf8)))
  }

  @Test(arguments: [
    "let d = NSUserDefaults.standardUserDefaults()",
    "dispatch_async(dispatch_get_main_queue()) { }",
    "let t = asset.tracksWithMediaType(AVMediaTypeVideo)",
    "class A: UIViewController { override func viewDidAppear(animated: Bool) {} }",
    "class A { func tableView(tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 } }",
    "class A { override func prepareForSegue(segue: UIStoryboardSegue, sender: AnyObject?) {} }",
  ])
  func swiftTwoSpellingsAreEvidence(_ text: String) {
    #expect(Self.isSwiftTwo(text))
  }

  @Test(arguments: [
    "let d = UserDefaults.standard",
    "let mainQueue = OperationQueue.main; mainQueue.addOperation { }",
    "let type = UIImagePickerControllerSourceType.photoLibrary; let v = AVMediaTypeVideo",
    "class A: UIViewController { override func viewDidAppear(_ animated: Bool) {} }",
    "class A { func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 } }",
    "class A { func fillWith(asset: AVAsset) {} }",
    "// dispatch_async(dispatch_get_main_queue()) in a comment\nlet s = \"copyCGImageAtTime\"",
  ])
  func todaysCodeIsNot(_ text: String) {
    #expect(!Self.isSwiftTwo(text))
  }

  @Test func swiftTwoCallsReachTheirCallees() {
    let model = ProjectModelTests.model([
      "A.swift": """
      class Loader {
        func posterFor(asset: AVAsset, size: CGSize) {}
        func lengthOf(asset asset: AVAsset) {}
        func lengthOf(url: NSURL) {}
        func later() { dispatch_async(dispatch_get_main_queue()) {} }
      }
      """,
      "B.swift": """
      class Screen: UIViewController {
        let loader = Loader()
        override func viewDidAppear(animated: Bool) {
          loader.posterFor(clip, size: size)
          loader.lengthOf(url)
        }
      }
      """,
      "C.swift": """
      class NewLoader {
        func posterFor(asset: AVAsset, size: CGSize) {}
      }
      """,
    ])
    let edges = ProjectModelTests.edges(model)
    #expect(edges.contains("Screen.viewDidAppear(_:) → Loader.posterFor(_:size:)"))
    #expect(edges.contains("Screen.viewDidAppear(_:) → Loader.lengthOf(_:)"))
    #expect(!edges.contains("Screen.viewDidAppear(_:) → Loader.lengthOf(asset:)"))
    // Swift 3 code keeps Swift 3's labels.
    #expect(model.functions.contains { $0.display == "NewLoader.posterFor(asset:size:)" })
  }
}
