#ifndef PHOTOINTAKE_CSQLITE_H
#define PHOTOINTAKE_CSQLITE_H
// The SQLite C API as PhotoIntake calls it on Linux: the declarations of Debian's <sqlite3.h>, with the functions
// defined in sqlite_loader.c, which opens libsqlite3.so.0 at the first sqlite3_open_v2 and forwards each call to
// it. Nothing links libsqlite3, so a process that never opens a library (`intake audit`, `intake metadata`,
// `intake --version`) does not map it and resolve its symbols at start.
#ifdef __linux__
#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes, so Swift's temporary buffer may go. Swift
/// cannot spell SQLITE_TRANSIENT, a cast of -1 to a function pointer.
int photointake_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length);

/// sqlite3_bind_blob with SQLITE_TRANSIENT, for the same reason.
int photointake_sqlite3_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length);

/// sqlite3_db_config is variadic, which Swift cannot call; this is its integer-flag form (e.g.
/// SQLITE_DBCONFIG_DEFENSIVE).
int photointake_sqlite3_db_config_int(sqlite3 *db, int op, int value);

/// Why libsqlite3 could not be loaded (no file, or a file without a function this build calls), or NULL when it
/// was loaded or nothing has tried yet. sqlite3_open_v2 answers SQLITE_CANTOPEN without a connection then.
const char *photointake_sqlite_load_failure(void);
#endif
#endif
