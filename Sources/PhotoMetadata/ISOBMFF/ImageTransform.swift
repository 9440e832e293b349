/// Rotation and mirroring as an element of the symmetry group of the square: `quarterTurns` counter-
/// clockwise after an optional left-right mirror. Composes HEIF `irot`/`imir` (ISO/IEC 23008-12 §6.5.10,
/// §6.5.12) and QuickTime track matrices into an EXIF ``Orientation``.
struct ImageTransform: Equatable {
  var quarterTurns = 0
  var mirrored = false

  /// Applies `irot`: rotate anticlockwise by `angle` × 90°.
  mutating func rotate(anticlockwise angle: Int) {
    quarterTurns = (quarterTurns + angle) & 3
  }

  /// Applies `imir` after the transforms so far. Axis 0 is a vertical axis (a left-right mirror), axis 1 a
  /// horizontal axis (top-bottom) (ISO/IEC 23008-12:2017 §6.5.12.3).
  mutating func mirror(axis: Int) {
    // M·R^k = R^-k·M: mirroring after turning reverses the turns already made.
    quarterTurns = (4 - quarterTurns) & 3
    mirrored.toggle()
    if axis == 1 { quarterTurns = (quarterTurns + 2) & 3 }
  }

  /// The EXIF orientation that displays the stored pixels the same way (EXIF 2.32 §4.6.5, tag 0x0112).
  var orientation: Orientation {
    switch (quarterTurns, mirrored) {
    case (0, false): .up
    case (1, false): .left
    case (2, false): .down
    case (3, false): .right
    case (0, true): .upMirrored
    case (1, true): .leftMirrored
    case (2, true): .downMirrored
    default: .rightMirrored
    }
  }

  /// A QuickTime / ISO track matrix's upper 2×2 (16.16 fixed point), when it is a pure rotation or mirror
  /// (QTFF "Matrices"; ISO/IEC 14496-12 §8.3.2). x' = a·x + c·y, y' = b·x + d·y, with y pointing down.
  init?(matrix a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
    let one: Int32 = 0x1_0000
    switch (a, b, c, d) {
    case (one, 0, 0, one): self.init()
    case (0, one, -one, 0): self.init(quarterTurns: 3, mirrored: false)
    case (-one, 0, 0, -one): self.init(quarterTurns: 2, mirrored: false)
    case (0, -one, one, 0): self.init(quarterTurns: 1, mirrored: false)
    case (-one, 0, 0, one): self.init(quarterTurns: 0, mirrored: true)
    case (one, 0, 0, -one): self.init(quarterTurns: 2, mirrored: true)
    case (0, one, one, 0): self.init(quarterTurns: 1, mirrored: true)
    case (0, -one, -one, 0): self.init(quarterTurns: 3, mirrored: true)
    default: return nil
    }
  }

  init(quarterTurns: Int = 0, mirrored: Bool = false) {
    self.quarterTurns = quarterTurns
    self.mirrored = mirrored
  }
}
