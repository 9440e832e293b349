import Foundation
import Testing

@testable import PhotoIntakeAudit

/// The shapes stop 39's review found quadratic (made linear in stop 40): outside and private assets, a
/// one-line type, nested helpers, asset parameters and requests inside one long condition. Each is built at
/// a size that took seconds before; the tests check the answer.
extension HostileInputTests {
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

  /// Files cut off or mid-edit where earlier builds trapped (an index past the end or an inverted range),
  /// found by fuzzing the fixtures: each is audited, and the project's other file still is.
  @Test(arguments: [
    "import AVFoundation\nclass A { private var asset: AVAsset?\n func f() { let d = asset!.duration }\n func h() {",
    "class r{func{e.tracks(func{",
    "import Photos\nfunc f(status: PHAuthorizationStatus) {\n  switch status { case .limited }\n}\n",
    "struct A {\n  let\n  var count = 0\n}\n",
    "import Photos\nlet photos: PHFetchResult",
    "import AVFoundation\nclass B { var clip: AVAsset? { didSet {",
  ])
  func filesCutOffMidEditAreAudited(_ source: String) async throws {
    let other =
      "import UIKit\nfunc pick() -> UIImagePickerController {\n  let picker = UIImagePickerController(); picker.sourceType = .photoLibrary; return picker\n}\n"
    let report = try await Self.audit(["Cut.swift": source, "Other.swift": other])
    #expect(report.swiftFiles == 2)
    #expect(report.findings.contains { $0.file == "Other.swift" && $0.rule == "picker-legacy" })
  }

  /// A closure given to no call (`#Preview { … }`, `let work = { … }`) that calls a function handing out a
  /// full-size decode: following the image there once read the closure's absent callee and trapped (the whole
  /// tuning tree crashed on a Moonshot preview that calls `Bundle.decode`).
  @Test(arguments: [
    "#Preview {\n  let image = decode(Data())\n  return Grid(store: Store())\n}\n",
    "let work = {\n  let image = decode(Data())\n  print(image as Any)\n}\n",
  ])
  func closuresGivenToNoCallAreFollowed(_ closure: String) async throws {
    let grid = """
      import SwiftUI
      import UIKit

      final class Store: ObservableObject {
        @Published var photos: [UIImage] = []
      }

      struct Grid: View {
        @ObservedObject var store: Store
        var body: some View { List { ForEach(store.photos, id: \\.self) { Image(uiImage: $0) } } }
      }

      func decode(_ data: Data) -> UIImage? {
        let image = UIImage(data: data)
        return image
      }

      """
    let report = try await Self.audit(["Grid.swift": grid + closure])
    #expect(report.swiftFiles == 1)
    #expect(report.skipped.isEmpty)
  }
}
