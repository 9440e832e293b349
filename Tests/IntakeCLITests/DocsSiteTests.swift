import Foundation
import PhotoIntakeTesting
import Testing

/// The DocC site of `Scripts/docs.sh`, opened in headless Chromium over HTTP as a reader would: each module's
/// landing page and a few symbol and article pages render their title, and every link they show to another
/// page of the site leads to a page that exists (its `index.html` and the JSON the page loads).
///
/// Opt-in, because the site is built outside the test run (`swift build` cannot run inside `swift test`):
///
///     Scripts/docs.sh /tmp/site && PHOTOINTAKE_DOCS_SITE=/tmp/site swift test --filter DocsSiteTests
///
/// Needs `python3` (the HTTP server) and Debian's `chromium` (`Scripts/install-deps.sh --test`), or
/// `CHROMIUM=/path/to/chrome`.
@Suite(
  .enabled(if: DocsSite.folder != nil, "set PHOTOINTAKE_DOCS_SITE to a folder made by Scripts/docs.sh"))
struct DocsSiteTests {
  /// Module → the title of each page to open (the landing page first), by path under `documentation/`.
  static let pages: [(module: String, path: String, title: String)] = [
    ("PhotoMetadata", "photometadata", "PhotoMetadata"),
    ("PhotoMetadata", "photometadata/metadatareader", "MetadataReader"),
    ("PhotoMetadata", "photometadata/locationstripper", "LocationStripper"),
    ("PhotoIntake", "photointake", "PhotoIntake"),
    ("PhotoIntake", "photointake/gettingstarted", "Getting started"),
    ("PhotoIntake", "photointake/importguarantees", "The import guarantees"),
    ("PhotoIntake", "photointake/library", "Library"),
    ("PhotoIntake", "photointake/importer", "Importer"),
    ("PhotoIntakeTesting", "photointaketesting", "PhotoIntakeTesting"),
    (
      "PhotoIntakeTesting", "photointaketesting/testingwiththesimulator",
      "Testing photo code with the simulator"
    ),
    ("PhotoIntakeTesting", "photointaketesting/simulatedphotolibrary", "SimulatedPhotoLibrary"),
    ("PhotoIntakeAudit", "photointakeaudit", "PhotoIntakeAudit"),
    ("PhotoIntakeAudit", "photointakeaudit/auditrules", "The audit rules"),
    ("PhotoIntakeAudit", "photointakeaudit/auditor", "Auditor"),
  ]

  @Test func pagesRenderAndTheirLinksLeadToPages() throws {
    let site = try #require(DocsSite.folder)
    let server = try StaticServer(root: site)
    defer { server.stop() }
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("docs-chromium-\(UUID())")
      .path
    defer { try? FileManager.default.removeItem(atPath: profile) }
    var linksChecked = 0
    for page in Self.pages {
      let path = "/\(page.module)/documentation/\(page.path)"
      // DocC breaks long names with <wbr> (Metadata<wbr>Reader).
      let dom = try RenderedPage.dom(of: server.url + path, profile: profile).replacing(
        #/<wbr[^>]*>/#, with: "")
      #expect(
        dom.contains(">\(page.title)</span></h1>") || dom.contains(">\(page.title)</h1>"),
        "\(path) does not show its title \"\(page.title)\": \(dom.suffix(300))")
      let links = RenderedPage.internalLinks(in: dom)
      #expect(links.count > 2, "\(path) shows no links")
      for link in links {
        #expect(RenderedPage.pageExists(link, in: site), "\(path) links to \(link), which is not in the site")
      }
      linksChecked += links.count
    }
    #expect(linksChecked > 200)
  }

  /// The link check notices a page that is not there.
  @Test func aMissingPageIsABrokenLink() throws {
    let site = try #require(DocsSite.folder)
    #expect(RenderedPage.pageExists("/PhotoIntake/documentation/photointake/library", in: site))
    #expect(!RenderedPage.pageExists("/PhotoIntake/documentation/photointake/nosuchsymbol", in: site))
    #expect(!RenderedPage.pageExists("/NoSuchModule/documentation/nosuchmodule", in: site))
  }
}

/// The site under test, from the environment.
enum DocsSite {
  static let folder = ProcessInfo.processInfo.environment["PHOTOINTAKE_DOCS_SITE"]
}

/// What a DocC page shows once its script has run.
enum RenderedPage {
  /// Links from one page of the site to another (`/<Module>/documentation/...`), without their `#fragment`.
  static func internalLinks(in dom: String) -> Set<String> {
    var links = Set<String>()
    for part in dom.components(separatedBy: "href=\"").dropFirst() {
      guard let end = part.firstIndex(of: "\"") else { continue }
      var link = String(part[..<end])
      if let hash = link.firstIndex(of: "#") { link = String(link[..<hash]) }
      if link.hasSuffix("/") { link.removeLast() }
      if link.split(separator: "/").dropFirst().first == "documentation" { links.insert(link) }
    }
    return links
  }

  /// A page of a static DocC site is its `index.html` and the JSON under `data/` that the page loads.
  static func pageExists(_ link: String, in site: String) -> Bool {
    let components = link.split(separator: "/").map(String.init)
    guard components.count >= 3 else { return false }
    let decoded = components.map { $0.removingPercentEncoding ?? $0 }
    let module = decoded[0]
    let rest = decoded.dropFirst().joined(separator: "/")
    let files = FileManager.default
    return files.fileExists(atPath: "\(site)/\(module)/\(rest)/index.html")
      && files.fileExists(atPath: "\(site)/\(module)/data/\(rest).json")
  }

  /// The page's DOM after its script ran: Chromium gives it 15 s of virtual time, so the JSON it fetches is in.
  static func dom(of url: String, profile: String) throws -> String {
    let executable = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    let output = profile + "-dom.html"
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    defer { try? handle.close() }
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
      "--virtual-time-budget=15000", "--dump-dom", url,
    ]
    process.standardOutput = handle
    process.standardError = FileHandle.nullDevice
    // A termination handler and a deadline, so that a Chromium that never exits fails the test instead of hanging.
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if exited.wait(timeout: .now() + 60) == .timedOut {
      process.terminate()
      throw CocoaError(
        .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "chromium timed out on \(url)"])
    }
    return String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
  }
}

/// `python3 -m http.server` on a free local port, serving a folder; the site's pages fetch JSON, which
/// Chromium does not allow from `file://` URLs.
final class StaticServer {
  let url: String
  private let process: ChildProcess
  private let exited: DispatchSemaphore

  init(root: String) throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("docs-http-\(UUID()).log").path
    for _ in 0..<10 {
      let port = Int.random(in: 20_000..<60_000)
      _ = FileManager.default.createFile(atPath: log, contents: nil)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "python3", "-u", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "-d", root,
      ]
      process.standardOutput = handle
      process.standardError = handle
      let exited = DispatchSemaphore(value: 0)
      process.terminationHandler = { _ in exited.signal() }
      try process.run()
      // Ready when it says it is serving; a port in use makes it exit instead.
      for _ in 0..<100 where process.isRunning {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        if text.contains("Serving HTTP") {
          self.process = process
          self.exited = exited
          url = "http://127.0.0.1:\(port)"
          return
        }
        Thread.sleep(forTimeInterval: 0.05)
      }
      if process.isRunning { process.terminate() }
    }
    throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "no HTTP server would start"])
  }

  /// SIGKILL: the server is started from the test process, whose children may inherit SIGTERM as ignored.
  func stop() {
    kill(process.processIdentifier, SIGKILL)
    _ = exited.wait(timeout: .now() + 10)
  }
}
