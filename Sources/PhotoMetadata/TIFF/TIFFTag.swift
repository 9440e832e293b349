/// The TIFF and EXIF tags PhotoMetadata reads (EXIF 2.32 §4.6.4–§4.6.6, TIFF 6.0, DNG 1.6).
enum TIFFTag {
  // IFD0 / TIFF (EXIF 2.32 §4.6.4 Table 4)
  static let newSubfileType: UInt16 = 0x00FE
  static let imageWidth: UInt16 = 0x0100
  static let imageLength: UInt16 = 0x0101
  static let bitsPerSample: UInt16 = 0x0102
  static let compression: UInt16 = 0x0103
  static let photometricInterpretation: UInt16 = 0x0106
  static let stripOffsets: UInt16 = 0x0111
  static let samplesPerPixel: UInt16 = 0x0115
  static let stripByteCounts: UInt16 = 0x0117
  static let planarConfiguration: UInt16 = 0x011C
  static let tileOffsets: UInt16 = 0x0144
  static let tileByteCounts: UInt16 = 0x0145
  static let make: UInt16 = 0x010F
  static let model: UInt16 = 0x0110
  static let orientation: UInt16 = 0x0112
  static let dateTime: UInt16 = 0x0132
  static let subIFDs: UInt16 = 0x014A
  static let jpegInterchangeFormat: UInt16 = 0x0201
  static let jpegInterchangeFormatLength: UInt16 = 0x0202
  static let xmp: UInt16 = 0x02BC
  static let iccProfile: UInt16 = 0x8773
  static let exifIFD: UInt16 = 0x8769
  static let gpsIFD: UInt16 = 0x8825
  static let dngVersion: UInt16 = 0xC612
  // Panasonic RW2 IFD0 (exiftool's PanasonicRaw table): the sensor's size and the borders of its image area,
  // and the full-size JPEG the camera made.
  static let rw2SensorWidth: UInt16 = 0x0002
  static let rw2SensorHeight: UInt16 = 0x0003
  static let rw2SensorTopBorder: UInt16 = 0x0004
  static let rw2SensorLeftBorder: UInt16 = 0x0005
  static let rw2SensorBottomBorder: UInt16 = 0x0006
  static let rw2SensorRightBorder: UInt16 = 0x0007
  static let rw2JpgFromRaw: UInt16 = 0x002E
  // Exif IFD (EXIF 2.32 §4.6.5 Table 7)
  static let dateTimeOriginal: UInt16 = 0x9003
  static let dateTimeDigitized: UInt16 = 0x9004
  static let offsetTime: UInt16 = 0x9010
  static let offsetTimeOriginal: UInt16 = 0x9011
  static let offsetTimeDigitized: UInt16 = 0x9012
  static let subSecTimeOriginal: UInt16 = 0x9291
  static let subSecTimeDigitized: UInt16 = 0x9292
  static let makerNote: UInt16 = 0x927C
  static let pixelXDimension: UInt16 = 0xA002
  static let pixelYDimension: UInt16 = 0xA003
  static let lensMake: UInt16 = 0xA433
  static let lensModel: UInt16 = 0xA434
  // GPS IFD (EXIF 2.32 §4.6.6 Table 15)
  static let gpsLatitudeRef: UInt16 = 0x0001
  static let gpsLatitude: UInt16 = 0x0002
  static let gpsLongitudeRef: UInt16 = 0x0003
  static let gpsLongitude: UInt16 = 0x0004
  static let gpsAltitudeRef: UInt16 = 0x0005
  static let gpsAltitude: UInt16 = 0x0006
  static let gpsTimeStamp: UInt16 = 0x0007
  static let gpsDateStamp: UInt16 = 0x001D
  // MPF index IFD (CIPA DC-007 §5.2.3)
  static let mpfNumberOfImages: UInt16 = 0xB001
  static let mpfEntry: UInt16 = 0xB002

  /// Tags whose value is the offset of another IFD; the walk follows them wherever they appear.
  static let pointers: [UInt16] = [exifIFD, gpsIFD, subIFDs]
}
