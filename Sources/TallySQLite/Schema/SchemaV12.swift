import GRDB

// The month report's cache, `expenseDay` (`v12-expense-days`), and its trigger statements.
extension Schema {
    /// `v12-expense-days` adds `expenseDay`, the month report's cache: one row per day, budget,
    /// tag set (0 for none) and who spent it, with the expenses' sum and count and a bound of
    /// their largest total (exact but after a removal or an edit of the largest, which leaves it).
    /// The report read the month's entries of the covering index three times (its figures, who
    /// spent it, the ten largest), where a month here is a few hundred rows. The largest total
    /// bounds the ten largest expenses to the few groups that can hold them (`SQLiteStore.largestExpenses`).
    ///
    /// Each row is a cache of `Spending`'s rules over its expenses (sum and count as
    /// `MonthSummary` adds them, `Spending.byPerson`): the contract suite and
    /// `SQLiteStore.cacheMismatches()` prove them equal, and that the bound holds. Triggers keep
    /// it on every write; bulk writes drop the insert or delete trigger inside their transaction
    /// and add or take away their own sums (`DayTotals`), as they do for `budgetMonth`. A group's
    /// row goes when its last expense does. `spentCents` is `ANY` for the same reason as
    /// `budgetMonth`'s: an overflow becomes a REAL, and the readers then sum the expenses.
    ///
    /// Every command parses the triggers with the schema, so they are written short: removals
    /// leave the largest total as a bound instead of looking up the next largest, a longer
    /// trigger for every command to parse. `v13-cache-writer` dropped them all: `ExpenseCaches`
    /// writes both caches.
    ///
    /// The rows are summed in Swift, as `v3`'s were: one overflowing SUM would fail the migration.
    static func v12ExpenseDays(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE expenseDay (
                date INTEGER NOT NULL,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                tagSetId INTEGER NOT NULL,
                spentBy TEXT NOT NULL,
                spentCents ANY NOT NULL,
                expenseCount INTEGER NOT NULL,
                largestCents ANY NOT NULL,
                PRIMARY KEY (date, budgetId, tagSetId, spentBy)
            ) STRICT, WITHOUT ROWID;
            CREATE TRIGGER expense_insert_expenseDay AFTER INSERT ON expense BEGIN
                \(v12Addition("NEW"))
            END;
            CREATE TRIGGER expense_delete_expenseDay AFTER DELETE ON expense BEGIN
                \(v12Removal("OLD"))
            END;
            CREATE TRIGGER expense_update_expenseDay
            AFTER UPDATE OF budgetId, amountCents, quantity, date, tagSetId, spentBy ON expense BEGIN
                \(v12Removal("OLD"))
                \(v12Addition("NEW"))
            END;
            PRAGMA user_version = 12;
            """)
        try ExpenseCaches.rebuildDays(db)
    }

    /// `v12`'s trigger statement that adds expense `row` (`NEW`) to its group, in the shortest
    /// form (no column list, no conflict target).
    private static func v12Addition(_ row: String) -> String {
        """
        INSERT INTO expenseDay VALUES (\(row).date, \(row).budgetId, ifnull(\(row).tagSetId, 0), \(row).spentBy,
            \(row).amountCents * \(row).quantity, 1, \(row).amountCents * \(row).quantity)
            ON CONFLICT DO UPDATE SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1,
            largestCents = max(largestCents, excluded.largestCents);
        """
    }

    /// `v12`'s trigger statements that take expense `row` (`OLD`) from its group, and remove the
    /// day's emptied groups of its budget. The largest total stays: a bound that the readers
    /// check, which spares every command parsing a lookup of the next largest.
    private static func v12Removal(_ row: String) -> String {
        """
        UPDATE expenseDay SET spentCents = spentCents - \(row).amountCents * \(row).quantity, expenseCount = expenseCount - 1
            WHERE date = \(row).date AND budgetId = \(row).budgetId AND tagSetId = ifnull(\(row).tagSetId, 0) AND spentBy = \(row).spentBy;
        DELETE FROM expenseDay WHERE date = \(row).date AND budgetId = \(row).budgetId AND expenseCount = 0;
        """
    }
}
