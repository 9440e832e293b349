/// Date and time text as files spell it, turned into ``CaptureDate`` without Foundation.
enum DateParsing {
  /// EXIF "YYYY:MM:DD HH:MM:SS" (EXIF 2.32 §4.6.5 DateTimeOriginal) with SubSecTime digits and an
  /// OffsetTime "+HH:MM". Blank or all-zero dates ("0000:00:00 00:00:00", written by some cameras) are nil.
  static func exif(_ text: String, subSeconds: String?, offset: String?) -> CaptureDate? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19 else { return nil }
    guard let fields = numbers(bytes, [(0, 4), (5, 2), (8, 2), (11, 2), (14, 2), (17, 2)]) else { return nil }
    var digits = ""
    if let subSeconds {
      digits = String(subSeconds.trimmingSpaces().prefix { $0.isASCII && $0.isNumber }.prefix(9))
    }
    return make(fields, fraction: digits, offsetSeconds: offset.flatMap(offsetSeconds))
  }

  /// ISO 8601 as XMP and QuickTime keys write it: "YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]".
  static func iso8601(_ text: String) -> CaptureDate? {
    let bytes = Array(text.trimmingSpaces().utf8)
    guard bytes.count >= 16, let date = numbers(bytes, [(0, 4), (5, 2), (8, 2), (11, 2), (14, 2)]) else {
      return nil
    }
    var fields = date + [0]
    var at = 16
    if bytes.count >= 19, bytes[16] == UInt8(ascii: ":"), let seconds = numbers(bytes, [(17, 2)]) {
      fields[5] = seconds[0]
      at = 19
    }
    var fraction = ""
    if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
      at += 1
      while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 {
        if fraction.count < 9 { fraction.append(Character(UnicodeScalar(bytes[at]))) }
        at += 1
      }
    }
    let zone = String(decoding: bytes[at...], as: UTF8.self)
    return make(fields, fraction: fraction, offsetSeconds: zone.isEmpty ? nil : offsetSeconds(zone))
  }

  /// A QuickTime date: seconds since 1904-01-01T00:00:00Z (QTFF "Movie header atom"). Zero means unset.
  static func quickTime(_ seconds: UInt64) -> CaptureDate? {
    // 1904 to 1970: 66 years with 17 leap days.
    let unix = Int64(bitPattern: seconds) &- 2_082_844_800
    guard seconds != 0, unix > -2_082_844_800, unix < 253_402_300_800 else { return nil }
    var days = Int(unix / 86_400)
    var rest = Int(unix % 86_400)
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (y, m, d) = civil(fromDays: days)
    return make([y, m, d, rest / 3600, rest / 60 % 60, rest % 60], fraction: "", offsetSeconds: 0)
  }

  /// Seconds since 1970-01-01 counted on the camera's clock, with no time zone: Canon CRW's TimeStamp and
  /// Sigma X3F's TIME property (exiftool shows both as they are, without conversion to a zone). Zero is unset.
  static func cameraClock(_ seconds: Int) -> CaptureDate? {
    guard seconds > 0, seconds < 253_402_300_800 else { return nil }
    let (y, m, d) = civil(fromDays: seconds / 86_400)
    let rest = seconds % 86_400
    return make([y, m, d, rest / 3600, rest / 60 % 60, rest % 60], fraction: "", offsetSeconds: nil)
  }

  /// "+HH:MM", "+HHMM", "+HH" or "Z" as seconds east of UTC.
  static func offsetSeconds(_ text: String) -> Int? {
    let bytes = Array(text.trimmingSpaces().utf8)
    if bytes == [UInt8(ascii: "Z")] { return 0 }
    guard bytes.count >= 3, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      let hours = numbers(bytes, [(1, 2)])?.first
    else { return nil }
    var minutes = 0
    if bytes.count == 6, bytes[3] == UInt8(ascii: ":"), let m = numbers(bytes, [(4, 2)]) {
      minutes = m[0]
    } else if bytes.count == 5, let m = numbers(bytes, [(3, 2)]) {
      minutes = m[0]
    } else if bytes.count != 3 {
      return nil
    }
    guard hours <= 18, minutes < 60 else { return nil }
    let value = hours * 3600 + minutes * 60
    return bytes[0] == UInt8(ascii: "-") ? -value : value
  }

  /// GPSDateStamp "YYYY:MM:DD" and GPSTimeStamp rationals as "YYYY-MM-DDTHH:MM:SSZ".
  static func gpsTimestamp(date: String, hour: Double, minute: Double, second: Double) -> String? {
    let bytes = Array(date.utf8)
    guard bytes.count >= 10, let ymd = numbers(bytes, [(0, 4), (5, 2), (8, 2)]),
      hour >= 0, hour < 24, minute >= 0, minute < 60, second >= 0, second < 61
    else { return nil }
    return "\(pad(ymd[0], 4))-\(pad(ymd[1], 2))-\(pad(ymd[2], 2))T\(pad(Int(hour), 2)):"
      + "\(pad(Int(minute), 2)):\(pad(Int(second), 2))Z"
  }

  // MARK: - Helpers

  private static func make(_ f: [Int], fraction: String, offsetSeconds: Int?) -> CaptureDate? {
    let (y, mo, d, h, mi, s) = (f[0], f[1], f[2], f[3], f[4], f[5])
    guard y > 0, (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
    var local = "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2))"
    if !fraction.isEmpty { local += "." + fraction }
    var utc: Double?
    if let offsetSeconds {
      let seconds = days(fromCivil: y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offsetSeconds
      utc = Double(seconds) + (Double("0." + (fraction.isEmpty ? "0" : fraction)) ?? 0)
    }
    return CaptureDate(local: local, offsetSeconds: offsetSeconds, utcTimestamp: utc)
  }

  /// Decimal fields at (offset, length); nil when any is not all digits.
  private static func numbers(_ bytes: [UInt8], _ spans: [(Int, Int)]) -> [Int]? {
    var result: [Int] = []
    for (start, length) in spans {
      guard start + length <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[start..<(start + length)] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      result.append(value)
    }
    return result
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant, "chrono-compatible
  /// low-level date algorithms", days_from_civil).
  static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The inverse of ``days(fromCivil:_:_:)`` (civil_from_days).
  static func civil(fromDays value: Int) -> (Int, Int, Int) {
    let z = value + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
