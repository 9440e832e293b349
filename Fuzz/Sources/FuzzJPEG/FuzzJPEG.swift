import PhotoMetadata

/// libFuzzer entry point for JPEG (EXIF, XMP, MPF): reading and stripping must never crash, hang or
/// grow without bound, whatever the bytes. Seeds come from Tests/PhotoMetadataTests/Fixtures (see run-all.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let metadata = try? MetadataReader.read(bytes: bytes) {
    _ = metadata.declaredPixelCount
  }
  if let (stripped, report) = try? LocationStripper.strip(bytes: bytes) {
    // Stripping only overwrites metadata in place, or drops whole PNG chunks.
    precondition(stripped.count == bytes.count || (report.type == .png && stripped.count < bytes.count))
    precondition(report.strippedSize == stripped.count)
  }
  return 0
}
