/// Valid files built byte by byte for what the tools cannot make: an Apple maker note, MPF, HEIF irot/imir.
enum CraftedFiles {
  static let liveID = "0E7E5F8A-5C6B-4B1F-9D0A-1234567890AB"

  /// mov-location.mov with the video track matrix turned 90° clockwise (QTFF "Matrices": 0 1 / −1 0), as
  /// an iPhone writes portrait video. Same length, patched in place.
  static func rotatedMovie() throws -> [UInt8] {
    var bytes = try TestSupport.bytes("mov-location.mov")
    guard let tkhd = bytes.firstRange(of: Array("tkhd".utf8))?.lowerBound else { return bytes }
    // After the type: version/flags 4, times/ID/duration 20, reserved/layer/group/volume 16, then the matrix.
    let matrix: Int = tkhd + 44
    // Row by row: a b u / c d v (u, v in 2.30; a–d in 16.16).
    var rotation: [UInt8] = be32(0)
    rotation += be32(0x0001_0000)
    rotation += be32(0)
    rotation += be32(0xFFFF_0000)
    rotation += be32(0)
    bytes.replaceSubrange(matrix..<(matrix + 20), with: rotation)
    return bytes
  }

  static func all() throws -> [(name: String, bytes: [UInt8])] {
    let plain = try TestSupport.bytes("jpeg-plain.jpg")
    let note = AppleMakerNoteBuilder.note(contentIdentifier: liveID)
    let appleEXIF = TIFFBuilder.camera(orientation: 6, makerNote: note)
    let southWest = TIFFBuilder.camera(
      make: "Sony", model: "ILCE-7M4", orientation: 8, date: "2024:02:29 23:59:59", offset: "-03:30",
      latitude: -54.801912, longitude: -68.302951, bigEndian: false)
    let secondary = JPEGBuilder.inserting(
      JPEGBuilder.exifSegment(TIFFBuilder.camera(latitude: 10.5, longitude: 20.25))
        + JPEGBuilder.xmpSegment(
          "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
            + "<rdf:Description xmlns:hdrgm='http://ns.adobe.com/hdr-gain-map/1.0/' hdrgm:Version='1.0'/>"
            + "</rdf:RDF></x:xmpmeta>"),
      into: try TestSupport.bytes("jpeg-thumbnail-icc.jpg"))
    return [
      ("crafted-apple-makernote.jpg", JPEGBuilder.inserting(JPEGBuilder.exifSegment(appleEXIF), into: plain)),
      (
        "crafted-little-endian-exif.jpg",
        JPEGBuilder.inserting(JPEGBuilder.exifSegment(southWest), into: plain)
      ),
      (
        "crafted-mpf.jpg",
        JPEGBuilder.mpf(
          primary: JPEGBuilder.inserting(JPEGBuilder.exifSegment(appleEXIF), into: plain),
          secondary: secondary)
      ),
      ("crafted-irot1.heic", BoxBuilder.heif(transforms: [BoxBuilder.irot(1)], exif: appleEXIF)),
      ("crafted-irot3.heic", BoxBuilder.heif(transforms: [BoxBuilder.irot(3)], exif: southWest)),
      ("crafted-imir0.heic", BoxBuilder.heif(transforms: [BoxBuilder.imir(0)])),
      ("crafted-rotated.mov", try rotatedMovie()),
    ]
  }
}
