import GRDB

extension Schema {
    /// `v21-expense-lines`: split expenses and refunds. `detail` holds Core's ``ExpenseDetail``
    /// text of an expense's lines or refund, empty for a plain expense, so a row stays whole where
    /// rows move (undo and redo move them beside change sets, `removedExpense`, which mirrors
    /// `expense`'s columns). Each line counts in its own budget through `ExpenseCaches`, which
    /// expands a row into its lines; the caches are unchanged for every existing expense.
    /// `expense_detail`, a partial index of the split and refunded by day: a budget's list finds
    /// the splits with a line in it without visiting the plain expenses.
    static func v21ExpenseLines(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE expense ADD COLUMN detail TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 100000);
            ALTER TABLE removedExpense ADD COLUMN detail TEXT NOT NULL DEFAULT '';
            CREATE INDEX expense_detail ON expense(date) WHERE detail <> '';
            PRAGMA user_version = 21;
            """)
    }
}
