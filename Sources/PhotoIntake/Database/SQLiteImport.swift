// The SQLite C API: Debian's libsqlite3 through CSQLite (opened at the first connection) on Linux, the SDK's
// SQLite3 module on Apple platforms. Only this file and the two below differ between them.
#if canImport(CSQLite)
  internal import CSQLite

  /// Binds text that SQLite copies at once (SQLITE_TRANSIENT), through the C shim because Swift cannot spell
  /// the `(sqlite3_destructor_type)-1` constant.
  func sqliteBindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) -> Int32 {
    var text = text
    return text.withUTF8 { utf8 in
      utf8.withMemoryRebound(to: CChar.self) {
        photointake_sqlite3_bind_text_transient(statement, index, $0.baseAddress, Int32($0.count))
      }
    }
  }

  /// Why `sqlite3_open_v2` gave no connection: libsqlite3 could not be loaded (CSQLite opens it at the first
  /// connection), or SQLite could not allocate one.
  func sqliteOpenFailure() -> String {
    photointake_sqlite_load_failure().map { String(cString: $0) } ?? "out of memory"
  }
#elseif canImport(SQLite3)
  internal import SQLite3

  private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  func sqliteBindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) -> Int32 {
    var text = text
    return text.withUTF8 { utf8 in
      utf8.withMemoryRebound(to: CChar.self) {
        sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT)
      }
    }
  }

  /// Why `sqlite3_open_v2` gave no connection: SQLite could not allocate one.
  func sqliteOpenFailure() -> String { "out of memory" }
#endif
