import Foundation

/// Runs independent pieces of work on every core and hands their results over in index order, each as soon as
/// every earlier one is done: output stays in the order the user gave while the work runs in parallel.
enum OrderedWork {
  /// Results in index order, when the caller needs them all at once.
  static func map<Output: Sendable>(
    count: Int, width: Int = ProcessInfo.processInfo.activeProcessorCount,
    _ work: @escaping @Sendable (Int) async -> Output
  ) async -> [Output] {
    var results: [Output] = []
    results.reserveCapacity(count)
    await run(count: count, width: width, work: work) { _, output in results.append(output) }
    return results
  }

  static func run<Output: Sendable>(
    count: Int, width: Int = ProcessInfo.processInfo.activeProcessorCount,
    work: @escaping @Sendable (Int) async -> Output, deliver: (Int, Output) -> Void
  ) async {
    await withTaskGroup(of: (Int, Output).self) { group in
      var next = 0
      var pending: [Int: Output] = [:]
      var nextToDeliver = 0
      func addNext() {
        guard next < count else { return }
        let index = next
        next += 1
        group.addTask { (index, await work(index)) }
      }
      for _ in 0..<max(1, width) { addNext() }
      while let (index, output) = await group.next() {
        pending[index] = output
        while let ready = pending.removeValue(forKey: nextToDeliver) {
          deliver(nextToDeliver, ready)
          nextToDeliver += 1
        }
        addNext()
      }
    }
  }
}
