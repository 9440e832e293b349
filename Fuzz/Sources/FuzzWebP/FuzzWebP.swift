import FuzzSupport

/// libFuzzer entry point for WebP (RIFF chunks, VP8/VP8L/VP8X, EXIF, XMP), seeded from its own corpus (run-
/// all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(data, size)
  return 0
}
