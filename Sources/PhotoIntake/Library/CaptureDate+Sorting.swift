import PhotoMetadata

extension CaptureDate {
  /// The instant to sort by: the UTC timestamp when the offset is known, else the local time read as if it
  /// were UTC (off by at most the unknown offset, which is what every photo app does for such photos).
  var sortTimestamp: Double? {
    if let utcTimestamp { return utcTimestamp }
    // local is "YYYY-MM-DDTHH:MM:SS[.fff]".
    let digits = local.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard digits.count >= 6 else { return nil }
    let (year, month, day) = (digits[0], digits[1], digits[2])
    guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    // Days from civil (Howard Hinnant's algorithm): no calendar or time zone database needed.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return Double(days * 86_400 + digits[3] * 3600 + digits[4] * 60 + digits[5])
  }
}
