import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoIntakeAudit

/// A blocking helper is reported once, at the blocking call, and each of its main-thread call sites is a
/// step of the context path at its own line: in the text notes, the JSON `contextPath` and the SARIF
/// `relatedLocations`. Callers that pass `false`, or call it from another queue, are not among them.
struct CallSitePathTests {
  static func report() throws -> AuditReport {
    let fixture = try #require(Fixture.all.first { $0.name == "sync-load/bad-synchronous-parameter" })
    let folder = TemporaryDirectory()
    try fixture.write(to: folder)
    return try Auditor(only: ["sync-load"]).audit(folder: folder.path, displayName: ".")
  }

  /// `Screens.swift` calls the helper with `synchronous: true` on lines 10 (viewDidLoad) and 14 (an
  /// `@objc` action), and from a global queue on line 20.
  @Test func everyMainThreadCallSiteIsAStepAtItsLine() throws {
    let report = try Self.report()
    let finding = try #require(report.findings.first { $0.file == "ImageFetcher.swift" && $0.line == 14 })
    let callSites = finding.contextPath.filter { $0.file == "Screens.swift" }.map(\.line)
    #expect(callSites == [8, 10, 14])
    #expect(finding.severity == .error)
    #expect(!finding.contextPath.contains { $0.line == 20 })
    #expect(report.findings.filter { $0.file == "Screens.swift" }.isEmpty)

    let text = TextFormatter.format(report)
    #expect(text.contains("Screens.swift:10:43: note: calls ImageFetcher.image(for:size:synchronous:)"))
    #expect(
      text.contains(
        "Screens.swift:14:43: note: DetailViewController.zoom() also calls ImageFetcher.image(for:size:synchronous:) on the main thread"
      ))

    let json =
      try JSONSerialization.jsonObject(with: Data(JSONFormatter.format(report).utf8)) as? [[String: Any]]
    let first = try #require(json?.first { $0["line"] as? Int == 14 })
    let steps = try #require(first["contextPath"] as? [[String: Any]])
    #expect(steps.compactMap { $0["line"] as? Int } == [8, 10, 14])

    let sarif = try JSONSerialization.jsonObject(
      with: Data(SARIFFormatter.format(report, toolVersion: "0").utf8))
    let runs = try #require((sarif as? [String: Any])?["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    let result = try #require(
      results.first { result in
        let location = (result["locations"] as? [[String: Any]])?.first
        let region = (location?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        return region?["startLine"] as? Int == 14
      })
    let related = try #require(result["relatedLocations"] as? [[String: Any]])
    let lines = related.compactMap { location in
      ((location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int
    }
    #expect(lines == [8, 10, 14])
  }

  /// A helper that always blocks, reached from a cell, an action and a background queue: one finding, at
  /// the request, with the first call's path from its seed and the other main-thread call as a step.
  @Test func anAlwaysBlockingHelperListsEveryMainThreadCaller() throws {
    let folder = TemporaryDirectory()
    try folder.write(
      "Thumbnail.swift",
      """
      import Photos
      import UIKit

      func thumbnail(_ asset: PHAsset) -> UIImage? {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var image: UIImage?
        PHImageManager.default().requestImage(
          for: asset, targetSize: CGSize(width: 90, height: 90), contentMode: .aspectFill, options: options
        ) { result, _ in image = result }
        return image
      }
      """)
    try folder.write(
      "Screens.swift",
      """
      import Photos
      import UIKit

      final class PhotoCell: UICollectionViewCell {
        let imageView = UIImageView()
        func show(_ asset: PHAsset) {
          imageView.image = thumbnail(asset)
        }
      }

      final class Browser: NSObject {
        @objc func share(_ asset: PHAsset) {
          _ = thumbnail(asset)
        }
        func warm(_ assets: [PHAsset]) {
          DispatchQueue.global().async { assets.forEach { _ = thumbnail($0) } }
        }
      }
      """)
    let report = try Auditor(only: ["sync-load"]).audit(folder: folder.path, displayName: ".")
    #expect(report.findings.map { "\($0.file):\($0.line)" } == ["Thumbnail.swift:8"])
    let steps = try #require(report.findings.first).contextPath
    #expect(
      steps.map { "\($0.file):\($0.line)" } == ["Screens.swift:6", "Screens.swift:7", "Screens.swift:13"])
    #expect(steps.last?.reason == "also calls thumbnail(_:) on the main thread")
  }

  /// A blocking read inside an `AVAsset` extension's members: reported once, at the read, with the
  /// main-thread callers that had not loaded the asset (viewDidLoad on line 11, an action on line 15) as
  /// steps; a caller that loaded it first and one on a background queue are not among them.
  @Test func anAssetExtensionListsItsMainThreadCallers() throws {
    let fixture = try #require(Fixture.all.first { $0.name == "sync-load/bad-asset-extension-read-on-main" })
    let folder = TemporaryDirectory()
    try fixture.write(to: folder)
    let report = try Auditor(only: ["sync-load"]).audit(folder: folder.path, displayName: ".")
    #expect(
      report.findings.map { "\($0.file):\($0.line)" } == [
        "AVAsset+Orientation.swift:8", "AVAsset+Orientation.swift:14",
      ])
    let portrait = try #require(report.findings.first { $0.line == 8 })
    #expect(
      portrait.contextPath.map { "\($0.file):\($0.line)" } == [
        "PlayerViewController.swift:8", "PlayerViewController.swift:11",
      ])
    let length = try #require(report.findings.first { $0.line == 14 })
    #expect(length.contextPath.last.map { "\($0.file):\($0.line)" } == "PlayerViewController.swift:15")
    #expect(!report.findings.flatMap(\.contextPath).contains { $0.line == 22 || $0.line == 28 })
  }
}
