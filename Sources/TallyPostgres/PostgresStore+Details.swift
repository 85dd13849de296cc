import TallyCore

extension PostgresStore: StoreDetails {
    public func engine() throws(TallyError) -> String {
        "PostgreSQL " + (try session.serverVersion())
    }

    public func appliedMigrations() throws(TallyError) -> [String] {
        try read { () throws(TallyError) in
            try session.query("SELECT name FROM tally_migration ORDER BY appliedAt, name").map { row throws(TallyError) in try row.string(0) }
        }
    }
}
