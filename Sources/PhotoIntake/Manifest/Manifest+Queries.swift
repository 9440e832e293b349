import Foundation
import PhotoMetadata

// The manifest's queries, written once and run on whichever connection asks: the readers' for the library's
// public queries (``Manifest/read(_:)``), the writer's inside the manifest's own operations, where a read must
// see the writer's latest state.

extension Database {
  static let assetColumns = """
    a.id, a.sha256, a.size, a.type, a.name, a.imported_at, b.id, bi.position, d.kind, a.metadata,
    a.location_stripped
    """
  /// The column after ``assetColumns`` that a list query adds for its cursor.
  static let cursorColumn: Int32 = 11

  /// A page of assets. Costs O(log n + limit): the cursor is a key, not an offset.
  func page(order: Library.ListOrder, limit: Int, after cursor: Library.ListCursor?) throws(DatabaseError)
    -> Library.Page
  {
    let limit = max(1, limit)
    let statement: Statement
    switch order {
    case .batch:
      statement = try prepare(
        """
        SELECT \(Self.assetColumns), bi.batch_seq
        FROM batch_items bi JOIN assets a ON a.id = bi.asset_id JOIN batches b ON b.seq = bi.batch_seq
        LEFT JOIN damage d ON d.asset_id = a.id
        WHERE (bi.batch_seq, bi.position) > (?1, ?2)
        ORDER BY bi.batch_seq, bi.position LIMIT ?3
        """)
      try statement.bind(
        .double(cursor?.primary ?? -1), .int(Int64(cursor?.secondary ?? "") ?? -1), .int(Int64(limit)))
    case .date:
      statement = try prepare(
        """
        SELECT \(Self.assetColumns), a.sort_date
        FROM assets a JOIN batches b ON b.seq = a.batch_seq
        JOIN batch_items bi ON bi.batch_seq = a.batch_seq AND bi.position = a.position
        LEFT JOIN damage d ON d.asset_id = a.id
        WHERE (a.sort_date, a.id) > (?1, ?2)
        ORDER BY a.sort_date, a.id LIMIT ?3
        """)
      try statement.bind(
        .double(cursor?.primary ?? -Double.greatestFiniteMagnitude), .text(cursor?.secondary ?? ""),
        .int(Int64(limit)))
    }
    var assets: [Asset] = []
    var last: Library.ListCursor?
    while try statement.step() {
      let asset = try Self.asset(from: statement)
      assets.append(asset)
      let secondary = order == .batch ? String(asset.position) : asset.id.rawValue
      last = Library.ListCursor(
        order: order, primary: statement.double(Self.cursorColumn), secondary: secondary)
    }
    return Library.Page(assets: assets, next: assets.count == limit ? last : nil)
  }

  /// Every asset in the given order, a page at a time.
  func all(order: Library.ListOrder) throws(DatabaseError) -> [Asset] {
    var result: [Asset] = []
    var cursor: Library.ListCursor?
    repeat {
      let page = try page(order: order, limit: 500, after: cursor)
      result += page.assets
      cursor = page.next
    } while cursor != nil
    return result
  }

  /// The asset with this identifier, with its first batch and position; nil if there is none.
  func asset(_ id: AssetID) throws(DatabaseError) -> Asset? {
    let statement = try prepare(
      """
      SELECT \(Self.assetColumns)
      FROM assets a JOIN batches b ON b.seq = a.batch_seq
      JOIN batch_items bi ON bi.batch_seq = a.batch_seq AND bi.position = a.position
      LEFT JOIN damage d ON d.asset_id = a.id
      WHERE a.id = ?1
      """)
    try statement.bind(.text(id.rawValue))
    return try statement.step() ? try Self.asset(from: statement) : nil
  }

  /// The id of the asset whose bytes hash to `digest`, if any.
  func assetID(withSHA256 digest: SHA256Digest) throws(DatabaseError) -> AssetID? {
    let statement = try prepare("SELECT id FROM assets WHERE sha256 = ?1")
    try statement.bind(.text(digest.hex))
    return try statement.step() ? AssetID(rawValue: statement.text(0) ?? "") : nil
  }

  /// The asset whose bytes hash to `digest`, if any.
  func asset(withSHA256 digest: SHA256Digest) throws(DatabaseError) -> Asset? {
    guard let id = try assetID(withSHA256: digest) else { return nil }
    return try asset(id)
  }

  /// A full identifier, or a unique prefix of an identifier or of a SHA-256 (at least 4 characters), as people
  /// type them on a command line.
  func resolve(_ text: String) throws(DatabaseError) -> Asset? {
    let key = text.lowercased()
    if let asset = try asset(AssetID(rawValue: key)) { return asset }
    guard key.count >= 4, key.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
    var ids: [String] = []
    let statement = try prepare(
      "SELECT id FROM assets WHERE (id >= ?1 AND id < ?2) OR (sha256 >= ?1 AND sha256 < ?2) LIMIT 2")
    try statement.bind(.text(key), .text(key + "\u{10FFFF}"))
    while try statement.step() { ids.append(statement.text(0) ?? "") }
    guard ids.count == 1 else { return nil }
    return try asset(AssetID(rawValue: ids[0]))
  }

  /// How many assets the library holds.
  func assetCount() throws(DatabaseError) -> Int {
    let statement = try prepare("SELECT count(*) FROM assets")
    return try statement.step() ? Int(statement.int(0)) : 0
  }

  /// The other assets carrying the Live Photo content identifier `identifier`, oldest first (at most 8).
  func assets(withLivePhotoID identifier: String, except id: AssetID) throws(DatabaseError) -> [AssetID] {
    // Identifiers are compared apart from letter case (as Photos does); the spellings writers use are upper
    // case (iPhone) or as written, so these three cover them through the index.
    let statement = try prepare(
      "SELECT id FROM assets WHERE live_photo_id IN (?1, ?2, ?3) AND id != ?4 ORDER BY imported_at LIMIT 8")
    try statement.bind(
      .text(identifier), .text(identifier.uppercased()), .text(identifier.lowercased()), .text(id.rawValue))
    var ids: [AssetID] = []
    while try statement.step() { ids.append(AssetID(rawValue: statement.text(0) ?? "")) }
    return ids
  }

  /// Every row's object name and asset id.
  func referencedObjects() throws(DatabaseError) -> [String: AssetID] {
    let select = try prepare("SELECT sha256, id FROM assets")
    var rows: [String: AssetID] = [:]
    while try select.step() { rows[select.text(0) ?? ""] = AssetID(rawValue: select.text(1) ?? "") }
    return rows
  }

  /// Hex names of the objects recorded intents are about (unfinished placements and removals).
  func pendingObjects() throws(DatabaseError) -> Set<String> {
    let select = try prepare("SELECT object FROM intents")
    var names: Set<String> = []
    while try select.step() { names.insert(select.text(0) ?? "") }
    return names
  }

  /// An asset from its row.
  ///
  /// - Throws: a damage error (``DatabaseError/isDamage``) when a value is not one any write stores: a content
  ///   hash that is not 64 hex digits, a type PhotoIntake does not know, an empty id or batch, a negative size
  ///   or position, an unknown damage kind. SQLite's checks cannot see a changed byte inside a value; such a row
  ///   is never answered with a made-up hash, type or damage.
  static func asset(from row: Statement) throws(DatabaseError) -> Asset {
    let id = row.text(0) ?? ""
    guard let digest = SHA256Digest(hex: row.text(1) ?? ""),
      let type = MediaType(rawValue: row.text(3) ?? ""), !id.isEmpty, !(row.text(6) ?? "").isEmpty,
      row.int(2) >= 0, row.int(7) >= 0,
      row.text(8).map({ Asset.Damage(rawValue: $0) != nil }) ?? true
    else {
      throw DatabaseError(
        code: ExtendedCode.damagedValue, message: "the row of asset '\(id)' holds a value no write stores")
    }
    return Asset(
      id: AssetID(rawValue: id),
      sha256: digest,
      size: row.int(2),
      type: type,
      name: row.text(4),
      importedAt: Date(timeIntervalSince1970: row.double(5)),
      batch: BatchID(rawValue: row.text(6) ?? ""),
      position: Int(row.int(7)),
      damage: row.text(8).flatMap(Asset.Damage.init(rawValue:)),
      metadata: row.text(9).flatMap { try? JSONDecoder().decode(MediaMetadata.self, from: Data($0.utf8)) },
      locationStripped: row.int(10) != 0)
  }
}
