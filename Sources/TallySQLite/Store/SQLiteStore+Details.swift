import GRDB
import TallyCore

extension SQLiteStore: StoreDetails {
    public func engine() throws(TallyError) -> String {
        try read { db in "SQLite " + (try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "") }
    }

    public func appliedMigrations() throws(TallyError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }
}
