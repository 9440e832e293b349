/// An optional part of a file that could not be read, while everything else was.
///
/// A damaged EXIF block, XMP packet, ICC profile, MPF index, thumbnail, maker note or auxiliary image costs
/// only its own facts: ``MetadataReader`` records one of these in ``MediaMetadata/warnings`` and returns
/// every other fact. Only damage to what the image itself needs (its coded data, the item or track layout)
/// fails the read.
public struct MetadataWarning: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The part of the file that was skipped.
  public enum Part: String, Sendable, Hashable, Codable, CaseIterable {
    /// The EXIF block (JPEG APP1, HEIF `Exif` item, PNG `eXIf`, WebP `EXIF`, TIFF Exif or GPS IFD).
    case exif
    /// An XMP packet.
    case xmp
    /// The ICC colour profile.
    case icc
    /// The Multi-Picture Format index (CIPA DC-007) and the images it lists.
    case mpf
    /// An embedded thumbnail (EXIF IFD1, HEIF `thmb` item).
    case thumbnail
    /// A camera maker's note.
    case makerNote
    /// An auxiliary image (depth, alpha, gain map) or an entity group.
    case auxiliaryImage
    /// Movie or track metadata (`udta`, `keys`/`ilst`).
    case trackMetadata
    /// A movie track header's size (`tkhd`) that is no size of the track's coded pictures; the coded size is
    /// given instead.
    case trackHeader
    /// Bytes between two JPEG marker segments that belong to neither (a writer's padding, a miscounted
    /// length); the headers are read on from the next real marker, as libjpeg decodes such files.
    case extraneousBytes
    /// Entries of a TIFF directory (IFD0 or a SubIFD of a TIFF or raw file) whose values could not be read:
    /// a count no file can hold, a value past the end, a table cut short. The other entries are read, as
    /// exiftool and libtiff read them.
    case tiffDirectory
    /// Boxes of a HEIF, MP4 or QuickTime file after one that cannot be delimited (a size smaller than its
    /// header, or past its parent): the boxes before it are read, as exiftool reads them.
    case boxes
    /// The rest of a file cut short after its header (a PNG that ends before IEND): the header's facts are
    /// returned, and decoders show what the data before the cut holds.
    case remainder

    /// The part's name in a sentence.
    var phrase: String {
      switch self {
      case .exif: "the EXIF block"
      case .xmp: "an XMP packet"
      case .icc: "the ICC profile"
      case .mpf: "the Multi-Picture (MPF) index"
      case .thumbnail: "an embedded thumbnail"
      case .makerNote: "the maker note"
      case .auxiliaryImage: "an auxiliary image"
      case .trackMetadata: "the track metadata"
      case .trackHeader: "the track header's size"
      case .extraneousBytes: "a run of bytes between two JPEG segments"
      case .tiffDirectory: "part of a TIFF directory"
      case .boxes: "part of the file's box structure"
      case .remainder: "the rest of the file"
      }
    }
  }

  /// The part that was skipped.
  public var part: Part
  /// Why it was skipped (the parser's reason, e.g. "TIFF header has no byte-order mark").
  public var reason: String

  /// A warning that `part` was skipped for `reason`.
  public init(part: Part, reason: String) {
    self.part = part
    self.reason = reason
  }

  /// A sentence saying what was skipped and why.
  public var description: String {
    "\(part.phrase) could not be read (\(reason)) and was skipped; the other facts are complete"
  }
}

extension MetadataError {
  /// The reason, without the sentence around it, for a ``MetadataWarning``.
  var warningReason: String {
    switch self {
    case .truncated: "it ends past the end of the file"
    case .corrupt(let reason): reason
    case .limitExceeded(let what): "a safety limit was reached: \(what)"
    case .unsupported: "it is in a form PhotoIntake does not read"
    case .cannotStrip(let reason): reason
    case .io(let code): "errno \(code)"
    }
  }
}

extension MediaMetadata {
  /// Runs `body`, which reads an optional part; a parse failure becomes a warning and `nil`.
  ///
  /// I/O errors are not damage to the part: they are passed on, since the next read would fail the same way.
  mutating func tolerating<T>(_ part: MetadataWarning.Part, _ body: () throws(MetadataError) -> T)
    throws(MetadataError) -> T?
  {
    do {
      return try body()
    } catch {
      if case .io = error { throw error }
      warnings.append(MetadataWarning(part: part, reason: error.warningReason))
      return nil
    }
  }
}
