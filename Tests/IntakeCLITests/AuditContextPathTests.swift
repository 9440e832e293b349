import Foundation
import PhotoIntakeAudit
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// Findings that depend on the thread say how the code gets there, in every output format.
struct AuditContextPathTests {
  /// A capture session started in a helper class that a view controller calls from `viewDidLoad`: the path
  /// is the seed at its declaration, then the call at its own line.
  static let project: [String: String] = [
    "Camera/Capture.swift": """
    import AVFoundation

    final class Capture {
      let session = AVCaptureSession()

      func begin() {
        session.startRunning()
      }
    }
    """,
    "Camera/ScanViewController.swift": """
    import UIKit

    final class ScanViewController: UIViewController {
      let capture = Capture()

      override func viewDidLoad() {
        super.viewDidLoad()
        capture.begin()
      }
    }
    """,
  ]

  @Test func textNamesThePathWithNotes() async throws {
    let run = try await AuditCommandTests.run(["audit", "Camera"], files: Self.project)
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        Camera/Capture.swift:7:13: warning: AVCaptureSession.startRunning()/stopRunning() runs on the main \
        thread; it blocks until the camera starts or stops. Reached on the main thread from \
        ScanViewController.viewDidLoad() → Capture.begin(). [session-main-thread]
        Camera/ScanViewController.swift:6:17: note: on the main thread: ScanViewController.viewDidLoad() \
        (override of viewDidLoad)
        Camera/ScanViewController.swift:8:13: note: calls Capture.begin()

        """)
  }

  @Test func jsonCarriesTheContextPath() async throws {
    let run = try await AuditCommandTests.run(["audit", "--format", "json", "Camera"], files: Self.project)
    let findings = try JSONDecoder().decode([PhotoIntakeAudit.Finding].self, from: Data(run.stdout.utf8))
    #expect(findings.count == 1)
    #expect(
      findings.first?.contextPath.map { "\($0.file):\($0.line) \($0.function)" } == [
        "Camera/ScanViewController.swift:6 ScanViewController.viewDidLoad()",
        // The call, at its own line in the caller.
        "Camera/ScanViewController.swift:8 Capture.begin()",
      ])
    #expect(findings.first?.contextPath.first?.reason == "override of viewDidLoad")
  }

  @Test func sarifCarriesRelatedLocationsAndACodeFlow() async throws {
    let run = try await AuditCommandTests.run(["audit", "--format", "sarif", "Camera"], files: Self.project)
    let validation = try AuditSARIFTests.validate(run.stdout)
    try AuditSARIFTests.requireValidator(validation)
    #expect(validation.status == 0, "\(validation.output)")
    let log = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let result = try #require(
      ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
    let related = try #require(result["relatedLocations"] as? [[String: Any]])
    #expect(related.compactMap { $0["id"] as? Int } == [1, 2])
    let flow = try #require(
      ((result["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first?[
        "locations"] as? [[String: Any]])
    #expect(flow.compactMap { $0["nestingLevel"] as? Int } == [0, 1, 2])
    let uris = flow.compactMap {
      ((($0["location"] as? [String: Any])?["physicalLocation"] as? [String: Any])?["artifactLocation"]
        as? [String: Any])?["uri"] as? String
    }
    #expect(uris == ["ScanViewController.swift", "ScanViewController.swift", "Capture.swift"])
  }
}
