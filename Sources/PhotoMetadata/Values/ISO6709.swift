/// ISO 6709 point strings as QuickTime writes them: "±DD.DDDD±DDD.DDDD[±AAA.AAA][CRS]/",
/// e.g. "+37.3349-122.0090+030.000/" (`©xyz` user data and `com.apple.quicktime.location.ISO6709`).
enum ISO6709 {
  static func parse(_ text: String) -> GPSLocation? {
    var numbers: [Double] = []
    var current = ""
    for character in text.trimmingSpaces() {
      if character == "+" || character == "-" || character == "/" {
        if !current.isEmpty {
          guard let value = Double(current) else { return nil }
          numbers.append(value)
        }
        current = character == "/" ? "" : String(character)
        if character == "/" { break }
      } else if character.isASCII, character.isNumber || character == "." {
        guard !current.isEmpty else { return nil }
        current.append(character)
      } else {
        // "CRSWGS_84" and similar suffixes end the numbers.
        break
      }
      guard numbers.count <= 3 else { break }
    }
    if !current.isEmpty, current != "+", current != "-", let value = Double(current) { numbers.append(value) }
    // Only the decimal-degree form is written by cameras; DDMM.MM forms would exceed ±90 / ±180.
    guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
    return GPSLocation(
      latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
  }
}
