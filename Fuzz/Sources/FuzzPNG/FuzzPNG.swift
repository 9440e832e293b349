import FuzzSupport

/// libFuzzer entry point for PNG (IHDR, eXIf, iTXt), seeded from its own corpus (run-all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(data, size)
  return 0
}
