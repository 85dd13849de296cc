import GRDB

// Features on top of budgets: recurring bills and alerts (`v6`), then import rules, the keys of
// imported rows and import profiles (`v7`).
extension Schema {
    /// `v6`: recurring bills and alerts. Recurring bills (`RecurringRule`): the rules, their skipped occurrences, and each paid
    /// occurrence with the expense that paid it (`posted` by `recurring post` or `matched` to one
    /// already recorded).
    ///
    /// - The `recurringPayment` primary key `(ruleId, date)` is what makes `recurring post`
    ///   idempotent even across processes: an occurrence can be paid once.
    /// - The unique `expenseId` index makes an expense pay at most one occurrence, and serves
    ///   the foreign key when an expense is deleted: the occurrence stays paid (`SET NULL`), so
    ///   removing a posted bill does not bring it back.
    /// - Removing a budget removes its rules (`CASCADE`), which remove their skips and payments.
    /// - Tags are the rule's normalized tags joined by `;`, which tags cannot contain.
    ///
    /// Alerts: each budget's warning level (`budget.warnPercent`) and the ledger's default for new
    /// budgets (`setting.warnPercent`); existing budgets get 80 %, the level they had. `checkState`
    /// holds the level each budget had at the last `check --new-only` of a period.
    static func v6(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE budget ADD COLUMN warnPercent INTEGER NOT NULL DEFAULT 80 CHECK (warnPercent BETWEEN 1 AND 100);
            ALTER TABLE setting ADD COLUMN warnPercent INTEGER NOT NULL DEFAULT 80 CHECK (warnPercent BETWEEN 1 AND 100);

            CREATE TABLE recurringRule (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 2000),
                amountCents INTEGER NOT NULL CHECK (amountCents > 0 AND amountCents <= 100000000000),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
                tags TEXT NOT NULL DEFAULT '' CHECK (instr(tags, ';;') = 0),
                every TEXT NOT NULL CHECK (every IN ('day', 'week', 'month', 'year')),
                interval INTEGER NOT NULL CHECK (interval BETWEEN 1 AND 1000),
                day INTEGER CHECK (
                    day IS NULL OR (every = 'month' AND day BETWEEN 1 AND 31) OR (every = 'week' AND day BETWEEN 0 AND 6)),
                startDate INTEGER NOT NULL CHECK (startDate BETWEEN 10101 AND 99991231),
                untilDate INTEGER CHECK (untilDate >= startDate AND untilDate <= 99991231),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX recurringRule_budgetId ON recurringRule(budgetId);

            CREATE TABLE recurringSkip (
                ruleId INTEGER NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
                date INTEGER NOT NULL CHECK (date BETWEEN 10101 AND 99991231),
                PRIMARY KEY (ruleId, date)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE recurringPayment (
                ruleId INTEGER NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
                date INTEGER NOT NULL CHECK (date BETWEEN 10101 AND 99991231),
                expenseId INTEGER REFERENCES expense(id) ON DELETE SET NULL,
                kind TEXT NOT NULL CHECK (kind IN ('posted', 'matched')),
                PRIMARY KEY (ruleId, date)
            ) STRICT, WITHOUT ROWID;
            CREATE UNIQUE INDEX recurringPayment_expenseId ON recurringPayment(expenseId) WHERE expenseId IS NOT NULL;

            CREATE TABLE checkState (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                period INTEGER NOT NULL CHECK (period BETWEEN 101 AND 999912),
                level TEXT NOT NULL CHECK (level IN ('ok', 'warning', 'projected-over', 'over')),
                PRIMARY KEY (budgetId, period)
            ) STRICT, WITHOUT ROWID;
            PRAGMA user_version = 6;
            """)
    }

    /// `v7` adds import rules (`ImportRule`): a pattern as the user typed it, the budget it sends
    /// rows to (removing the budget removes its rules), its tags as a tag set key (normalized
    /// names joined by `;`, which tags cannot contain), an optional new name and a priority.
    ///
    /// It also adds `importedRow`, the keys of the rows of imported CSV files (`ImportRowKey`):
    /// row-level dedupe. A rowid table of bare integers is the cheapest set SQLite has (about ten
    /// bytes a row). Keys stay when their expense is edited or removed, so a removed row does not
    /// come back with the next overlapping file. Files imported before `v7` have no keys; their
    /// fingerprints in `importLog` still refuse them whole (see `ImportResolution.finish`).
    ///
    /// And `importProfile`: saved import settings by name (`ImportProfile`), as the user gave them.
    ///
    /// Nothing else changes, so every stored figure stays as it was.
    static func v7(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE importRule (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pattern TEXT NOT NULL CHECK (pattern <> '' AND length(pattern) <= 2000),
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                tags TEXT NOT NULL DEFAULT '' CHECK (instr(tags, ';;') = 0),
                rename TEXT CHECK (rename IS NULL OR (rename <> '' AND length(rename) <= 2000)),
                priority INTEGER NOT NULL DEFAULT 100 CHECK (priority BETWEEN 0 AND 1000000)
            ) STRICT;
            CREATE INDEX importRule_budgetId ON importRule(budgetId);
            CREATE TABLE importedRow (key INTEGER PRIMARY KEY) STRICT;
            CREATE TABLE importProfile (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 1000),
                nameKey TEXT NOT NULL UNIQUE CHECK (length(nameKey) > 0),
                columns TEXT,
                dateFormat TEXT,
                expenseSign TEXT CHECK (expenseSign IN ('positive', 'negative')),
                delimiter TEXT CHECK (delimiter IN (',', ';', 'tab')),
                fallbackBudget TEXT,
                uncategorized INTEGER NOT NULL DEFAULT 0 CHECK (uncategorized IN (0, 1)),
                decimalComma INTEGER CHECK (decimalComma IN (0, 1)),
                currency TEXT CHECK (currency IS NULL OR (length(currency) = 3 AND currency GLOB '[A-Z][A-Z][A-Z]')),
                encoding TEXT CHECK (encoding IN ('utf-8', 'windows-1252', 'latin1'))
            ) STRICT;
            PRAGMA user_version = 7;
            """)
    }
}
