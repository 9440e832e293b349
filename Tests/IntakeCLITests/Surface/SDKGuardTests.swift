import Foundation
import Testing

/// The Apple layer tells the SDKs apart by AVFoundation's version (`canImport(AVFoundation, _version: 2330)` is
/// the iOS 18 SDK, `2395` the iOS 26 SDK). The compiler remembers the first `canImport(AVFoundation…)` it
/// evaluates in a module: when that one has no version, every later versioned check in the module warns "cannot
/// find user version number" and ignores its version, so the iOS 18 branch is taken on the iOS 17 SDK too, where
/// it does not compile. Hence every AVFoundation check in our sources carries a version (`_version: 1` where any
/// SDK will do). Seen with `Scripts/ios-typecheck.sh` on the 17.4, 18.6 and 26.2 SDKs; this test keeps it so on
/// Linux, where the Apple code is not compiled.
@Suite struct SDKGuardTests {
  @Test func everyAVFoundationCheckCarriesAVersion() throws {
    var offenders: [String] = []
    for folder in ["Sources", "Examples"] {
      let root = Repository.path(folder)
      let walker = try #require(FileManager.default.enumerator(atPath: root))
      for case let relative as String in walker where relative.hasSuffix(".swift") {
        let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains("canImport(AVFoundation)") {
          offenders.append("\(folder)/\(relative):\(number + 1)")
        }
      }
    }
    #expect(offenders.isEmpty, "unversioned canImport(AVFoundation): \(offenders)")
  }

  /// The check above would pass on an empty tree: make sure it reads the files that hold the versioned checks.
  @Test func theVersionedChecksAreWhereTheTestLooks() throws {
    let text = try String(
      contentsOfFile: Repository.path("Sources/PhotoIntakeUI/Camera/CaptureSessionController.swift"),
      encoding: .utf8)
    #expect(text.contains("canImport(AVFoundation, _version: 2330)"))
  }
}
