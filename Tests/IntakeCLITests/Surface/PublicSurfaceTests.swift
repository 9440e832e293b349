import Foundation
import PhotoIntakeTesting
import Testing

/// No C in PhotoIntake's public surface (issue 23 item 5): a file that imports only `PhotoIntake` sees neither
/// libc nor SQLite's C API, as an app's file would. Each snippet is type-checked by `swiftc` against the modules
/// this test run was built with.
@Suite struct PublicSurfaceTests {
  let folder = TemporaryDirectory()

  /// `swiftc -typecheck` of `source` against `.build/debug/Modules`; returns the exit status and the errors.
  func typecheck(_ source: String) throws -> (status: Int32, errors: String) {
    let file = folder.at("snippet-\(UUID().uuidString).swift")
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    // PhotoIntake's module records its C dependencies; the compiler needs their module maps (and GLib's
    // headers, which libvips's include) to load it, as SwiftPM gives them to a dependent target.
    var arguments = [
      "swiftc", "-typecheck", "-swift-version", "6", "-I", Repository.path(".build/debug/Modules"),
    ]
    for map in ["CSQLite/include", "CCrypto/include", "CVips/include", "CVipsHeaders"] {
      arguments += ["-Xcc", "-fmodule-map-file=" + Repository.path("Sources/\(map)/module.modulemap")]
    }
    for include in ["/usr/include/glib-2.0", "/usr/lib/\(Self.multiarch)/glib-2.0/include"] {
      arguments += ["-Xcc", "-I" + include]
    }
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments + [file]
    let errors = folder.at("errors-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    process.standardError = handle
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, try String(contentsOfFile: errors, encoding: .utf8))
  }

  static var multiarch: String {
    #if arch(arm64)
      "aarch64-linux-gnu"
    #else
      "x86_64-linux-gnu"
    #endif
  }

  @Test func onlyImportingPhotoIntakeGivesNoLibcAndNoSQLite() throws {
    // The control: the module loads and its own API is there, so the failures below are about visibility.
    let control = try typecheck(
      """
      import PhotoIntake
      let kind: FileKind = .regular
      """)
    #expect(control.status == 0, "\(control.errors)")
    let leaked = try typecheck(
      """
      import PhotoIntake
      let made = mkdir("/tmp/photointake-surface", 0o755)
      var handle: OpaquePointer?
      let opened = sqlite3_open(":memory:", &handle)
      """)
    #expect(leaked.status != 0)
    #expect(leaked.errors.contains("cannot find 'mkdir' in scope"), "\(leaked.errors)")
    #expect(leaked.errors.contains("cannot find 'sqlite3_open' in scope"), "\(leaked.errors)")
  }
}
