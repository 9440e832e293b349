/// The size of a video track's coded pictures, read from its codec configuration (the sequence parameter
/// set a decoder allocates its frames from), not from the track header or sample entry, which only claim one.
///
/// A playable movie may claim 65535×65535 in `tkhd` and in its sample entry while its H.264 stream codes
/// 64×64 pictures: decoders follow the stream. Read here: H.264 (`avcC`, ITU-T H.264 §7.3.2.1.1) and HEVC
/// (`hvcC`, ITU-T H.265 §7.3.2.2.1), the codecs cameras and phones record, with their cropping windows.
enum VideoParameterSets {
  /// The coded size in a sample entry's configuration box: `avcC` or `hvcC` payload bytes.
  ///
  /// - Returns: nil when the box holds no sequence parameter set this reader understands; every read is
  ///   bounded by the bytes given, and damage gives nil, never a trap.
  static func codedSize(configuration type: String, _ bytes: [UInt8]) -> PixelSize? {
    switch type {
    case "avcC": avcSequenceParameterSet(bytes).flatMap(avcSize)
    case "hvcC": hevcSequenceParameterSet(bytes).flatMap(hevcSize)
    default: nil
    }
  }

  // MARK: Configuration records (ISO/IEC 14496-15)

  /// The first SPS NAL unit of an AVCDecoderConfigurationRecord (§5.3.3.1): version, profile, compatibility,
  /// level, lengthSizeMinusOne, numOfSequenceParameterSets (5 bits), then each as a 16-bit length and the NAL.
  static func avcSequenceParameterSet(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 8, bytes[0] == 1, bytes[5] & 0x1F > 0 else { return nil }
    let length = Int(bytes.u16(at: 6, bigEndian: true))
    guard length >= 2, length <= bytes.count - 8 else { return nil }
    let nal = Array(bytes[8..<(8 + length)])
    // nal_unit_type 7: sequence parameter set (H.264 Table 7-1).
    return nal[0] & 0x1F == 7 ? nal : nil
  }

  /// The first SPS NAL unit of an HEVCDecoderConfigurationRecord (§8.3.3.1): 22 bytes of profile and format
  /// fields, numOfArrays, then arrays of NAL units of one type each (33: SPS, H.265 Table 7-1).
  static func hevcSequenceParameterSet(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 23, bytes[0] == 1 else { return nil }
    var reader = ByteReader(bytes, at: 22)
    guard let arrays = try? reader.u8() else { return nil }
    for _ in 0..<arrays {
      guard let type = try? reader.u8(), let count = try? reader.u16() else { return nil }
      for _ in 0..<count {
        guard let length = try? reader.u16(), let nal = try? reader.take(Int(length)) else { return nil }
        if type & 0x3F == 33, nal.count >= 3 { return Array(nal) }
      }
    }
    return nil
  }

  // MARK: Sequence parameter sets

  /// H.264 SPS (§7.3.2.1.1): the size in macroblocks, less the frame cropping (§7.4.2.1.1, Table 6-1).
  static func avcSize(_ nal: [UInt8]) -> PixelSize? {
    var bits = BitReader(rbsp: nal, headerBytes: 1)
    guard let profile = bits.read(8) else { return nil }
    _ = bits.read(16)  // constraint flags, reserved, level_idc
    _ = bits.exponentialGolomb()  // seq_parameter_set_id
    var chromaFormat = 1
    var separateColourPlanes = false
    if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
      guard let format = bits.exponentialGolomb() else { return nil }
      chromaFormat = format
      if format == 3 { separateColourPlanes = bits.read(1) == 1 }
      _ = bits.exponentialGolomb()  // bit_depth_luma_minus8
      _ = bits.exponentialGolomb()  // bit_depth_chroma_minus8
      _ = bits.read(1)  // qpprime_y_zero_transform_bypass_flag
      if bits.read(1) == 1 {  // seq_scaling_matrix_present_flag
        for index in 0..<(format != 3 ? 8 : 12) where bits.read(1) == 1 {
          guard bits.skipScalingList(size: index < 6 ? 16 : 64) else { return nil }
        }
      }
    }
    _ = bits.exponentialGolomb()  // log2_max_frame_num_minus4
    guard let pictureOrderCountType = bits.exponentialGolomb() else { return nil }
    if pictureOrderCountType == 0 {
      _ = bits.exponentialGolomb()  // log2_max_pic_order_cnt_lsb_minus4
    } else if pictureOrderCountType == 1 {
      _ = bits.read(1)
      _ = bits.exponentialGolomb()
      _ = bits.exponentialGolomb()
      guard let cycle = bits.exponentialGolomb(), cycle <= 255 else { return nil }
      for _ in 0..<cycle { _ = bits.exponentialGolomb() }
    }
    _ = bits.exponentialGolomb()  // max_num_ref_frames
    _ = bits.read(1)  // gaps_in_frame_num_value_allowed_flag
    guard let widthInMacroblocks = bits.exponentialGolomb().map({ $0 + 1 }),
      let heightInMapUnits = bits.exponentialGolomb().map({ $0 + 1 }),
      let frameMacroblocksOnly = bits.read(1)
    else { return nil }
    if frameMacroblocksOnly == 0 { _ = bits.read(1) }  // mb_adaptive_frame_field_flag
    _ = bits.read(1)  // direct_8x8_inference_flag
    var width = widthInMacroblocks * 16
    var height = (2 - frameMacroblocksOnly) * heightInMapUnits * 16
    if bits.read(1) == 1 {  // frame_cropping_flag
      guard let left = bits.exponentialGolomb(), let right = bits.exponentialGolomb(),
        let top = bits.exponentialGolomb(), let bottom = bits.exponentialGolomb()
      else { return nil }
      // ChromaArrayType 0 (monochrome or separate planes) crops in luma samples; else in chroma samples.
      let arrayType = separateColourPlanes ? 0 : chromaFormat
      let unitX = arrayType == 0 ? 1 : (arrayType == 3 ? 1 : 2)
      let unitY =
        (arrayType == 0 || arrayType == 3 ? 1 : (arrayType == 1 ? 2 : 1)) * (2 - frameMacroblocksOnly)
      width -= unitX * (left + right)
      height -= unitY * (top + bottom)
    }
    return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
  }

  /// HEVC SPS (§7.3.2.2.1): pic_width/height_in_luma_samples, less the conformance window (§7.4.3.2.1).
  static func hevcSize(_ nal: [UInt8]) -> PixelSize? {
    var bits = BitReader(rbsp: nal, headerBytes: 2)
    _ = bits.read(4)  // sps_video_parameter_set_id
    guard let subLayers = bits.read(3) else { return nil }
    _ = bits.read(1)  // sps_temporal_id_nesting_flag
    // profile_tier_level(1, sps_max_sub_layers_minus1) (§7.3.3): 88 bits of general profile and 8 of level,
    // the sub-layer flags, padding to 16 bits when there are sub-layers, then each sub-layer's profile (88
    // bits) and level (8).
    guard bits.skip(96) else { return nil }
    var profilePresent: [Bool] = []
    var levelPresent: [Bool] = []
    for _ in 0..<subLayers {
      profilePresent.append(bits.read(1) == 1)
      levelPresent.append(bits.read(1) == 1)
    }
    if subLayers > 0 { guard bits.skip(2 * (8 - subLayers)) else { return nil } }
    for layer in 0..<subLayers {
      if profilePresent[layer] { guard bits.skip(88) else { return nil } }
      if levelPresent[layer] { guard bits.skip(8) else { return nil } }
    }
    _ = bits.exponentialGolomb()  // sps_seq_parameter_set_id
    guard let chromaFormat = bits.exponentialGolomb() else { return nil }
    var separateColourPlanes = false
    if chromaFormat == 3 { separateColourPlanes = bits.read(1) == 1 }
    guard var width = bits.exponentialGolomb(), var height = bits.exponentialGolomb() else { return nil }
    if bits.read(1) == 1 {  // conformance_window_flag
      guard let left = bits.exponentialGolomb(), let right = bits.exponentialGolomb(),
        let top = bits.exponentialGolomb(), let bottom = bits.exponentialGolomb()
      else { return nil }
      // SubWidthC and SubHeightC (Table 6-1): 2 and 2 for 4:2:0, 2 and 1 for 4:2:2, else 1.
      let arrayType = separateColourPlanes ? 0 : chromaFormat
      let subWidth = arrayType == 1 || arrayType == 2 ? 2 : 1
      let subHeight = arrayType == 1 ? 2 : 1
      width -= subWidth * (left + right)
      height -= subHeight * (top + bottom)
    }
    return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
  }
}

/// Reads bits most significant first from a NAL unit's payload with its emulation prevention bytes removed
/// (H.264 §7.4.1, H.265 §7.4.2: 0x000003 stands for 0x0000). Running past the end gives nil.
struct BitReader {
  private let bytes: [UInt8]
  private var position = 0

  /// The raw byte sequence payload of `nal`, after its `headerBytes`-byte NAL unit header.
  init(rbsp nal: [UInt8], headerBytes: Int) {
    var payload: [UInt8] = []
    payload.reserveCapacity(nal.count)
    var zeros = 0
    for byte in nal.dropFirst(headerBytes) {
      if zeros >= 2, byte == 3 {
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
      payload.append(byte)
    }
    bytes = payload
  }

  /// `count` bits (at most 32) as an unsigned number.
  mutating func read(_ count: Int) -> Int? {
    guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
    var value = 0
    for _ in 0..<count {
      value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
      position += 1
    }
    return value
  }

  mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, position + count <= bytes.count * 8 else { return false }
    position += count
    return true
  }

  /// ue(v) (H.264 §9.1): leading zeros, a 1, then as many bits; at most 31 leading zeros.
  mutating func exponentialGolomb() -> Int? {
    var zeros = 0
    while true {
      guard let bit = read(1) else { return nil }
      if bit == 1 { break }
      zeros += 1
      if zeros > 31 { return nil }
    }
    guard let rest = read(zeros) else { return nil }
    return (1 << zeros) - 1 + rest
  }

  /// se(v): the signed form of ue(v).
  mutating func signedExponentialGolomb() -> Int? {
    guard let code = exponentialGolomb() else { return nil }
    return code & 1 == 1 ? (code + 1) / 2 : -(code / 2)
  }

  /// A scaling_list() of `size` entries (H.264 §7.3.2.1.1.1), whose values are not needed.
  mutating func skipScalingList(size: Int) -> Bool {
    var last = 8, next = 8
    for _ in 0..<size where next != 0 {
      guard let delta = signedExponentialGolomb() else { return false }
      next = (last + delta + 256) % 256
      last = next == 0 ? last : next
    }
    return true
  }
}
