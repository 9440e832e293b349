/// Every rule, in the order `intake audit --list-rules` and the SARIF `rules` array list them.
enum RuleCatalog {
  static let all: [any AuditRule] = [
    PickerLegacyRule(),
    OverRequestReadRule(),
    OverRequestSaveRule(),
    LimitedIgnoredRule(),
    SyncLoadRule(),
    PNGOnlyImageTransferableRule(),
    TempURLEscapesRule(),
    IdentifierOnlyPersistenceRule(),
    FullDecodeThumbnailRule(),
    SessionMainThreadRule(),
    SessionInRepresentableRule(),
    ObserverLeakRule(),
    MissingUsageKeyRule(),
    GridKeyedByIndexRule(),
    PhotoDimensionsUnsetRule(),
  ]

  static var descriptors: [RuleDescriptor] { all.map(\.descriptor) }
}
