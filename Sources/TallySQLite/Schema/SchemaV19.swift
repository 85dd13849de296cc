import GRDB

extension Schema {
    /// `v19-why-over-groups`: `expenseGroup`, each period's spending per budget, name key and tag
    /// set, with its count and the name's smallest spelling, filled from every expense. Why over
    /// compares a period's groups with the three periods before; it read every expense of those
    /// four periods, and now reads their groups. `ExpenseCaches` is its one writer.
    ///
    /// Only a cache is added: every figure stays.
    static func v19WhyOverGroups(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE expenseGroup (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                month INTEGER NOT NULL CHECK (month BETWEEN 101 AND 999912),
                nameKey TEXT NOT NULL,
                tagSetId INTEGER NOT NULL,
                name TEXT NOT NULL,
                spentCents ANY NOT NULL,
                expenseCount INTEGER NOT NULL,
                PRIMARY KEY (budgetId, month, nameKey, tagSetId)
            ) STRICT, WITHOUT ROWID;
            PRAGMA user_version = 19;
            """)
        try ExpenseCaches.rebuildGroups(calendar: try SQLiteStore.calendar(db), withLines: false, db)
    }
}
