#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif

extension Manifest {
  /// One step of the manifest's schema, tracked in `PRAGMA user_version`.
  ///
  /// To change the schema, append a migration with the next version: never edit or reorder a released one (a
  /// manifest that already ran it would not run it again). Each runs in its own transaction with the version
  /// bump, so a crash leaves the manifest at the previous version and the next open runs it again. Prefer
  /// additions (new tables, new nullable columns, new indexes): an older PhotoIntake refuses a newer manifest
  /// rather than misread it.
  struct Migration: Sendable {
    /// The `user_version` the manifest has after this step.
    var version: Int
    /// The SQL of the step (several statements).
    var sql: String
  }

  /// Every step of the schema, in order. Append here.
  static let migrations: [Migration] = [
    Migration(
      version: 1,
      sql: """
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
    Migration(
      version: 2,
      // The facts read by PhotoMetadata, as JSON (MediaMetadata's Codable form) so that new fields need no
      // migration; the Live Photo identifier as a column, indexed to pair stills with their movies. Rows from
      // version 1 keep NULL metadata.
      sql: """
        ALTER TABLE assets ADD COLUMN metadata TEXT;
        ALTER TABLE assets ADD COLUMN live_photo_id TEXT;
        ALTER TABLE assets ADD COLUMN location_stripped INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX assets_by_live_photo ON assets(live_photo_id) WHERE live_photo_id IS NOT NULL;
        """
    ),
    Migration(
      version: 3,
      // What writers record so that recovery undoes only their own unfinished work (DESIGN.md invariant 2).
      // A writer's row is committed before it creates any staging file (named `<token>-…`); an intent is
      // committed before an object is placed or removed, with the inode it is about, and deleted in the same
      // transaction as the row that finishes the work.
      sql: """
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
    Migration(
      version: 4,
      // The sync ledger (issue 28; see `SyncLedger`): tables of its own beside the library's rows, written in the
      // same transactions as the rows they describe. Per iCloud account (ledgers never mix): each asset's and
      // batch's sync state and its record's server system fields, each batch's membership entries, the engine's
      // serialized state. Opaque bytes (system fields, the engine's state) are stored as base64 text. Only new
      // tables: a manifest of version 3 gains them empty, and syncing adopts its rows when it is turned on.
      sql: """
        CREATE TABLE sync_settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE sync_accounts (
          account TEXT PRIMARY KEY,
          engine_state TEXT,
          zone TEXT NOT NULL DEFAULT 'unknown',
          census INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE TABLE sync_assets (
          account TEXT NOT NULL,
          sha256 TEXT NOT NULL,
          state TEXT NOT NULL,
          system_fields TEXT,
          home_batch TEXT,
          home_key TEXT,
          record TEXT,
          census INTEGER NOT NULL DEFAULT 0,
          added_stamp INTEGER NOT NULL DEFAULT 0,
          added_device TEXT NOT NULL DEFAULT '',
          removed_stamp INTEGER NOT NULL DEFAULT 0,
          removed_device TEXT NOT NULL DEFAULT '',
          PRIMARY KEY (account, sha256)
        ) WITHOUT ROWID;
        CREATE INDEX sync_assets_by_state ON sync_assets(account, state);
        CREATE TABLE sync_batches (
          account TEXT NOT NULL,
          batch_id TEXT NOT NULL,
          state TEXT NOT NULL,
          system_fields TEXT,
          revision INTEGER NOT NULL DEFAULT 0,
          created_at REAL NOT NULL,
          PRIMARY KEY (account, batch_id)
        ) WITHOUT ROWID;
        CREATE INDEX sync_batches_by_state ON sync_batches(account, state);
        CREATE TABLE sync_members (
          account TEXT NOT NULL,
          batch_id TEXT NOT NULL,
          sha256 TEXT NOT NULL,
          key TEXT NOT NULL,
          stamp INTEGER NOT NULL,
          device TEXT NOT NULL,
          removed INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (account, batch_id, sha256)
        ) WITHOUT ROWID;
        CREATE INDEX sync_members_by_asset ON sync_members(account, sha256);
        """
    ),
  ]

  /// The version a manifest has once every migration ran.
  static var currentVersion: Int { migrations.last?.version ?? 0 }

  /// Runs the migrations `database` has not run yet, each in its own transaction; refuses a manifest made by a
  /// newer PhotoIntake.
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
