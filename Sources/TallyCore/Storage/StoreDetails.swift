/// What `db info` says about a store beyond the ledger: its engine, its schema and its
/// server. A store that has nothing to say (the in-memory one) need not conform.
public protocol StoreDetails {
    /// The engine, as people name it: `SQLite 3.46.1`, `PostgreSQL 15.18`.
    func engine() throws(TallyError) -> String
    /// The names of the schema migrations applied, oldest first.
    func appliedMigrations() throws(TallyError) -> [String]
}
