import Testing

@testable import PhotoIntakeAudit

/// The scope tree rules rely on: what each `{` opens, and what a closure is passed to.
struct SyntaxTreeTests {
  /// Each scope as `kind name` (declarations) or `closure callee[:label](params)`, in source order.
  static func outline(_ source: String) -> [String] {
    let file = SourceFile(path: "t.swift", bytes: Array(source.utf8))
    return file.syntax.scopes.dropFirst().map { scope in
      switch scope.kind {
      case .closure:
        let callee = scope.callee >= 0 ? file.text(scope.callee) : "-"
        let label = scope.label >= 0 ? ":" + file.text(scope.label) : ""
        let parameters = scope.parameters.map { file.text($0) }.joined(separator: ",")
        return "closure \(callee)\(label)(\(parameters))\(scope.isMainActor ? " @MainActor" : "")"
      case .block: return "block \(file.text(scope.head))"
      default:
        let attributes =
          (scope.isMainActor ? " @MainActor" : "") + (scope.isNonisolated ? " nonisolated" : "")
        let inherits = scope.inheritance.filter { file.kind($0) == .identifier }.map { file.text($0) }
        return "\(scope.kind) \(file.text(scope.name))\(attributes)"
          + (inherits.isEmpty ? "" : ": " + inherits.joined(separator: ","))
      }
    }
  }

  @Test(arguments: [
    (
      "@MainActor final class A: UIViewController { func f(for status: Int) { if status > 0 { } } }",
      ["type A @MainActor: UIViewController", "function f", "block if"]
    ),
    (
      "struct V<T: Codable>: View where T: Sendable { var body: some View { List(items) { item in Text(item) } } }",
      ["type V: View", "function body", "closure List(item)"]
    ),
    (
      "var x: Int { get { 1 } set(newValue) { } }\nlet y = 2\nitems.forEach { print($0) }",
      ["function x", "accessor get", "accessor set", "closure forEach()"]
    ),
    (
      // Observers after an initial value belong to the property; a closure as the value does not.
      "var urls: [URL] = [] { didSet { reload() } }\nvar make = { 1 }()\nvar n = 0; items.forEach { _ in }",
      ["function urls", "accessor didSet", "closure make()", "closure forEach(_)"]
    ),
    (
      "queue.async { [weak self] in self?.run() }\nTask { @MainActor in go() }",
      ["closure async()", "closure Task() @MainActor"]
    ),
    (
      "p.load(forTypeIdentifier: id, completionHandler: { (url, error) in })\np.loadObject(ofClass: C.self) { object, _ in }",
      ["closure load:completionHandler(url,error)", "closure loadObject(object,_)"]
    ),
    (
      "let r = CellRegistration<Cell, Item> { cell, path, item in }\nguard ok else { return }",
      ["closure CellRegistration(cell,path,item)", "block guard"]
    ),
    (
      "nonisolated func g() { switch x { case .a: do { } catch { } default: break } }\nclass func h() {}",
      ["function g nonisolated", "block switch", "block do", "block catch", "function h"]
    ),
    (
      "protocol P { func f()\n var v: Int { get } }\nextension Foo.Bar: P { init?(x: Int) { } deinit { } }",
      ["type P", "function v", "type Bar: P", "function init", "function deinit"]
    ),
    (
      "struct S: View {\n  @State var image: UIImage?\n  var body: some View { Text(a ? b : c) }\n}",
      ["type S: View", "function body"]
    ),
    (
      // Swift 2: a bare `setObject(_:forKey:)` (an NSCache subclass) is a call, not a `set` accessor.
      "class C: NSCache {\n func keep(i: UIImage) {\n  setObject(i, forKey: k)\n  if ok { }\n }\n}",
      ["type C: NSCache", "function keep", "block if"]
    ),
  ])
  func outline(_ source: String, _ expected: [String]) {
    #expect(Self.outline(source) == expected)
  }

  @Test func bracketsMatch() {
    let file = SourceFile(path: "t.swift", bytes: Array("f(a[0], { b($0) })".utf8))
    let pairs = file.tokens.indices.filter { file.tokens[$0].isOpening }.map {
      file.text(file.match($0) ?? $0)
    }
    #expect(pairs == [")", "]", "}", ")"])
  }
}
