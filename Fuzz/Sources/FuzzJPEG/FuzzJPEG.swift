import FuzzSupport

/// libFuzzer entry point for JPEG (EXIF, XMP, MPF), seeded from its own corpus (run-all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(data, size)
  return 0
}
