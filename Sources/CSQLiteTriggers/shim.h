#include <sqlite3.h>

/// Turns a connection's triggers on or off (`SQLITE_DBCONFIG_ENABLE_TRIGGER`): Swift cannot call
/// the variadic `sqlite3_db_config`. SQLite itself comes from GRDB's `GRDBSQLite`, which links it.
static inline int tally_enable_triggers(sqlite3 *db, int on) {
    int now = -1;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, &now) != SQLITE_OK) return -1;
    return now;
}
