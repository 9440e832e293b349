import PhotoIntake

/// A one-line progress bar on a terminal, redrawn in place with a carriage return. Used only when stderr is a
/// TTY (never in pipes, logs or `--json` mode).
final class ProgressBar: Sendable {
  private let sink: TextSink
  private let width = 30

  init(sink: TextSink) { self.sink = sink }

  func draw(_ progress: ImportProgress) {
    let filled = Int((progress.fraction * Double(width)).rounded(.down))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    sink.write("\r[\(bar)] \(progress.completed)/\(progress.total) \(Int(progress.fraction * 100))%")
  }

  /// Erases the bar, so a message can be printed on a clean line.
  func clear() {
    sink.write("\r\u{1B}[2K")
  }
}
