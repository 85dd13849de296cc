import GRDB

extension Schema {
    /// `v13-cache-writer` drops the triggers that kept `budgetMonth` (`v3`, `v4`) and `expenseDay`
    /// (`v12`): every write of an expense now tells `ExpenseCaches`, the caches' one writer, what
    /// it added and removed, as the bulk writers and `tally add` already did. Each cached figure
    /// stays exactly as it was, so nothing is rebuilt.
    static func v13CacheWriter(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER IF EXISTS expense_insert_budgetMonth;
            DROP TRIGGER IF EXISTS expense_delete_budgetMonth;
            DROP TRIGGER IF EXISTS expense_update_budgetMonth;
            DROP TRIGGER IF EXISTS expense_insert_expenseDay;
            DROP TRIGGER IF EXISTS expense_delete_expenseDay;
            DROP TRIGGER IF EXISTS expense_update_expenseDay;
            PRAGMA user_version = 13;
            """)
    }
}
