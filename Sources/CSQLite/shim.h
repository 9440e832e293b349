#ifndef PHOTOINTAKE_CSQLITE_SHIM_H
#define PHOTOINTAKE_CSQLITE_SHIM_H
#include <sqlite3.h>

// Swift cannot call C variadic functions, and SQLITE_TRANSIENT is a cast of -1 to a function pointer that
// Swift cannot spell. These non-variadic wrappers are the only way our Swift code reaches those parts of the API.

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes, so Swift's temporary buffer may go.
static inline int photointake_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

/// sqlite3_bind_blob with SQLITE_TRANSIENT, for the same reason.
static inline int photointake_sqlite3_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

/// sqlite3_db_config is variadic; this wraps the integer-flag form (e.g. SQLITE_DBCONFIG_DEFENSIVE).
static inline int photointake_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
    return sqlite3_db_config(db, op, value, (int *)0);
}
#endif
