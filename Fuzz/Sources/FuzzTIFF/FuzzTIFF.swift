import FuzzSupport

/// libFuzzer entry point for TIFF and TIFF-based raws (IFD walking), seeded from its own corpus (run-all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(data, size)
  return 0
}
