/// `session-in-representable`: an `AVCaptureSession` created inside a `UIViewRepresentable` or
/// `UIViewControllerRepresentable` (in a method or as a stored property's initial value), or by a view of
/// the project that a representable's `makeUIView` or `makeUIViewController` makes (see
/// ``ProjectFacts/representableViews``).
struct SessionInRepresentableRule: AuditRule {
  let descriptor = RuleDescriptor(
    id: "session-in-representable", severity: .warning,
    summary:
      "An AVCaptureSession is created inside a SwiftUI representable, which SwiftUI re-creates; the camera restarts and sessions pile up.",
    reports:
      "An AVCaptureSession created inside a SwiftUI representable, or by a view or view controller of the project that a representable's makeUIView or makeUIViewController makes, which SwiftUI re-creates; the camera restarts and sessions pile up.",
    leavesAlone:
      "A session created by a long-lived model and passed into the representable, one made by a view or controller whose representable stops it in dismantleUIView or dismantleUIViewController, and one made by a view controller that stops it in viewWillDisappear or viewDidDisappear (which UIKit sends it when SwiftUI removes the representable).",
    fix: """
      Create and configure the session once, in a long-lived model (an actor, or an object held in @State \
      or @StateObject), and pass it to the representable, which should only attach an \
      AVCaptureVideoPreviewLayer to it.
      """,
    reference: .documentation(
      "AVCam: Building a camera app", "avfoundation/avcam-building-a-camera-app"))

  let triggers: Set<Word> = [.AVCaptureSession, .AVCaptureMultiCamSession]

  private static let representables: Set<String> = ["UIViewRepresentable", "UIViewControllerRepresentable"]

  func check(_ file: SourceFile, project: ProjectFacts) -> [Finding] {
    var findings: [Finding] = []
    // The type scopes that stop a session on disappearance, found once when first asked.
    var stopping: Set<Int>?
    for index in 0..<file.count
    where (file.word(index) == .AVCaptureSession || file.word(index) == .AVCaptureMultiCamSession)
      && !file.isMember(index)
      && (file.kind(index + 1) == .leftParen
        || (file.kind(index + 1) == .dot && file.word(index + 2) == .initKeyword))
    {
      let inRepresentable = file.syntax.enclosingScopes(of: index).contains { scope in
        file.scope(scope).kind == .type
          && project.typeInherits(file, scope: scope, anyOf: Self.representables)
      }
      // A view or controller of the project that a representable's `makeUIView` or `makeUIViewController`
      // makes (`let view = PreviewView()`, `ScannerVC(scannerDelegate: context.coordinator)`) and
      // that creates the session itself, in a property or a method: each new view makes a new session.
      let view = file.enclosingType(of: index).flatMap { file.name(of: $0) }
      if inRepresentable {
        findings.append(file.finding(descriptor, at: index))
      } else if let view, project.representableViews.contains(view), project.isMainActorType(view),
        !{
          guard let type = file.enclosingType(of: index) else { return false }
          if stopping == nil { stopping = Self.typesStoppingOnDisappearance(file) }
          return stopping?.contains(type) ?? false
        }()
      {
        findings.append(
          file.finding(
            descriptor, at: index,
            message:
              "An AVCaptureSession is created by \(view), which a SwiftUI representable's makeUIView or makeUIViewController makes; SwiftUI re-creates it, so the camera restarts and sessions pile up."
          ))
      }
    }
    return findings
  }

  /// The type scopes whose `viewWillDisappear` or `viewDidDisappear` calls `stopRunning()` (also inside a
  /// queue block), in one pass over the file's functions: UIKit sends those to a representable's controller
  /// when SwiftUI removes it, so no session of theirs outlives it.
  static func typesStoppingOnDisappearance(_ file: SourceFile) -> Set<Int> {
    var types: Set<Int> = []
    for scopeIndex in file.syntax.scopes.indices where file.scope(scopeIndex).kind == .function {
      guard let name = file.name(of: scopeIndex), name == "viewWillDisappear" || name == "viewDidDisappear",
        let type = file.enclosingType(of: file.scope(scopeIndex).head),
        file.contains([.stopRunning], in: file.body(of: scopeIndex))
      else { continue }
      types.insert(type)
    }
    return types
  }
}
