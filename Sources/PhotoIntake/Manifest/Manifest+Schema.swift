#if canImport(CSQLite)
  internal import CSQLite
#elseif canImport(SQLite3)
  internal import SQLite3
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Manifest {
  /// One step of the manifest's schema, tracked in `PRAGMA user_version`.
  ///
  /// To change the schema, append a migration with the next version: never edit or reorder a released one (a
  /// manifest that already ran it would not run it again). The pending ones run in one transaction with their
  /// version bumps, so a crash leaves the manifest at the version it had and the next open runs them again. Prefer
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
    Migration(
      version: 5,
      // The identity journal's bookkeeping (see IdentityJournal.swift). `journal_state.applied` is the sequence of
      // the newest transaction that recorded identity; its records wait in `journal_outbox` until they are known
      // to be in the journal. A manifest whose journal holds a frame past `applied` lost commits.
      // `journal_state.schema` repeats `user_version` inside the tables (``migrate(_:)`` keeps them equal), so
      // that a damaged header (bytes 60–63) is told from a manifest made by a newer PhotoIntake.
      sql: """
        CREATE TABLE journal_state (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          applied INTEGER NOT NULL,
          schema INTEGER NOT NULL
        );
        INSERT INTO journal_state(id, applied, schema) VALUES (1, 0, 5);
        CREATE TABLE journal_outbox (
          sequence INTEGER PRIMARY KEY,
          payload TEXT NOT NULL
        );
        """
    ),
  ]

  /// Refuses a manifest made by a newer PhotoIntake.
  static func refuseNewer(_ version: Int) throws(DatabaseError) {
    if version > currentVersion {
      throw DatabaseError(
        code: SQLITE_ERROR,
        message: "the manifest has schema version \(version), newer than this PhotoIntake knows "
          + "(\(currentVersion)); update PhotoIntake")
    }
  }

  /// The version a manifest has once every migration ran.
  static var currentVersion: Int { migrations.last?.version ?? 0 }

  /// Runs the migrations `database` has not run yet, in one transaction; refuses a manifest made by a
  /// newer PhotoIntake.
  static func migrate(_ database: Database) throws(DatabaseError) {
    let version = try database.userVersion
    try refuseDamagedVersion(version, database)
    try refuseNewer(version)
    let pending = migrations.filter { $0.version > version }
    guard !pending.isEmpty else { return }
    // One transaction for all that are pending: one commit (one fsync of the WAL) for a new manifest instead of
    // one per step, and a crash still leaves the manifest at a version it had.
    try database.transaction { () throws(DatabaseError) in
      for migration in pending {
        try database.execute(migration.sql)
        try database.execute("PRAGMA user_version=\(migration.version)")
        if migration.version >= 5 {
          try database.execute("UPDATE journal_state SET schema = \(migration.version) WHERE id = 1")
        }
      }
    }
  }

  /// What is wrong with a manifest's header (its first 100 bytes) that SQLite itself would not call damage, or
  /// nil.
  ///
  /// Header bytes 18 and 19 (the file format's write and read versions, https://sqlite.org/fileformat.html
  /// §1.3.3) are 1 or 2; anything else makes SQLite open the file read-only or not at all, and a writer would
  /// then blame the storage. (The schema version, bytes 60–63, is ``refuseDamagedVersion(_:_:)``'s.) The bytes
  /// are read through SQLite's own file handle (``Database/open(path:readOnly:headerCheck:)``), never through a
  /// descriptor of ours: closing one would drop this process's locks on the manifest.
  static func headerDamage(_ header: [UInt8]) -> String? {
    // Not an SQLite file at all (a new, empty one reads as zeros): SQLite's to judge.
    guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)),
      ![1, 2].contains(header[18]) || ![1, 2].contains(header[19])
    else { return nil }
    return "its header is damaged (file format versions \(header[18]) and \(header[19]))"
  }

  /// Refuses, as damage, a manifest whose header's schema version (`user_version`, header bytes 60–63) is not
  /// the one its tables record: otherwise a flipped bit there reads as "made by a newer PhotoIntake", or makes
  /// the migrations run again over tables that exist.
  static func refuseDamagedVersion(_ version: Int, _ database: Database) throws(DatabaseError) {
    guard let recorded = try database.recordedSchemaVersion(), recorded != version else { return }
    throw DatabaseError(
      code: SQLITE_CORRUPT,
      message: "its header says schema version \(version), its tables were made by version \(recorded)")
  }
}
