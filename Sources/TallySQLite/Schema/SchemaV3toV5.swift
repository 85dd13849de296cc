import GRDB

// Budget figures: the `budgetMonth` cache and the file's header marks (`v3`), budgets with
// periods, rollover, limit changes and the ledger's settings (`v4`), and its currency (`v5`).
extension Schema {
    /// Each budget's spending per calendar month, kept by triggers, so that `tally add` can say
    /// what is left of the budget without summing the month's expenses, thousands of index
    /// entries for a large budget. Bulk writes drop the insert trigger inside their transaction
    /// and add their own sums instead: the trigger runs once for every row an import writes.
    ///
    /// A row is a cache of what `Budget.spent(in:of:)` adds up, and of how many expenses
    /// `Budget.status(in:of:)` counts, for a monthly budget's month: the contract suite and
    /// `SQLiteStore.cacheMismatches()` prove them equal.
    ///
    /// `spentCents` is `ANY` because SQLite turns an integer overflow into a REAL instead of
    /// failing; the store then sums the month's expenses itself, which reports the overflow.
    /// Rows are never removed when their count reaches zero: they are a few per budget and month.
    ///
    /// The file is also marked as Tally's, with its schema version, in the header.
    static func v3(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE budgetMonth (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                month INTEGER NOT NULL CHECK (month BETWEEN 101 AND 999912),
                spentCents ANY NOT NULL,
                expenseCount INTEGER NOT NULL,
                PRIMARY KEY (budgetId, month)
            ) STRICT, WITHOUT ROWID;
            CREATE TRIGGER expense_insert_budgetMonth AFTER INSERT ON expense BEGIN
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, NEW.date / 100, NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            CREATE TRIGGER expense_delete_budgetMonth AFTER DELETE ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = OLD.date / 100;
            END;
            CREATE TRIGGER expense_update_budgetMonth AFTER UPDATE OF budgetId, amountCents, quantity, date ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = OLD.date / 100;
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, NEW.date / 100, NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            PRAGMA application_id = 1415670905;
            PRAGMA user_version = 3;
            """)
        // Summed in Swift: SQL's SUM would fail the whole migration on one overflowing month.
        try ExpenseCaches.rebuildMonths(calendar: .calendarMonths, withLines: false, db)
    }

    /// Budgets that work like budgets: a period (`monthly`, `yearly` or `once` with its days),
    /// a rollover policy and cap, an explicit first period, a limit history (`budgetLimit`: the
    /// limits from a period on, after the first in `budget.limitCents`), and the ledger's
    /// settings (`setting`: the day its months start on).
    ///
    /// `budgetMonth` becomes each budget's spending per *period*, named for the month it starts
    /// in (see `PeriodCalendar`): with months starting on the 1st, the default and what every
    /// older file has, that is the calendar month it was. Its triggers compute the period from
    /// the expense's date and `setting.monthStart`; changing the setting rebuilds the table.
    /// Rollover figures read a budget's rows to add up what each period carried into the next.
    ///
    /// The budget table is rebuilt because SQLite cannot change a CHECK; the migrator turns
    /// foreign keys off meanwhile and checks them before committing. Existing budgets become
    /// monthly, without rollover, with their one limit: every figure is what it was.
    static func v4(_ db: Database) throws {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'budget'")
        try db.execute(sql: """
            CREATE TABLE newBudget (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 1000
                    AND NOT name GLOB '\(controlCharacter)'),
                nameKey TEXT NOT NULL UNIQUE CHECK (length(nameKey) > 0),
                limitCents INTEGER NOT NULL CHECK (limitCents > 0 AND limitCents <= 100000000000),
                period TEXT NOT NULL CHECK (period IN ('monthly', 'yearly', 'once')),
                rollover TEXT NOT NULL DEFAULT 'none' CHECK (rollover IN ('none', 'surplus', 'both')),
                capCents INTEGER CHECK (capCents > 0 AND capCents <= 100000000000),
                startMonth INTEGER CHECK (startMonth BETWEEN 101 AND 999912),
                fromDate INTEGER,
                toDate INTEGER,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                CHECK ((period = 'once') = (fromDate IS NOT NULL AND toDate IS NOT NULL)),
                CHECK (fromDate <= toDate),
                CHECK (period <> 'once' OR (rollover = 'none' AND startMonth IS NULL))
            ) STRICT;
            INSERT INTO newBudget (id, name, nameKey, limitCents, period, rollover, createdAt, updatedAt)
                SELECT id, name, nameKey, limitCents, period, 'none', createdAt, updatedAt FROM budget ORDER BY id;
            DROP TABLE budget;
            ALTER TABLE newBudget RENAME TO budget;

            CREATE TABLE budgetLimit (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                fromMonth INTEGER NOT NULL CHECK (fromMonth BETWEEN 101 AND 999912),
                limitCents INTEGER NOT NULL CHECK (limitCents > 0 AND limitCents <= 100000000000),
                PRIMARY KEY (budgetId, fromMonth)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE setting (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                monthStart INTEGER NOT NULL CHECK (monthStart BETWEEN 1 AND 28)
            ) STRICT;
            INSERT INTO setting (id, monthStart) VALUES (1, 1);

            DROP TRIGGER expense_insert_budgetMonth;
            DROP TRIGGER expense_delete_budgetMonth;
            DROP TRIGGER expense_update_budgetMonth;
            CREATE TRIGGER expense_insert_budgetMonth AFTER INSERT ON expense BEGIN
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, \(period("NEW.date")), NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            CREATE TRIGGER expense_delete_budgetMonth AFTER DELETE ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = \(period("OLD.date"));
            END;
            CREATE TRIGGER expense_update_budgetMonth AFTER UPDATE OF budgetId, amountCents, quantity, date ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = \(period("OLD.date"));
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, \(period("NEW.date")), NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            PRAGMA user_version = 4;
            """)
        if let sequence {
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'budget'")
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('budget', ?)", arguments: [sequence])
        }
    }

    /// `v5` adds the ledger's currency (an ISO 4217 code, NULL for none) to its settings. Only how
    /// figures are shown depends on it, so every stored figure stays as it was.
    static func v5(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE setting ADD COLUMN currency TEXT CHECK (currency IS NULL OR (length(currency) = 3 AND currency GLOB '[A-Z][A-Z][A-Z]'));
            PRAGMA user_version = 5;
            """)
    }
}
