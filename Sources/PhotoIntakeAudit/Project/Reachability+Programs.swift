extension Reachability {
  /// Each program's files with the shared ones, followed on their own; nil when files counted once per
  /// program they belong to would more than double the work, counted in tokens (the whole folder is then one
  /// program): one large shared file read again for each of many programs costs no more than twice the folder.
  static func perProgram(
    files: [SourceFile], facts: ProjectFacts, interface: InterfaceNames, programs: [[Int]]
  ) -> [[Bool]]? {
    var members: [Int: [Int]] = [:]
    var shared: [Int] = []
    var work = 0
    var sharedTokens = 0
    for (fileNumber, list) in programs.enumerated() {
      let tokens = files[fileNumber].count + 1
      if list.isEmpty {
        shared.append(fileNumber)
        sharedTokens += tokens
      }
      for program in list { members[program, default: []].append(fileNumber) }
      work += list.count * tokens
    }
    let total = files.reduce(0) { $0 + $1.count + 1 }
    work += sharedTokens * members.count
    guard members.count >= 2, work <= 2 * total else { return nil }
    var unreachable = files.map { _ in [Bool]() }
    var seen = [Bool](repeating: false, count: files.count)
    for program in members.keys.sorted() {
      let numbers = (members[program] ?? []) + shared
      let part = Reachability(files: numbers.map { files[$0] }, facts: facts, interface: interface)
      for (position, fileNumber) in numbers.enumerated() {
        let scopes = files[fileNumber].syntax.scopes.count
        let answer =
          position < part.unreachable.count
          ? part.unreachable[position] : Array(repeating: false, count: scopes)
        if seen[fileNumber] {
          // In several programs: it never runs only if it runs in none of them.
          for scope in 0..<min(scopes, answer.count) where !answer[scope] {
            unreachable[fileNumber][scope] = false
          }
        } else {
          unreachable[fileNumber] = answer
          seen[fileNumber] = true
        }
      }
    }
    return unreachable
  }
}
