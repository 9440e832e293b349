import Testing

@testable import PhotoIntakeAudit

/// The shapes of issue 25's last linear pass (stop 40): deep nesting, long chains and names thousands of
/// types declare. Each is built at a size that took seconds before; the tests check the answer.
extension HostileInputTests {
  /// Functions nested thousands deep, each reading its asset parameter: a function's reads, loads,
  /// declared names and assignments are sliced from one index per file, not rescanned per nested
  /// function (8,000 took 12 s and 1.3 GB). Every function's first read is reported.
  @Test func thousandsOfNestedFunctionsAreEachJudged() async throws {
    let depth = 1_500
    let nest =
      (0..<depth).map { "func g\($0)(a: AVAsset) { _ = a.duration\n" }.joined()
      + String(repeating: "}\n", count: depth)
    let source = "import AVFoundation\nimport UIKit\nfinal class V: UIViewController {\n\(nest)}\n"
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.count == depth)
    #expect(report.findings.allSatisfy { $0.rule == "sync-load" })
  }

  /// A member chain thousands long (`a.duration.duration…`): a receiver's key reads back at most
  /// ``AssetFacts/maxReceiverTokens`` tokens (20,000 took 13 s and 1.9 GB). The first read is reported.
  @Test func longMemberChainIsReadOnce() async throws {
    let chain = String(repeating: ".duration", count: 4_000)
    let source = """
      import AVFoundation
      import UIKit
      final class V: UIViewController {
        func f(a: AVAsset) {
          _ = a\(chain)
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.map(\.rule) == ["sync-load"])
    #expect(report.findings.map(\.line) == [5])
  }

  /// Thousands of view controllers that each declare and call `setUp()` (bare and on `self`), and a
  /// chain of thousands of subclasses calling `super`: a call's candidates are filtered once per shape
  /// of call and looked up by type (8,000 took 18 s). Only the asset read is reported.
  @Test func thousandsOfTypesDeclaringOneNameFinish() async throws {
    let count = 2_000
    var source = "import AVFoundation\nimport UIKit\n"
    source += "final class A: UIViewController { func f(a: AVAsset) { _ = a.duration } }\n"
    for index in 0..<count {
      source += "final class C\(index): UIViewController { override func viewDidLoad() { "
      source += "super.viewDidLoad(); self.setUp(); setUp() }\n"
      source += "  func setUp() { view.backgroundColor = .white } }\n"
    }
    var chain = "import AVFoundation\nimport UIKit\n"
    chain += "class D0: UIViewController { func f(a: AVAsset) { _ = a.duration } }\n"
    for index in 0..<count {
      chain += "class D\(index + 1): D\(index) { override func viewDidLoad() { super.viewDidLoad() } }\n"
    }
    let report = try await Self.audit(["V.swift": source, "D.swift": chain])
    #expect(report.findings.count == 2)
    #expect(report.findings.allSatisfy { $0.rule == "sync-load" && $0.line == 3 })
  }

  /// Thousands of overloads `f(a:xN:)` of one name, each called once with its own labels: overloads with
  /// plain parameters are looked up by their labels (8,000 took 2.4 s). The one asset read is reported once.
  @Test func thousandsOfOverloadsCalledByLabelFinish() async throws {
    let count = 3_000
    let calls = (0..<count).map { "f(a: a, x\($0): 1)" }.joined(separator: "; ")
    let overloads = (0..<count).map { "  func f(a: AVAsset, x\($0): Int) { _ = a.duration }\n" }.joined()
    let source =
      "import AVFoundation\nimport UIKit\nfinal class V: UIViewController {\n"
      + "  override func viewDidLoad() { super.viewDidLoad(); "
      + "let a = AVAsset(url: URL(fileURLWithPath: \"a\")); \(calls) }\n\(overloads)}\n"
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.map(\.rule) == ["sync-load"])
    #expect(report.findings.map(\.line) == [5])
  }

  /// Closures and `if` blocks nested thousands deep, an asset read at each level: whether a read names a
  /// declared asset costs the shorter of the scopes around it and the name's declarations (32,000 took
  /// 13 s). The outermost read is reported; the deeper ones find the asset loaded.
  @Test func deeplyNestedClosuresAndBlocksReadingAnAssetFinish() async throws {
    let depth = 4_000
    for (open, parameters) in [
      ("DispatchQueue.main.async {", "a: AVAsset"), ("if c {", "a: AVAsset, c: Bool"),
    ] {
      let nest = String(repeating: "\(open)\n _ = a.duration\n", count: depth)
      let source = """
        import AVFoundation
        import UIKit
        final class V: UIViewController {
         func f(\(parameters)) {
        \(nest)\(String(repeating: "}\n", count: depth)) }
        }

        """
      let report = try await Self.audit(["V.swift": source])
      #expect(report.findings.map(\.rule) == ["sync-load"])
      #expect(report.findings.map(\.line) == [6])
    }
  }

  /// `let w = { … }()` nested thousands deep beside semaphores: whether a declaration's initializer
  /// mentions a semaphore is a subtraction of prefix counts, not a scan of the closures inside it per
  /// level (16,000 took 5.6 s). The one wait is still judged.
  @Test func deeplyNestedInitializerClosuresFinish() async throws {
    let depth = 2_000
    let nest =
      (0..<depth).map {
        "    let v\($0) = DispatchSemaphore(value: 0); let a\($0) = AVAsset(url: URL(fileURLWithPath: \"a\")); "
          + "let w\($0) = { () -> Int in\n"
      }.joined() + "    0\n" + String(repeating: "    }()\n", count: depth)
    let source = """
      import AVFoundation
      import Photos
      import UIKit
      final class V: UIViewController {
        var x: () -> Void = { }
        var localIdentifier = ""
        func f(a: AVAsset) {
          _ = a.duration
          let s = DispatchSemaphore(value: 0); s.wait()
      \(nest)
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.map(\.rule) == ["sync-load"])
    #expect(report.findings.map(\.line) == [8])
  }

  /// Thousands of `let v = a > (b) { 0 }`: the walk back over generic arguments from a closure's `(`
  /// stops at a brace (80,000 walked to the file's start each, 24 s). Nothing is reported.
  @Test func comparisonsBeforeClosuresFinish() async throws {
    let body = (0..<20_000).map { "    let v\($0) = a > (b) { 0 }" }.joined(separator: "\n")
    let source = """
      import AVFoundation
      import UIKit
      final class V: UIViewController {
        func f(a: Int, b: Int) {
      \(body)
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.isEmpty)
    #expect(report.swiftFiles == 1 && report.skipped.isEmpty)
  }

  /// Types nested thousands deep, each with a method: stored properties are bucketed by scope once per
  /// file (32,000 took 9.6 s), and `#if` nested thousands deep is judged with a count of inactive frames
  /// (80,000 took 4 s). The read under the nested `#if`s is reported once.
  @Test func deeplyNestedTypesAndConditionsFinish() async throws {
    let types =
      (0..<1_500).map {
        "class T\($0) { func f\($0)(a: AVAsset) { _ = a.duration; "
          + "DispatchQueue.main.async { _ = UIImage(contentsOfFile: \"x\") } }\n"
      }.joined() + String(repeating: "}\n", count: 1_500)
    let depth = 8_000
    let conditions = """
      final class V: UIViewController {
       func f(a: AVAsset) {
      \(String(repeating: "#if DEBUG\n _ = a.duration\n", count: depth))\(String(repeating: "#endif\n", count: depth))\
       }
      }

      """
    let report = try await Self.audit([
      "T.swift": "import AVFoundation\nimport UIKit\n" + types,
      "V.swift": "import AVFoundation\nimport UIKit\n" + conditions,
    ])
    #expect(report.findings.map(\.rule) == ["sync-load"])
    #expect(report.findings.map(\.file) == ["V.swift"])
  }

  /// `forEach { g() }` nested thousands deep: where each call runs is remembered per closure scope
  /// (16,000 took 14 s). The asset read before them is reported.
  @Test func deeplyNestedForEachCallsFinish() async throws {
    let depth = 4_000
    let nest =
      (0..<depth).map { "    xs.forEach { _ in g(k: \($0))\n" }.joined()
      + String(repeating: "    }\n", count: depth)
    let source = """
      import AVFoundation
      import UIKit
      final class V: UIViewController {
        let xs = [1]
        func g(k: Int) { }
        func f(a: AVAsset) {
          _ = a.duration
      \(nest)
        }
      }

      """
    let report = try await Self.audit(["V.swift": source])
    #expect(report.findings.map(\.rule) == ["sync-load"])
    #expect(report.findings.map(\.line) == [7])
  }

  /// Thousands of options made synchronous in one function, and thousands of requests passing options
  /// that are neither local nor a parameter: the holder's body is read once, and a local's maker is found
  /// in an index of `let` declarations (8,000 took 12 s and 2 s). The request with synchronous options is
  /// reported; the others are not.
  @Test func thousandsOfSynchronousOptionsAndRequestsFinish() async throws {
    let count = 2_000
    let options = (0..<count).map {
      "    let o\($0) = PHImageRequestOptions()\n    o\($0).isSynchronous = true"
    }.joined(separator: "\n")
    let synchronous = """
      import Photos
      import UIKit
      final class V: UIViewController {
        func f(asset: PHAsset) {
      \(options)
          PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 10, height: 10), \
      contentMode: .aspectFill, options: o0) { _, _ in }
        }
      }

      """
    let requests = (0..<count).map { _ in
      "    PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 1, height: 1), "
        + "contentMode: .aspectFit, options: opts) { _, _ in }"
    }.joined(separator: "\n")
    let unknown = """
      import Photos
      import UIKit
      final class W: UIViewController {
        func f(asset: PHAsset) {
      \(requests)
        }
        func g(asset: PHAsset) {
          let o = PHImageRequestOptions()
          o.isSynchronous = true
          f(asset: asset)
        }
      }

      """
    let report = try await Self.audit(["V.swift": synchronous, "W.swift": unknown])
    #expect(report.findings.map(\.rule) == ["sync-load"])
    #expect(report.findings.map(\.file) == ["V.swift"])
    #expect(report.findings.map(\.line) == [2 * count + 5])
  }
}
