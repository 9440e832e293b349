#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

/// The manifest's schema and its migrations, tracked in `PRAGMA user_version`.
///
/// Migrations only ever append: a released migration is never edited. Each runs in its own transaction, so a
/// crash leaves the manifest at the previous version, and the next open runs the migration again.
enum Schema {
  static let migrations: [(version: Int, sql: String)] = [
    (
      1,
      """
      CREATE TABLE batches (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        created_at REAL NOT NULL
      );
      CREATE TABLE assets (
        id TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        type TEXT NOT NULL,
        name TEXT,
        imported_at REAL NOT NULL,
        sort_date REAL NOT NULL,
        batch_seq INTEGER NOT NULL REFERENCES batches(seq),
        position INTEGER NOT NULL
      );
      CREATE INDEX assets_by_date ON assets(sort_date, id);
      CREATE TABLE batch_items (
        batch_seq INTEGER NOT NULL REFERENCES batches(seq),
        position INTEGER NOT NULL,
        asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
        PRIMARY KEY (batch_seq, position)
      ) WITHOUT ROWID;
      CREATE INDEX batch_items_by_asset ON batch_items(asset_id);
      CREATE TABLE damage (
        asset_id TEXT PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        detected_at REAL NOT NULL
      );
      """
    ),
    (
      2,
      // The facts read by PhotoMetadata, as JSON (MediaMetadata's Codable form) so that new fields need no
      // migration; the Live Photo identifier as a column, indexed to pair stills with their movies. Rows from
      // version 1 keep NULL metadata.
      """
      ALTER TABLE assets ADD COLUMN metadata TEXT;
      ALTER TABLE assets ADD COLUMN live_photo_id TEXT;
      ALTER TABLE assets ADD COLUMN location_stripped INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX assets_by_live_photo ON assets(live_photo_id) WHERE live_photo_id IS NOT NULL;
      """
    ),
    (
      3,
      // What writers record so that recovery undoes only their own unfinished work (DESIGN.md invariant 2).
      // A writer's row is committed before it creates any staging file (named `<token>-…`); an intent is
      // committed before an object is placed or removed, with the inode it is about, and deleted in the same
      // transaction as the row that finishes the work.
      """
      CREATE TABLE writers (
        token TEXT PRIMARY KEY,
        started_at REAL NOT NULL,
        process INTEGER NOT NULL
      );
      CREATE TABLE intents (
        id INTEGER PRIMARY KEY,
        token TEXT NOT NULL,
        kind TEXT NOT NULL,
        object TEXT NOT NULL,
        device INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        created_at REAL NOT NULL
      );
      """
    ),
    // The sync ledger (issue 28): tables of its own, written in the same transactions as the rows they describe.
    (4, SyncLedger.schema),
  ]

  static var currentVersion: Int { migrations.last?.version ?? 0 }

  static func migrate(_ database: Database) throws(DatabaseError) {
    let version = try database.userVersion
    if version > currentVersion {
      throw DatabaseError(
        code: SQLITE_ERROR,
        message: "the manifest has schema version \(version), newer than this PhotoIntake knows "
          + "(\(currentVersion)); update PhotoIntake")
    }
    for migration in migrations where migration.version > version {
      try database.transaction { () throws(DatabaseError) in
        try database.execute(migration.sql)
        try database.execute("PRAGMA user_version=\(migration.version)")
      }
    }
  }
}
