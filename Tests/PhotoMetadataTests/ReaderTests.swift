import Testing

@testable import PhotoMetadata

/// Reads every committed fixture and checks the facts the fixture script wrote into it.
struct ReaderTests {
  struct Expected: Sendable, CustomStringConvertible {
    var file: String
    var type: MediaType
    var size: (Int, Int)
    var orientation: Orientation = .up
    var local: String?
    var offset: String?
    var latitude: Double?
    var longitude: Double?
    var make: String?
    var previews: [EmbeddedPreview.Kind] = []
    var icc = false
    var duration: Double?
    var livePhotoID: String?
    var description: String { file }
  }

  static let fixtures: [Expected] = [
    Expected(
      file: "jpeg-orientation-1.jpg", type: .jpeg, size: (64, 48), orientation: .up,
      local: "2023-01-11T11:21:31.111",
      offset: "+02:00", latitude: 48.858370, longitude: 2.294481, make: "Maker 1"),
    Expected(
      file: "jpeg-orientation-2.jpg", type: .jpeg, size: (64, 48), orientation: .upMirrored,
      local: "2023-02-12T12:22:32.222", offset: "+10:00", latitude: -33.856784, longitude: 151.215297),
    Expected(
      file: "jpeg-orientation-3.jpg", type: .jpeg, size: (64, 48), orientation: .down, offset: "-04:00",
      latitude: 40.689247, longitude: -74.044502),
    Expected(
      file: "jpeg-orientation-4.jpg", type: .jpeg, size: (64, 48), orientation: .downMirrored,
      offset: "-03:00",
      latitude: -22.951916, longitude: -43.210487),
    Expected(
      file: "jpeg-orientation-5.jpg", type: .jpeg, size: (64, 48), orientation: .leftMirrored,
      offset: "+09:00",
      latitude: 35.658581, longitude: 139.745433),
    Expected(
      file: "jpeg-orientation-6.jpg", type: .jpeg, size: (64, 48), orientation: .right, offset: "+00:00",
      latitude: -0.000001, longitude: -0.000001),
    Expected(
      file: "jpeg-orientation-7.jpg", type: .jpeg, size: (64, 48), orientation: .rightMirrored,
      offset: "+05:45",
      latitude: 64.147209, longitude: -21.942400),
    Expected(
      file: "jpeg-orientation-8.jpg", type: .jpeg, size: (64, 48), orientation: .left, offset: "-09:30",
      latitude: 0.5,
      longitude: 179.999999),
    Expected(
      file: "jpeg-thumbnail-icc.jpg", type: .jpeg, size: (320, 240), local: "2021-12-31T23:59:59",
      make: "Canon",
      previews: [.exifThumbnail], icc: true),
    Expected(
      file: "jpeg-xmp-gps.jpg", type: .jpeg, size: (64, 48), local: "2020-02-29T12:00:00",
      latitude: -12.3456789,
      longitude: -45.6789012),
    Expected(file: "jpeg-plain.jpg", type: .jpeg, size: (64, 48)),
    Expected(
      file: "png-exif.png", type: .png, size: (64, 48), orientation: .right, offset: "-07:00",
      latitude: 37.422,
      longitude: -122.084, make: "Google"),
    Expected(
      file: "png-xmp.png", type: .png, size: (64, 48), orientation: .down, latitude: 51.5007,
      longitude: -0.1246),
    Expected(file: "gif-xmp.gif", type: .gif, size: (64, 48), latitude: -33.8688, longitude: 151.2093),
    Expected(
      file: "webp-lossy-exif.webp", type: .webp, size: (64, 48), orientation: .left, offset: "+01:00",
      latitude: 59.3293,
      longitude: 18.0686, make: "Samsung"),
    Expected(file: "webp-lossless.webp", type: .webp, size: (64, 48)),
    Expected(
      file: "tiff-little-endian.tif", type: .tiff, size: (64, 48), orientation: .right, offset: "+05:30",
      latitude: 28.6139, longitude: 77.2090, make: "Nikon"),
    Expected(
      file: "tiff-big-endian.tif", type: .tiff, size: (64, 48), orientation: .right, offset: "+05:30",
      latitude: 28.6139,
      longitude: 77.2090, make: "Nikon"),
    Expected(file: "dng-like.dng", type: .dng, size: (64, 48), local: "2022-10-11T12:13:14", make: "Leica"),
    // heif-enc copies EXIF Orientation but writes no irot: HEIF readers ignore EXIF orientation, so "up".
    Expected(
      file: "heic-exif-thumbnail.heic", type: .heic, size: (64, 48), local: "2023-09-22T08:30:00.250",
      offset: "-05:00",
      latitude: 40.758, longitude: -73.9855, make: "Apple", previews: [.heifThumbnail]),
    Expected(
      file: "avif-exif.avif", type: .avif, size: (64, 48), offset: "-05:00", latitude: 40.758,
      longitude: -73.9855,
      make: "Apple"),
    Expected(
      file: "mp4-location.mp4", type: .mp4, size: (64, 48), local: "2023-06-01T10:00:00", offset: "+00:00",
      latitude: 48.8583984375, longitude: 2.29449462890625, duration: 0.5),
    Expected(
      file: "mov-location.mov", type: .mov, size: (64, 48), local: "2022-02-03T04:05:06",
      latitude: -33.8568,
      longitude: 151.2153, duration: 0.5),
    Expected(
      file: "mov-apple-keys.mov", type: .mov, size: (64, 48), local: "2023-06-01T12:00:00", offset: "+02:00",
      latitude: 37.3349, longitude: -122.0090, make: "Apple", duration: 0.5,
      livePhotoID: "5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D"),
  ]

  @Test(arguments: fixtures)
  func readsFixture(_ expected: Expected) throws {
    let path = TestSupport.fixture(expected.file).path
    let metadata = try MetadataReader.read(fileAt: path)
    #expect(metadata.type == expected.type)
    #expect(metadata.width == expected.size.0)
    #expect(metadata.height == expected.size.1)
    #expect(metadata.orientation == expected.orientation)
    if let local = expected.local { #expect(metadata.captureDate?.local == local) }
    if let offset = expected.offset { #expect(metadata.captureDate?.offsetString == offset) }
    if let latitude = expected.latitude, let longitude = expected.longitude {
      #expect(abs((metadata.location?.latitude ?? 999) - latitude) < 1e-6)
      #expect(abs((metadata.location?.longitude ?? 999) - longitude) < 1e-6)
    } else {
      #expect(metadata.location == nil)
    }
    if let make = expected.make { #expect(metadata.make == make) }
    #expect(metadata.previews.map(\.kind) == expected.previews)
    #expect(metadata.hasICCProfile == expected.icc)
    if let duration = expected.duration { #expect(metadata.duration == duration) }
    #expect(metadata.livePhotoID == expected.livePhotoID)
    #expect(metadata.hintedType == nil)
    // The in-memory entry point agrees with the file one.
    let fromBytes = try MetadataReader.read(bytes: TestSupport.bytes(expected.file), hint: expected.file)
    #expect(fromBytes == metadata)
  }

  @Test func previewsPointAtDecodableJPEGs() throws {
    let bytes = try TestSupport.bytes("jpeg-thumbnail-icc.jpg")
    let metadata = try MetadataReader.read(bytes: bytes)
    let preview = try #require(metadata.previews.first)
    #expect(preview.width == 32 && preview.height == 24)
    let start = try #require(preview.offset), length = try #require(preview.length)
    let thumbnail = Array(bytes[start..<(start + length)])
    #expect(try MetadataReader.read(bytes: thumbnail).width == 32)
  }

  @Test func heifThumbnailItemHasSizeAndRange() throws {
    let metadata = try MetadataReader.read(fileAt: TestSupport.fixture("heic-exif-thumbnail.heic").path)
    let preview = try #require(metadata.previews.first)
    #expect(preview.type == .heic)
    #expect(preview.width == 32 && preview.height == 24)
    // libheif makes the thumbnail a `grid` item whose tiles are separate items: no single byte range then,
    // but the item ID leads a HEIF decoder to it.
    #expect(preview.itemID != nil)
    #expect(preview.offset == nil || (preview.length ?? 0) > 0)
  }

  @Test func captureDateWithOffsetHasUTCInstant() throws {
    let metadata = try MetadataReader.read(fileAt: TestSupport.fixture("jpeg-orientation-3.jpg").path)
    // 2023-03-13T13:23:33.333-04:00 = 2023-03-13T17:23:33.333Z
    let utc = try #require(metadata.captureDate?.utcTimestamp)
    #expect(abs(utc - 1_678_728_213.333) < 0.001)
  }

  @Test func mismatchedNameIsReportedAndBytesWin() throws {
    let metadata = try MetadataReader.read(bytes: TestSupport.bytes("png-exif.png"), hint: "holiday.jpg")
    #expect(metadata.type == .png)
    #expect(metadata.hintedType == .jpeg)
    // A staged file has no telling name: the picker's type identifier is passed as the hint.
    let staged = try MetadataReader.read(
      fileAt: TestSupport.fixture("png-exif.png").path, hint: "public.heic")
    #expect(staged.hintedType == .heic)
    #expect(
      try MetadataReader.read(fileAt: TestSupport.fixture("png-exif.png").path, hint: "IMG_1.PNG").hintedType
        == nil)
  }

  @Test func appleMakerNoteGivesLivePhotoID() throws {
    let note = AppleMakerNoteBuilder.note(contentIdentifier: "0E7E5F8A-5C6B-4B1F-9D0A-1234567890AB")
    let tiff = TIFFBuilder.camera(orientation: 6, makerNote: note)
    let jpeg = JPEGBuilder.inserting(
      JPEGBuilder.exifSegment(tiff), into: try TestSupport.bytes("jpeg-plain.jpg"))
    let metadata = try MetadataReader.read(bytes: jpeg)
    #expect(metadata.livePhotoID == "0E7E5F8A-5C6B-4B1F-9D0A-1234567890AB")
    #expect(metadata.orientation == .right)
    #expect(metadata.captureDate?.offsetString == "+02:00")
    #expect(abs((metadata.location?.longitude ?? 0) + 2.2945) < 1e-6)
    // The same EXIF in a HEIF Exif item.
    let heif = BoxBuilder.heif(exif: tiff + [])
    let heifMetadata = try MetadataReader.read(bytes: heif)
    #expect(heifMetadata.livePhotoID == "0E7E5F8A-5C6B-4B1F-9D0A-1234567890AB")
  }

  @Test func mpfImagesAreListedWithSizesAndGainMap() throws {
    let secondary = JPEGBuilder.inserting(
      JPEGBuilder.xmpSegment("<x:xmpmeta><rdf:Description hdrgm:Version=\"1.0\"/></x:xmpmeta>"),
      into: try TestSupport.bytes("jpeg-thumbnail-icc.jpg"))
    let file = JPEGBuilder.mpf(primary: try TestSupport.bytes("jpeg-plain.jpg"), secondary: secondary)
    let metadata = try MetadataReader.read(bytes: file)
    let preview = try #require(metadata.previews.first { $0.kind == .mpfImage })
    #expect(preview.width == 320 && preview.height == 240)
    #expect(preview.offset == file.count - secondary.count)
    #expect(preview.length == secondary.count)
    #expect(metadata.hasGainMap)
  }

  /// irot (anticlockwise quarter turns) and imir (axis 0: vertical axis, left-right) in association order,
  /// ISO/IEC 23008-12 §6.5.10–6.5.12; EXIF orientation 6 in the Exif item is ignored.
  static let transforms: [([[UInt8]], Orientation)] = [
    ([], .up),
    ([BoxBuilder.irot(1)], .left),
    ([BoxBuilder.irot(2)], .down),
    ([BoxBuilder.irot(3)], .right),
    ([BoxBuilder.imir(0)], .upMirrored),
    ([BoxBuilder.imir(1)], .downMirrored),
    ([BoxBuilder.irot(1), BoxBuilder.imir(0)], .rightMirrored),
    ([BoxBuilder.irot(3), BoxBuilder.imir(0)], .leftMirrored),
    ([BoxBuilder.imir(0), BoxBuilder.irot(1)], .leftMirrored),
  ]

  @Test func movieTrackMatrixGivesOrientation() throws {
    let movie = try CraftedFiles.rotatedMovie()
    let metadata = try MetadataReader.read(bytes: movie)
    #expect(metadata.orientation == .right)
    #expect(metadata.width == 64 && metadata.height == 48)
  }

  @Test(arguments: transforms)
  func heifTransformsDecideOrientation(_ boxes: [[UInt8]], _ expected: Orientation) throws {
    let heif = BoxBuilder.heif(transforms: boxes, exif: TIFFBuilder.camera(orientation: 6))
    let metadata = try MetadataReader.read(bytes: heif)
    #expect(metadata.orientation == expected)
    #expect(metadata.width == 640 && metadata.height == 480)
  }
}
