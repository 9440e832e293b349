import Foundation
import PhotoMetadata

extension Library {
  /// The order of ``list(order:limit:after:)``.
  public enum ListOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// Batches in import order, each in the user's order. An asset in several batches is listed in each.
    case batch
    /// By capture date when known, else import date, oldest first; each asset once.
    case date
  }

  /// Where the next page starts; opaque to callers.
  public struct ListCursor: Sendable, Hashable, Codable {
    var order: ListOrder
    var primary: Double
    var secondary: String
  }

  /// One page of assets and the cursor of the next page (nil on the last page).
  public struct Page: Sendable {
    /// The assets of this page, in the order asked for.
    public var assets: [Asset]
    /// Pass to ``Library/list(order:limit:after:)`` for the next page; nil on the last page.
    public var next: ListCursor?
  }

  static let assetColumns = """
    a.id, a.sha256, a.size, a.type, a.name, a.imported_at, b.id, bi.position, d.kind, a.metadata,
    a.location_stripped
    """
  /// The column after ``assetColumns`` that a list query adds for its cursor.
  static let cursorColumn: Int32 = 11

  /// Lists assets a page at a time. Each page costs O(log n + limit): the cursor is a key, not an offset.
  static func list(in database: Database, order: ListOrder, limit: Int, after cursor: ListCursor?)
    throws(Error) -> Page
  {
    let limit = max(1, limit)
    do {
      let statement: Statement
      switch order {
      case .batch:
        statement = try database.prepare(
          """
          SELECT \(Self.assetColumns), bi.batch_seq
          FROM batch_items bi JOIN assets a ON a.id = bi.asset_id JOIN batches b ON b.seq = bi.batch_seq
          LEFT JOIN damage d ON d.asset_id = a.id
          WHERE (bi.batch_seq, bi.position) > (?1, ?2)
          ORDER BY bi.batch_seq, bi.position LIMIT ?3
          """)
        try statement.bind(
          .double(cursor?.primary ?? -1), .int(Int64(cursor?.secondary ?? "") ?? -1),
          .int(Int64(limit)))
      case .date:
        statement = try database.prepare(
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
      var last: ListCursor?
      while try statement.step() {
        let asset = Self.asset(from: statement)
        assets.append(asset)
        switch order {
        case .batch:
          last = ListCursor(
            order: order, primary: statement.double(Self.cursorColumn), secondary: String(asset.position))
        case .date:
          last = ListCursor(
            order: order, primary: statement.double(Self.cursorColumn), secondary: asset.id.rawValue)
        }
      }
      return Page(assets: assets, next: assets.count == limit ? last : nil)
    } catch {
      throw Error(error)
    }
  }

  /// Every asset in the given order (convenience over ``list(order:limit:after:)``).
  static func all(in database: Database, order: ListOrder) throws(Error) -> [Asset] {
    var result: [Asset] = []
    var cursor: ListCursor?
    repeat {
      let page = try list(in: database, order: order, limit: 500, after: cursor)
      result += page.assets
      cursor = page.next
    } while cursor != nil
    return result
  }

  /// The asset with this identifier, with its first batch and position; nil if there is none.
  static func asset(in database: Database, _ id: AssetID) throws(Error) -> Asset? {
    do {
      let statement = try database.prepare(
        """
        SELECT \(Self.assetColumns)
        FROM assets a JOIN batches b ON b.seq = a.batch_seq
        JOIN batch_items bi ON bi.batch_seq = a.batch_seq AND bi.position = a.position
        LEFT JOIN damage d ON d.asset_id = a.id
        WHERE a.id = ?1
        """)
      try statement.bind(.text(id.rawValue))
      return try statement.step() ? Self.asset(from: statement) : nil
    } catch {
      throw Error(error)
    }
  }

  /// The asset whose bytes hash to `digest`, if any.
  static func asset(in database: Database, withSHA256 digest: SHA256Digest) throws(Error) -> Asset? {
    let id: String?
    do {
      let statement = try database.prepare("SELECT id FROM assets WHERE sha256 = ?1")
      try statement.bind(.text(digest.hex))
      id = try statement.step() ? statement.text(0) : nil
    } catch {
      throw Error(error)
    }
    guard let id else { return nil }
    return try asset(in: database, AssetID(rawValue: id))
  }

  /// Resolves a full identifier, or a unique prefix of an identifier or of a SHA-256 (at least 4 characters),
  /// as people type them on a command line.
  static func resolve(in database: Database, _ text: String) throws(Error) -> Asset? {
    let key = text.lowercased()
    if let asset = try asset(in: database, AssetID(rawValue: key)) { return asset }
    guard key.count >= 4, key.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
    var ids: [String] = []
    do {
      let statement = try database.prepare(
        "SELECT id FROM assets WHERE (id >= ?1 AND id < ?2) OR (sha256 >= ?1 AND sha256 < ?2) LIMIT 2")
      try statement.bind(.text(key), .text(key + "\u{10FFFF}"))
      while try statement.step() { ids.append(statement.text(0) ?? "") }
    } catch {
      throw Error(error)
    }
    guard ids.count == 1 else { return nil }
    return try asset(in: database, AssetID(rawValue: ids[0]))
  }

  /// How many assets the library holds.
  static func count(in database: Database) throws(Error) -> Int {
    do {
      let statement = try database.prepare("SELECT count(*) FROM assets")
      return try statement.step() ? Int(statement.int(0)) : 0
    } catch {
      throw Error(error)
    }
  }

  static func asset(from row: Statement) -> Asset {
    Asset(
      id: AssetID(rawValue: row.text(0) ?? ""),
      sha256: SHA256Digest(hex: row.text(1) ?? "") ?? SHA256Digest.of([]),
      size: row.int(2),
      type: MediaType(rawValue: row.text(3) ?? "") ?? .jpeg,
      name: row.text(4),
      importedAt: Date(timeIntervalSince1970: row.double(5)),
      batch: BatchID(rawValue: row.text(6) ?? ""),
      position: Int(row.int(7)),
      damage: row.text(8).flatMap(Asset.Damage.init(rawValue:)),
      metadata: row.text(9).flatMap { try? JSONDecoder().decode(MediaMetadata.self, from: Data($0.utf8)) },
      locationStripped: row.int(10) != 0)
  }
}

extension Library {
  // The public queries run on the reader connection (``DatabaseReader``): they never wait for a commit of the
  // writer, nor for the library actor while it is busy. The `fetch…` versions are the actor's own, on the
  // writer's connection, for reads that must see its uncommitted work or run inside its operations.

  /// Lists assets a page at a time. Each page costs O(log n + limit): the cursor is a key, not an offset.
  public nonisolated func list(order: ListOrder = .batch, limit: Int = 100, after cursor: ListCursor? = nil)
    async throws(Error) -> Page
  {
    try await read { database throws(Error) in
      try Self.list(in: database, order: order, limit: limit, after: cursor)
    }
  }

  /// Every asset in the given order (convenience over ``list(order:limit:after:)``).
  public nonisolated func all(order: ListOrder = .batch) async throws(Error) -> [Asset] {
    try await read { database throws(Error) in try Self.all(in: database, order: order) }
  }

  /// The asset with this identifier, with its first batch and position; nil if there is none.
  public nonisolated func asset(_ id: AssetID) async throws(Error) -> Asset? {
    try await read { database throws(Error) in try Self.asset(in: database, id) }
  }

  /// The asset whose bytes hash to `digest`, if any.
  public nonisolated func asset(withSHA256 digest: SHA256Digest) async throws(Error) -> Asset? {
    try await read { database throws(Error) in try Self.asset(in: database, withSHA256: digest) }
  }

  /// Resolves a full identifier, or a unique prefix of an identifier or of a SHA-256 (at least 4 characters),
  /// as people type them on a command line.
  public nonisolated func resolve(_ text: String) async throws(Error) -> Asset? {
    try await read { database throws(Error) in try Self.resolve(in: database, text) }
  }

  /// How many assets the library holds.
  public nonisolated func count() async throws(Error) -> Int {
    try await read { database throws(Error) in try Self.count(in: database) }
  }

  func fetchAsset(_ id: AssetID) throws(Error) -> Asset? { try Self.asset(in: database, id) }
  func fetchAsset(withSHA256 digest: SHA256Digest) throws(Error) -> Asset? {
    try Self.asset(in: database, withSHA256: digest)
  }
  func fetchAll(order: ListOrder) throws(Error) -> [Asset] { try Self.all(in: database, order: order) }
  func fetchCount() throws(Error) -> Int { try Self.count(in: database) }
}
