import FuzzSupport

/// libFuzzer entry point for HEIF/AVIF (meta, iloc, iinf, iprp) and QuickTime/MP4 (moov, keys, ilst), seeded
/// from its own corpus (run-all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISOBMFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  exercise(data, size)
  return 0
}
