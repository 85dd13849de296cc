import GRDB

extension Schema {
    /// `v25-report-bounds`: what the month report reads, made to bound it on ledgers with split
    /// receipts, refunds and expenses in other currencies.
    /// - `expenseDay.largestCents` becomes the largest sort key (`amountCents × quantity`, what a
    ///   list by total sorts by) among the expenses with a portion in the group: a split's whole
    ///   total in each of its lines' groups, a refund's own total in its group, a plain expense's as
    ///   before. It bounded portions (a line's amount, a refund below zero), which could not bound
    ///   the largest expenses of days holding a split or refund, so those reads sorted every
    ///   expense of the period. Recomputed here from every row (`ExpenseCaches.rebuildDays`).
    /// - `expense_detail`, the partial index of the split and refunded, keeps their total after
    ///   the day, so the largest-expenses read seeks each day's splits from the bound on instead of
    ///   visiting every one (`SQLiteStore.largestExpenseIDs`).
    /// - `expenseDay_budget`: one budget's groups of a period with the largest of each, without
    ///   the other budgets' (why over asks for each flagged budget's largest in turn).
    /// - `expense_foreign`, the partial index of the expenses in other currencies, covers the
    ///   columns spending by currency sums (`SQLiteStore.spendingByCurrency`), so the report no
    ///   longer reads those rows from the table.
    /// - `accountDay` is made anew from every entry (`AccountDays.rebuild`): a split paid from an
    ///   account counted one entry per line, which left a day whose split was removed with
    ///   entries and nothing else.
    ///
    /// Sums, and every count but those of `accountDay`, are unchanged: every figure stays.
    static func v25ReportBounds(_ db: Database) throws {
        try db.execute(sql: """
            DROP INDEX expense_detail;
            CREATE INDEX expense_detail ON expense(date, amountCents * quantity) WHERE detail <> '';
            CREATE INDEX expenseDay_budget ON expenseDay(budgetId, date, largestCents);
            DROP INDEX expense_foreign;
            CREATE INDEX expense_foreign ON expense(date, originalCurrency, originalMinor, amountCents, quantity) WHERE originalCurrency IS NOT NULL;
            PRAGMA user_version = 25;
            """)
        try ExpenseCaches.rebuildDays(withLines: true, db)
        try AccountDays.rebuild(db)
    }
}
