import Foundation
import PhotoIntakeTesting
import Testing

@testable import PhotoMetadata

/// exiftool (Debian libimage-exiftool-perl) as the oracle: size, orientation, capture date and GPS of every
/// fixture and crafted file must match `exiftool -n -json -G`. Fails, never skips, when exiftool is missing.
struct OracleTests {
  @Test func everyFileAgreesWithExiftool() throws {
    let folder = TemporaryDirectory()
    // The `damaged-*` files are compared with exiftool by DamagedFileTests: their damaged parts read
    // differently by design (a warning here, a guess or an error there).
    var paths = TestSupport.fixtureNames.filter { !$0.hasPrefix("damaged-") }.map {
      TestSupport.fixture($0).path
    }
    for (name, bytes) in try CraftedFiles.all() {
      paths.append(try folder.write(name, bytes))
    }
    let reports = try TestSupport.exiftool(paths)
    #expect(reports.count == paths.count)
    #expect(paths.count >= 30)
    for (path, tags) in zip(paths, reports) {
      let name = (path as NSString).lastPathComponent
      let ours = try MetadataReader.read(fileAt: path)
      let comment = Comment(rawValue: name)

      let width = Self.first(tags, ["File", "PNG", "GIF", "RIFF", "QuickTime", "EXIF"], "ImageWidth") as? Int
      let height =
        Self.first(tags, ["File", "PNG", "GIF", "RIFF", "QuickTime", "EXIF"], "ImageHeight") as? Int
      #expect(ours.width == width, comment)
      #expect(ours.height == height, comment)
      // exiftool 12.57 does not read `imir`; mirrored HEIF files are checked by ReaderTests instead.
      if !name.contains("imir") {
        #expect(ours.orientation.rawValue == Self.orientation(tags, type: ours.type), comment)
      }

      let date =
        (tags["EXIF:DateTimeOriginal"] ?? tags["XMP:DateTimeOriginal"] ?? tags["QuickTime:CreationDate"]
        ?? tags["QuickTime:CreateDate"]) as? String
      if let date, !date.hasPrefix("0000") {
        let ourDate = ours.captureDate?.local.replacingOccurrences(of: "-", with: ":")
          .replacingOccurrences(of: "T", with: " ")
        #expect(ourDate?.prefix(19) == date.prefix(19), comment)
      } else {
        #expect(ours.captureDate == nil, comment)
      }
      if let offset = tags["EXIF:OffsetTimeOriginal"] as? String {
        #expect(ours.captureDate?.offsetString == offset, comment)
      }

      if let latitude = Self.number(tags["Composite:GPSLatitude"] ?? tags["XMP:GPSLatitude"]),
        let longitude = Self.number(tags["Composite:GPSLongitude"] ?? tags["XMP:GPSLongitude"])
      {
        // exiftool prints 3GPP `loci` coordinates with 5 decimals only; all other sources to full precision.
        let tolerance = tags["QuickTime:LocationInformation"] != nil ? 1e-5 : 1e-6
        let location = try #require(ours.location, comment)
        #expect(abs(location.latitude - latitude) <= tolerance, comment)
        #expect(abs(location.longitude - longitude) <= tolerance, comment)
        if let altitude = Self.number(tags["Composite:GPSAltitude"] ?? tags["XMP:GPSAltitude"]),
          tags["QuickTime:LocationInformation"] == nil
        {
          #expect(abs((location.altitude ?? .nan) - altitude) < 1e-6, comment)
        }
      } else if tags["File:FileType"] as? String == "BTF" {
        // exiftool 12.57 reads a BigTIFF's GPS IFD with the wrong table (its tags come out as
        // GPSInfo:InteropIndex …), so it gives no position; TIFFDamageTests checks BigTIFF GPS against
        // the classic twin instead.
      } else {
        #expect(ours.location == nil, comment)
      }
      if let id = tags["QuickTime:ContentIdentifier"] ?? tags["MakerNotes:ContentIdentifier"] {
        #expect(ours.livePhotoID == id as? String, comment)
      }
    }
  }

  static func first(_ tags: [String: Any], _ groups: [String], _ name: String) -> Any? {
    for group in groups { if let value = tags["\(group):\(name)"] { return value } }
    return nil
  }

  static func number(_ value: Any?) -> Double? {
    (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap(Double.init)
  }

  /// EXIF orientation for stills; for HEIF the `irot` transform (exiftool: QuickTime:Rotation = irot × 90,
  /// anticlockwise degrees as in ISO/IEC 23008-12 §6.5.10), since HEIF readers ignore EXIF orientation; for
  /// movies the track matrix.
  static func orientation(_ tags: [String: Any], type: MediaType) -> Int {
    switch type {
    case .heic, .heif, .avif:
      var transform = ImageTransform()
      if let degrees = number(tags["QuickTime:Rotation"]) {
        transform.rotate(anticlockwise: Int(degrees) / 90)
      }
      return transform.orientation.rawValue
    case .mov, .mp4, .m4v:
      let degrees = Int(number(tags["Composite:Rotation"]) ?? 0)
      return [0: 1, 90: 6, 180: 3, 270: 8][degrees] ?? 1
    default:
      return Int(number(tags["EXIF:Orientation"] ?? tags["XMP:Orientation"]) ?? 1)
    }
  }
}
