import Foundation
import PhotoIntakeTesting
import Testing

/// Starting children while the test process has thousands of descriptors open, as the whole test run has at
/// times (over 4,000 seen: libraries open in tests running side by side). Foundation's `Process.run()` crashes
/// the process in `memmove` under this load (see `ChildProcess`), within seconds on most runs;
/// `PHOTOINTAKE_STRESS_FOUNDATION_PROCESS=1` runs the same load through `Process` to show it
/// (`Scripts/stress-process-start.sh` runs both ways a number of times and counts the crashes).
@Suite(.serialized) struct ProcessStartStressTests {
  static let throughFoundation =
    ProcessInfo.processInfo.environment["PHOTOINTAKE_STRESS_FOUNDATION_PROCESS"] == "1"
  /// Children each of the 6 threads starts (PHOTOINTAKE_STRESS_STARTS).
  static let startsPerThread =
    ProcessInfo.processInfo.environment["PHOTOINTAKE_STRESS_STARTS"].flatMap { Int($0) } ?? 60

  /// Descriptors of /dev/null, so that `/proc/self/fd` lists more entries than glibc's 32 KiB directory buffer
  /// holds (24 bytes each, so over 1,350).
  final class OpenDescriptors: Sendable {
    let descriptors: [Int32]
    init(count: Int) {
      descriptors = (0..<count).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }.filter { $0 >= 0 }
    }
    deinit { for descriptor in descriptors { close(descriptor) } }
  }

  /// Starts `/bin/true` and returns its exit status.
  static func runTrue() throws -> Int32 {
    if throughFoundation {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/true")
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try ProcessEnvironment.withLock { try process.run() }
      process.waitUntilExit()
      return process.terminationStatus
    }
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  @Test func childrenStartBesideThousandsOfOpenDescriptors() async throws {
    let many = OpenDescriptors(count: 4000)
    try #require(many.descriptors.count > 1500, "too few descriptors allowed (ulimit -n) to show anything")
    let failures = Protected<[String]>([])
    let group = DispatchGroup()
    for worker in 0..<6 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        // Allocations of varied sizes, as the test run makes, so that the directory buffer of each start
        // lands at different places in the heap, now and then right at the end of a mapping.
        var kept: [UnsafeMutableRawPointer?] = []
        var seed = UInt64(worker + 1)
        for _ in 0..<Self.startsPerThread {
          seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          for index in 0..<Int(seed >> 61) {
            kept.append(malloc(Int((seed >> UInt64(index * 4)) & 0xFFFF) + 16))
          }
          if kept.count > 40 {
            for pointer in kept.prefix(30) { free(pointer) }
            kept.removeFirst(30)
          }
          do {
            let status = try Self.runTrue()
            if status != 0 { failures.withLock { $0.append("exit status \(status)") } }
          } catch {
            failures.withLock { $0.append("\(error)") }
          }
        }
        for pointer in kept { free(pointer) }
      }
    }
    await withCheckedContinuation { continuation in
      group.notify(queue: .global()) { continuation.resume() }
    }
    withExtendedLifetime(many) {}
    #expect(failures.current.isEmpty, "\(failures.current.prefix(5))")
  }

  @Test func theChildHasOnlyItsStandardDescriptors() throws {
    let many = OpenDescriptors(count: 100)
    // And some without close-on-exec, which only the start's closing keeps from the child.
    let inheritable = (0..<10).map { _ in open("/dev/null", O_RDONLY) }
    defer { for descriptor in inheritable { close(descriptor) } }
    let pipe = Pipe()
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/ls")
    process.arguments = ["/proc/self/fd"]
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    withExtendedLifetime(many) {}
    #expect(process.terminationStatus == 0)
    // 0, 1 and 2, and the one `ls` opened to list the folder; nothing of this process's (O_CLOEXEC or not).
    #expect(String(decoding: output, as: UTF8.self).split(separator: "\n") == ["0", "1", "2", "3"])
  }

  @Test func statusSignalsAndEnvironmentAreReported() throws {
    let shell = ChildProcess()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "test \"$ONLY\" = yes && test -z \"$HOME\" && exit 7"]
    shell.environment = ["ONLY": "yes"]
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationReason == .exit)
    #expect(shell.terminationStatus == 7)

    let sleeper = ChildProcess()
    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeper.arguments = ["30"]
    try sleeper.run()
    #expect(sleeper.isRunning)
    kill(sleeper.processIdentifier, SIGKILL)
    sleeper.waitUntilExit()
    #expect(!sleeper.isRunning)
    #expect(sleeper.terminationReason == .uncaughtSignal)
    #expect(sleeper.terminationStatus == SIGKILL)
  }
}
