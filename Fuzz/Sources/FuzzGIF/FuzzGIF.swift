import FuzzSupport

/// libFuzzer entry point for GIF (blocks, XMP application extension), seeded from its own corpus (run-
/// all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(data, size)
  return 0
}
