import Testing

@testable import PhotoMetadata

/// Dates, ISO 6709 strings, XMP coordinates and the XMP scanner, on their own.
struct ValuesTests {
  static let exifDates: [(String, String?, String?, String?, Double?)] = [
    ("2023:06:01 10:00:00", nil, "+02:00", "2023-06-01T10:00:00", 1_685_606_400),
    ("2023:06:01 10:00:00", "5", "-05:30", "2023-06-01T10:00:00.5", 1_685_633_400.5),
    ("2000:02:29 23:59:59", "123", nil, "2000-02-29T23:59:59.123", nil),
    ("1969:12:31 23:00:00", nil, "Z", "1969-12-31T23:00:00", -3600),
    ("0000:00:00 00:00:00", nil, "+00:00", nil, nil),
    ("    :  :     :  :  ", nil, nil, nil, nil),
    ("2023:13:01 10:00:00", nil, nil, nil, nil),
    ("2023:06:01", nil, nil, nil, nil),
  ]

  @Test(arguments: exifDates)
  func exifDate(_ text: String, _ subSeconds: String?, _ offset: String?, _ local: String?, _ utc: Double?) {
    let date = DateParsing.exif(text, subSeconds: subSeconds, offset: offset)
    #expect(date?.local == local)
    #expect(date?.utcTimestamp == utc)
  }

  @Test(
    arguments: [
      ("2023-06-01T12:00:00+0200", "2023-06-01T12:00:00", 7200),
      ("2023-06-01T12:00:00.25-07:00", "2023-06-01T12:00:00.25", -25200),
      ("2023-06-01T12:00Z", "2023-06-01T12:00:00", 0),
      ("2023-06-01T12:00:00", "2023-06-01T12:00:00", nil),
    ] as [(String, String, Int?)])
  func isoDate(_ text: String, _ local: String, _ offset: Int?) {
    let date = DateParsing.iso8601(text)
    #expect(date?.local == local)
    #expect(date?.offsetSeconds == offset)
  }

  @Test func quickTimeEpoch() {
    // 2082844800 s after 1904-01-01 is the Unix epoch.
    #expect(DateParsing.quickTime(2_082_844_800 + 86_400)?.local == "1970-01-02T00:00:00")
    #expect(DateParsing.quickTime(0) == nil)
    #expect(DateParsing.quickTime(.max) == nil)
  }

  @Test(
    arguments: [
      ("+37.3349-122.0090+030.000/", 37.3349, -122.009, 30.0),
      ("-33.8568+151.2153/", -33.8568, 151.2153, nil),
      ("+48.8584+002.2945+035.2CRSWGS_84/", 48.8584, 2.2945, 35.2),
    ] as [(String, Double, Double, Double?)])
  func iso6709(_ text: String, _ latitude: Double, _ longitude: Double, _ altitude: Double?) {
    let location = ISO6709.parse(text)
    #expect(location?.latitude == latitude)
    #expect(location?.longitude == longitude)
    #expect(location?.altitude == altitude)
  }

  @Test(arguments: ["", "/", "+", "++", "+91.0+000.0/", "abc", "+1.0"])
  func iso6709Rejects(_ text: String) {
    #expect(ISO6709.parse(text) == nil)
  }

  @Test func xmpCoordinates() {
    #expect(XMPPacket.coordinate("12,20.740734S") == -(12 + 20.740734 / 60))
    #expect(XMPPacket.coordinate("45,40,30W") == -(45 + 40.0 / 60 + 30.0 / 3600))
    #expect(XMPPacket.coordinate("10.5") == 10.5)
    #expect(XMPPacket.coordinate("N") == nil)
    #expect(XMPPacket.rational("25/2") == 12.5)
    #expect(XMPPacket.rational("1/0") == nil)
  }

  @Test func xmpAttributesAndElementsAreFoundAndBlanked() throws {
    let text = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="10,30N"
       exif:GPSLongitude='20,15.5W' tiff:Make="A &amp; B"><exif:GPSAltitude>5/1</exif:GPSAltitude>
      <exif:GPSVersionID/><dc:subject><rdf:Bag><rdf:li>x</rdf:li></rdf:Bag></dc:subject><!-- exif:GPSNo="1" -->
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """
    let packet = XMPPacket(bytes: Array(text.utf8))
    #expect(packet.value("Make", prefixes: ["tiff"]) == "A & B")
    #expect(packet.facts.location?.latitude == 10.5)
    #expect(packet.facts.location?.longitude == -(20 + 15.5 / 60))
    #expect(packet.facts.location?.altitude == 5)
    #expect(packet.value("subject", prefixes: ["dc"]) == nil)
    let plan = try XMPGPSEraser.plan(Array(text.utf8))
    #expect(
      plan.removed.sorted() == [
        "XMP exif:GPSAltitude", "XMP exif:GPSLatitude", "XMP exif:GPSLongitude", "XMP exif:GPSVersionID",
      ])
    var blanked = Array(text.utf8)
    for edit in plan.edits { blanked.replaceSubrange(edit.range, with: edit.replacement) }
    let after = String(decoding: blanked, as: UTF8.self)
    #expect(!after.contains("exif:GPSLatitude") && !after.contains("exif:GPSAltitude>"))
    #expect(after.contains("tiff:Make=\"A &amp; B\">") && after.contains("<rdf:li>x</rdf:li>"))
    #expect(blanked.count == text.utf8.count)
    #expect(XMPPacket(bytes: blanked).facts.location == nil)
  }

  @Test func transformsCompose() {
    // Each EXIF orientation is its own transform, and the eight are distinct.
    var seen: Set<Int> = []
    for turns in 0..<4 {
      for mirrored in [false, true] {
        seen.insert(ImageTransform(quarterTurns: turns, mirrored: mirrored).orientation.rawValue)
      }
    }
    #expect(seen == Set(1...8))
    // Mirroring twice about the same axis is the identity.
    var transform = ImageTransform()
    transform.rotate(anticlockwise: 1)
    transform.mirror(axis: 1)
    transform.mirror(axis: 1)
    #expect(transform.orientation == .left)
  }
}
