// Opens libsqlite3 at run time and forwards the SQLite functions PhotoIntake calls to it.
//
// The definitions below have the names and prototypes of <sqlite3.h>, so the Swift code calls the SQLite API as it
// does on Apple platforms. They are hidden (the visibility pragma around the header): they satisfy this package's
// calls inside the binary that links it, and are never exported to interpose on another library's SQLite.
#ifdef __linux__
#define _GNU_SOURCE  // secure_getenv
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#pragma GCC visibility push(hidden)
#include "CSQLite.h"
#pragma GCC visibility pop

/// Every function looked up, X(name) each.
#define PHOTOINTAKE_SQLITE_FUNCTIONS(X)                                                                         \
    X(sqlite3_open_v2)                                                                                          \
    X(sqlite3_close_v2)                                                                                         \
    X(sqlite3_extended_result_codes)                                                                            \
    X(sqlite3_busy_timeout)                                                                                     \
    X(sqlite3_db_config)                                                                                        \
    X(sqlite3_file_control)                                                                                     \
    X(sqlite3_exec)                                                                                             \
    X(sqlite3_free)                                                                                             \
    X(sqlite3_errmsg)                                                                                           \
    X(sqlite3_extended_errcode)                                                                                 \
    X(sqlite3_system_errno)                                                                                     \
    X(sqlite3_last_insert_rowid)                                                                                \
    X(sqlite3_prepare_v2)                                                                                       \
    X(sqlite3_finalize)                                                                                         \
    X(sqlite3_reset)                                                                                            \
    X(sqlite3_clear_bindings)                                                                                   \
    X(sqlite3_bind_null)                                                                                        \
    X(sqlite3_bind_int64)                                                                                       \
    X(sqlite3_bind_double)                                                                                      \
    X(sqlite3_bind_text)                                                                                        \
    X(sqlite3_bind_blob)                                                                                        \
    X(sqlite3_step)                                                                                             \
    X(sqlite3_column_type)                                                                                      \
    X(sqlite3_column_int64)                                                                                     \
    X(sqlite3_column_double)                                                                                    \
    X(sqlite3_column_text)

#define PHOTOINTAKE_FIELD(name) __typeof__(name) *name;
static struct {
    PHOTOINTAKE_SQLITE_FUNCTIONS(PHOTOINTAKE_FIELD)
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[400];

static void load(void) {
    // The versioned name is the one the runtime package (libsqlite3-0) installs; the unversioned one exists only
    // with the -dev package. RTLD_LOCAL: its symbols stay out of the global scope, so nothing else binds to them.
    static const char *const system_names[] = {"libsqlite3.so.0", "libsqlite3.so", NULL};
    const char *const *names = system_names;
#ifdef PHOTOINTAKE_TEST_HOOKS
    // Only test builds (the TestHooks trait) let the environment name the file, so that the tests can make it
    // missing; an app or a release `intake` loads the system's own.
    const char *chosen = secure_getenv("PHOTOINTAKE_LIBSQLITE3");
    const char *chosen_names[] = {chosen, NULL};
    if (chosen != NULL && chosen[0] != '\0') names = chosen_names;
#endif
    void *handle = NULL;
    const char *opened = NULL;
    for (size_t index = 0; names[index] != NULL && handle == NULL; index++) {
        handle = dlopen(names[index], RTLD_LAZY | RTLD_LOCAL);
        if (handle != NULL) {
            opened = names[index];
        } else if (index == 0) {
            const char *reason = dlerror();
            snprintf(failure, sizeof failure, "libsqlite3 could not be loaded: %s", reason ? reason : names[0]);
        }
    }
    if (handle == NULL) return;
    const char *missing = NULL;
#define PHOTOINTAKE_LOOK_UP(name)                                                                               \
    if (missing == NULL && (api.name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) missing = #name;
    PHOTOINTAKE_SQLITE_FUNCTIONS(PHOTOINTAKE_LOOK_UP)
#undef PHOTOINTAKE_LOOK_UP
    if (missing != NULL) {
        snprintf(failure, sizeof failure, "%s has no function %s", opened, missing);
        return;
    }
    failure[0] = '\0';
    loaded = 1;
}

/// Loads the library once; true when every function was found.
static int ready(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *photointake_sqlite_load_failure(void) {
    return failure[0] != '\0' ? failure : NULL;
}

// Opening is the first call of every connection: without the library it fails as SQLite fails to open, with no
// connection, and photointake_sqlite_load_failure() says why. Every other function needs a connection or a
// statement, so it is only reached after a successful open; without the library it answers as SQLite does for a
// misused handle.

int sqlite3_open_v2(const char *filename, sqlite3 **database, int flags, const char *vfs) {
    if (!ready()) {
        if (database != NULL) *database = NULL;
        return SQLITE_CANTOPEN;
    }
    return api.sqlite3_open_v2(filename, database, flags, vfs);
}

int sqlite3_close_v2(sqlite3 *database) { return ready() ? api.sqlite3_close_v2(database) : SQLITE_MISUSE; }

int sqlite3_extended_result_codes(sqlite3 *database, int on) {
    return ready() ? api.sqlite3_extended_result_codes(database, on) : SQLITE_MISUSE;
}

int sqlite3_busy_timeout(sqlite3 *database, int milliseconds) {
    return ready() ? api.sqlite3_busy_timeout(database, milliseconds) : SQLITE_MISUSE;
}

int sqlite3_file_control(sqlite3 *database, const char *name, int operation, void *argument) {
    return ready() ? api.sqlite3_file_control(database, name, operation, argument) : SQLITE_MISUSE;
}

int sqlite3_exec(sqlite3 *database, const char *sql, int (*callback)(void *, int, char **, char **), void *context,
                 char **message) {
    if (!ready()) {
        if (message != NULL) *message = NULL;
        return SQLITE_MISUSE;
    }
    return api.sqlite3_exec(database, sql, callback, context, message);
}

void sqlite3_free(void *memory) {
    if (memory != NULL && ready()) api.sqlite3_free(memory);
}

const char *sqlite3_errmsg(sqlite3 *database) {
    if (!ready()) return failure[0] != '\0' ? failure : "libsqlite3 is not loaded";
    return api.sqlite3_errmsg(database);
}

int sqlite3_extended_errcode(sqlite3 *database) {
    return ready() ? api.sqlite3_extended_errcode(database) : SQLITE_CANTOPEN;
}

int sqlite3_system_errno(sqlite3 *database) { return ready() ? api.sqlite3_system_errno(database) : 0; }

sqlite3_int64 sqlite3_last_insert_rowid(sqlite3 *database) {
    return ready() ? api.sqlite3_last_insert_rowid(database) : 0;
}

int sqlite3_prepare_v2(sqlite3 *database, const char *sql, int length, sqlite3_stmt **statement, const char **tail) {
    if (!ready()) {
        if (statement != NULL) *statement = NULL;
        return SQLITE_MISUSE;
    }
    return api.sqlite3_prepare_v2(database, sql, length, statement, tail);
}

int sqlite3_finalize(sqlite3_stmt *statement) { return ready() ? api.sqlite3_finalize(statement) : SQLITE_OK; }

int sqlite3_reset(sqlite3_stmt *statement) { return ready() ? api.sqlite3_reset(statement) : SQLITE_MISUSE; }

int sqlite3_clear_bindings(sqlite3_stmt *statement) {
    return ready() ? api.sqlite3_clear_bindings(statement) : SQLITE_MISUSE;
}

int sqlite3_bind_null(sqlite3_stmt *statement, int index) {
    return ready() ? api.sqlite3_bind_null(statement, index) : SQLITE_MISUSE;
}

int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return ready() ? api.sqlite3_bind_int64(statement, index, value) : SQLITE_MISUSE;
}

int sqlite3_bind_double(sqlite3_stmt *statement, int index, double value) {
    return ready() ? api.sqlite3_bind_double(statement, index, value) : SQLITE_MISUSE;
}

int sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length, void (*destructor)(void *)) {
    return ready() ? api.sqlite3_bind_text(statement, index, text, length, destructor) : SQLITE_MISUSE;
}

int sqlite3_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length, void (*destructor)(void *)) {
    return ready() ? api.sqlite3_bind_blob(statement, index, bytes, length, destructor) : SQLITE_MISUSE;
}

int sqlite3_step(sqlite3_stmt *statement) { return ready() ? api.sqlite3_step(statement) : SQLITE_MISUSE; }

int sqlite3_column_type(sqlite3_stmt *statement, int column) {
    return ready() ? api.sqlite3_column_type(statement, column) : SQLITE_NULL;
}

sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return ready() ? api.sqlite3_column_int64(statement, column) : 0;
}

double sqlite3_column_double(sqlite3_stmt *statement, int column) {
    return ready() ? api.sqlite3_column_double(statement, column) : 0;
}

const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return ready() ? api.sqlite3_column_text(statement, column) : NULL;
}

int photointake_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

int photointake_sqlite3_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

int photointake_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
    return ready() ? api.sqlite3_db_config(db, op, value, (int *)0) : SQLITE_MISUSE;
}
#endif
