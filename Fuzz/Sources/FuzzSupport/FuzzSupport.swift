import PhotoMetadata

/// What every fuzz target checks on one input: reading and stripping never crash, hang or grow without bound,
/// whatever the bytes, and stripping only ever overwrites metadata in place (or drops whole PNG chunks).
///
/// The targets differ only in their seed corpora (one per container family, see run-all.sh): the bytes, not
/// the target, decide which parser runs.
public func exercise(_ data: UnsafePointer<UInt8>, _ size: Int) {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let metadata = try? MetadataReader.read(bytes: bytes) {
    _ = metadata.declaredPixelCount
  }
  if let (stripped, report) = try? LocationStripper.strip(bytes: bytes) {
    precondition(stripped.count == bytes.count || (report.type == .png && stripped.count < bytes.count))
    precondition(report.strippedSize == stripped.count)
  }
}
