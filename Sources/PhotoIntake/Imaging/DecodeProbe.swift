/// A hook for tests: told whenever a backend is about to hand a file to its decoder, and for which source.
///
/// Task-local, like ``Syscalls/faults``, so that tests running in parallel each see only their own calls.
/// Tests use it to prove that a bomb is refused before the decoder sees it, and that the fast path never
/// touches the primary image.
package enum DecodeProbe {
  @TaskLocal package static var observer: (@Sendable (Thumbnail.Source) -> Void)?

  static func willDecode(_ source: Thumbnail.Source) {
    observer?(source)
  }
}
