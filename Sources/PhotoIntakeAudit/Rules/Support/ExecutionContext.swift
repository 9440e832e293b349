/// Where code at a token runs, as far as the source says: on the main actor or main queue, somewhere
/// else, or unknown.
///
/// Walks outwards through the scopes. A closure passed to `DispatchQueue.main.async`, `MainActor.run`, or
/// a SwiftUI action (`onAppear`, `task`, `Button`) runs on the main actor; one passed to another queue's
/// `async`, to `Task.detached`, or to an API that calls back on its own queue (`requestAccess`,
/// `loadObject`…) does not, or not knowably. `Task { }` and other closures inherit from outside. A
/// function marked `@MainActor` runs there; `nonisolated` does not; otherwise the type decides: `@MainActor`,
/// or a UIKit/SwiftUI type (view controllers, views, representables) which are `@MainActor` in the SDK.
enum ExecutionContext {
  case main, elsewhere, unknown

  private static let mainCallbacks: Set<Word> = [
    .onAppear, .onDisappear, .task, .Button, .onChange, .onReceive,
  ]
  private static let queueCalls: Set<Word> = [.async, .asyncAfter, .sync, .concurrentPerform]
  private static let ownQueueCallbacks: Set<Word> = [
    .requestAccess, .requestAuthorization, .loadObject, .loadFileRepresentation, .loadDataRepresentation,
    .loadTransferable, .loadItem, .dataTask, .requestRecordPermission,
  ]

  static func of(_ index: Int, in file: SourceFile, project: ProjectFacts) -> ExecutionContext {
    for scopeIndex in file.syntax.enclosingScopes(of: index) {
      let scope = file.scope(scopeIndex)
      switch scope.kind {
      case .closure:
        if scope.isMainActor { return .main }
        let callee = file.word(scope.callee)
        if queueCalls.contains(callee) {
          let receiver = file.postfixStart(endingAt: scope.callee)..<scope.callee
          return file.contains([.main], in: receiver) && file.contains([.DispatchQueue], in: receiver)
            ? .main : .elsewhere
        }
        if callee == .run, file.word(file.postfixStart(endingAt: scope.callee)) == .MainActor { return .main }
        if callee == .detached { return .elsewhere }
        if mainCallbacks.contains(callee) { return .main }
        if ownQueueCallbacks.contains(callee) { return .unknown }
      case .function, .accessor:
        if scope.isMainActor { return .main }
        if scope.isNonisolated { return .unknown }
      case .type:
        if scope.isMainActor { return .main }
        if file.word(scope.head) == .actor { return .elsewhere }
        for token in scope.inheritance.clamped(to: 0..<file.count)
        where ProjectFacts.mainActorBases.contains(file.text(token)) {
          return .main
        }
        if let name = file.name(of: scopeIndex), project.isMainActorType(name) { return .main }
        return .unknown
      case .block, .file:
        continue
      }
    }
    return .unknown
  }
}
