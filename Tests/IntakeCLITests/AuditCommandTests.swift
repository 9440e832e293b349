import Foundation
import PhotoIntakeTesting
import Testing

@testable import IntakeCLI

/// `intake audit` run in-process, on small projects written to a temporary folder per test; outputs are
/// compared whole.
struct AuditCommandTests {
  /// A project with one finding of three rules, a suppressed one, and a clean file.
  static let project: [String: String] = [
    "Project/App/Info.plist": """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>NSCameraUsageDescription</key><string>Scan.</string></dict></plist>
    """,
    "Project/App/Profile.swift": """
    import UIKit

    final class ProfileViewController: UIViewController {
      func choose() {
        let picker = UIImagePickerController()
        picker.sourceType = .photoLibrary
        present(picker, animated: true)
      }

      func save(_ image: UIImage) {
        UIImageWriteToSavedPhotosAlbum(image, nil, nil, nil)
      }
    }
    """,
    "Project/App/Gallery.swift": """
    import SwiftUI

    struct GalleryRow: View {
      let data: Data
      var body: some View {
        // intake-audit:disable full-decode-thumbnail
        Image(uiImage: UIImage(data: data) ?? UIImage())
      }
    }

    struct Avatar: View {
      let item: PhotosPickerItem
      @State private var image: Image?
      var body: some View {
        Text("Avatar").task { image = try? await item.loadTransferable(type: Image.self) }
      }
    }
    """,
    "Project/App/Clean.swift": "struct Settings { var columns = 3 }\n",
    "Project/.build/Checkouts/Vendor.swift":
      "let p = UIImagePickerController(); p.sourceType = .photoLibrary\n",
  ]

  /// Runs `intake` in a new folder holding `files`; the folder's path reads `$TMP` in the output.
  static func run(_ arguments: [String], files: [String: String] = project) async throws -> CLIResult {
    let folder = TemporaryDirectory()
    for (path, text) in files {
      try folder.write(path, text)
    }
    var result = await runIntake(arguments, in: folder.path)
    result.stdout = result.stdout.replacingOccurrences(of: folder.path, with: "$TMP")
    result.stderr = result.stderr.replacingOccurrences(of: folder.path, with: "$TMP")
    return result
  }

  @Test func textOutputIsCompilerStyle() async throws {
    let run = try await Self.run(["audit", "Project"])
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        Project/App/Gallery.swift:15:74: error: loadTransferable(type: Image.self) imports PNG only, so most \
        picked photos (HEIC, JPEG) load as nil. [png-only-image-transferable]
        Project/App/Profile.swift:6:26: warning: UIImagePickerController picks from the photo library; use \
        PHPickerViewController or PhotosPicker. [picker-legacy]
        Project/App/Profile.swift:11:5: error: UIImageWriteToSavedPhotosAlbum needs \
        NSPhotoLibraryAddUsageDescription, but no Info.plist or INFOPLIST_KEY_ build setting declares it; \
        the app crashes when it asks. [missing-usage-key]

        """)
    #expect(run.stderr == "intake audit: 3 findings (2 errors, 1 warning) in 3 Swift files.\n")
  }

  @Test func jsonOutputListsFindings() async throws {
    let run = try await Self.run(["audit", "--format", "json", "--rule", "picker-legacy", "Project/App"])
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        [
          {
            "column" : 26,
            "file" : "Project/App/Profile.swift",
            "line" : 6,
            "message" : "UIImagePickerController picks from the photo library; use PHPickerViewController or PhotosPicker.",
            "rule" : "picker-legacy",
            "severity" : "warning"
          }
        ]

        """)
    #expect(run.stderr.isEmpty)
  }

  @Test(arguments: [
    // (arguments, exit status, text expected on stderr)
    (["audit", "Project", "--fail-on", "error"], Int32(1), "3 findings"),
    (["audit", "Project", "--rule", "picker-legacy", "--fail-on", "error"], 0, "1 finding (1 warning)"),
    (["audit", "Project", "--rule", "picker-legacy", "--fail-on", "note"], 1, "1 finding"),
    (
      [
        "audit", "Project/App", "--disable", "picker-legacy", "--disable", "missing-usage-key",
        "--disable", "png-only-image-transferable",
      ], 0, "no findings in 3 Swift files"
    ),
    (["audit", "Project/Nowhere"], 2, "is not a folder"),
    (["audit", "Project", "--rule", "no-such-rule"], 2, "There is no rule 'no-such-rule'"),
    (["audit", "Project", "--format", "xml"], 2, "unknown format 'xml'"),
    (["audit", "Project", "--fail-on", "fatal"], 2, "unknown severity 'fatal'"),
    (["audit", "Project", "--verbose"], 2, "unknown option '--verbose'"),
    (["audit", "Project", "Other"], 2, "takes at most 1 argument"),
  ])
  func exitStatus(_ arguments: [String], _ status: Int32, _ message: String) async throws {
    let run = try await Self.run(arguments)
    #expect(run.status == status)
    #expect(run.stderr.contains(message), "\(run.stderr)")
  }

  @Test func cleanProjectExitsZero() async throws {
    let run = try await Self.run(["audit", "Clean"], files: ["Clean/A.swift": "let a = 1\n"])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "intake audit: no findings in 1 Swift file.\n")
  }

  @Test func listRulesExplainsEveryRule() async throws {
    let run = try await Self.run(["audit", "--list-rules"])
    #expect(run.status == 0)
    let ids = run.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }
    #expect(
      ids == [
        "picker-legacy (warning)", "over-request-read (warning)", "over-request-save (warning)",
        "limited-ignored (error)", "sync-load (error)", "png-only-image-transferable (error)",
        "temp-url-escapes (error)", "identifier-only-persistence (warning)",
        "full-decode-thumbnail (warning)",
        "session-main-thread (warning)", "session-in-representable (warning)", "observer-leak (warning)",
        "missing-usage-key (error)", "grid-keyed-by-index (warning)", "photo-dimensions-unset (warning)",
      ])
    #expect(run.stdout.components(separatedBy: "  See: ").count == 16)
  }

  @Test func helpShowsOptions() async throws {
    let run = try await Self.run(["audit", "--help"])
    #expect(run.status == 0)
    #expect(
      run.stdout.hasPrefix(
        "Find the classic PhotoKit mistakes in an iOS project.\n\nUSAGE: intake audit [options] [PATH]\n"))
    for option in ["--format FORMAT", "--rule ID", "--disable ID", "--fail-on SEVERITY", "--list-rules"] {
      #expect(run.stdout.contains(option))
    }
  }
}
