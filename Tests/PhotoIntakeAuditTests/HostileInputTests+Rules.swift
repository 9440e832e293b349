import Foundation
import Testing

@testable import PhotoIntakeAudit

/// The rules' own passes made linear in stop 40: a temporary URL handed on, identifier flows, defaulted
/// source types, forced tries, list-data locals, status guards and index loops. Each is built at a size that
/// took seconds before; the tests check the answer.
extension HostileInputTests {
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
      <plist version="1.0"><dict><key>NSPhotoLibraryUsageDescription</key><string>x</string>
      <key>NSCameraUsageDescription</key><string>x</string></dict></plist>

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
