import Foundation
import TallyCore

// The first six migrations: the ledger, its history and its caches. The later ones, from
// `v7-accounts`, follow in `PostgresSchema.migrations`.
extension PostgresSchema {
    static let ledgerMigrations: [(name: String, sql: [String])] = [
        (
            "v1",
            [
                """
                CREATE TABLE setting (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    monthStart INTEGER NOT NULL DEFAULT 1 CHECK (monthStart BETWEEN 1 AND 28),
                    currency TEXT,
                    warnPercent INTEGER NOT NULL)
                """,
                "INSERT INTO setting (id, monthStart, warnPercent) VALUES (1, 1, \(BudgetLevel.defaultWarnPercent))",
                // AUTOINCREMENT as SQLite keeps it: ids are never reused, and a rolled-back
                // insert gives its id back (a SEQUENCE would not).
                "CREATE TABLE idCounter (kind TEXT PRIMARY KEY, last BIGINT NOT NULL)",
                "INSERT INTO idCounter (kind, last) VALUES ('budget', 0), ('expense', 0), ('rule', 0), ('importRule', 0)",
                """
                CREATE TABLE budget (
                    id BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL UNIQUE,
                    limitCents BIGINT NOT NULL CHECK (limitCents > 0),
                    period TEXT NOT NULL,
                    rollover TEXT NOT NULL,
                    capCents BIGINT,
                    startMonth BIGINT,
                    fromDate BIGINT,
                    toDate BIGINT,
                    warnPercent INTEGER NOT NULL,
                    createdAt BIGINT NOT NULL,
                    updatedAt BIGINT NOT NULL)
                """,
                """
                CREATE TABLE budgetLimit (
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    fromMonth BIGINT NOT NULL,
                    limitCents BIGINT NOT NULL,
                    PRIMARY KEY (budgetId, fromMonth))
                """,
                """
                CREATE TABLE expense (
                    id BIGINT PRIMARY KEY,
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL,
                    amountCents BIGINT NOT NULL CHECK (amountCents > 0),
                    quantity BIGINT NOT NULL CHECK (quantity > 0),
                    date BIGINT NOT NULL,
                    tags TEXT[] NOT NULL DEFAULT '{}',
                    createdAt BIGINT NOT NULL,
                    updatedAt BIGINT NOT NULL)
                """,
                "CREATE INDEX expenseByDate ON expense (date, id)",
                "CREATE INDEX expenseByBudget ON expense (budgetId, date)",
                "CREATE TABLE tag (name TEXT PRIMARY KEY)",
                """
                CREATE TABLE importedFile (
                    fingerprint TEXT PRIMARY KEY,
                    importedAt BIGINT NOT NULL,
                    expenseCount BIGINT NOT NULL)
                """,
                """
                CREATE TABLE recurringRule (
                    id BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    amountCents BIGINT NOT NULL,
                    quantity BIGINT NOT NULL,
                    tags TEXT[] NOT NULL DEFAULT '{}',
                    every TEXT NOT NULL,
                    intervalCount INTEGER NOT NULL,
                    day INTEGER,
                    start BIGINT NOT NULL,
                    until BIGINT,
                    skips BIGINT[] NOT NULL DEFAULT '{}')
                """,
                """
                CREATE TABLE recurringPayment (
                    ruleId BIGINT NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
                    date BIGINT NOT NULL,
                    expenseId BIGINT REFERENCES expense(id) ON DELETE SET NULL,
                    kind TEXT NOT NULL,
                    PRIMARY KEY (ruleId, date))
                """,
                """
                CREATE TABLE checkState (
                    period BIGINT NOT NULL,
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    level TEXT NOT NULL,
                    PRIMARY KEY (period, budgetId))
                """,
                // Import rules point at their budget by id, as SQLite's `importRule` does; their
                // tags are the normalized names, sorted.
                """
                CREATE TABLE importRule (
                    id BIGINT PRIMARY KEY,
                    pattern TEXT NOT NULL,
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    tags TEXT[] NOT NULL,
                    rename TEXT,
                    priority BIGINT NOT NULL)
                """,
                "CREATE TABLE importedRow (key BIGINT PRIMARY KEY)",
                """
                CREATE TABLE importProfile (
                    nameKey TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    columns TEXT, dateFormat TEXT, expenseSign TEXT, delimiter TEXT, fallbackBudget TEXT,
                    uncategorized BIGINT NOT NULL, decimalComma BIGINT, currency TEXT, encoding TEXT)
                """,
            ]
        ),
        // Who spent each expense (`Expense.by`; `by` is an SQL keyword). Expenses saved before
        // it record no one.
        ("v2-expense-by", ["ALTER TABLE expense ADD COLUMN spentBy TEXT NOT NULL DEFAULT ''"]),
        (
            // The history `tally log` lists and `tally undo` reverts (see `Schema.v10History`).
            "v3-history",
            [
                """
                CREATE TABLE changeSet (
                    id BIGINT PRIMARY KEY,
                    at BIGINT NOT NULL,
                    command TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    undoes BIGINT,
                    content TEXT NOT NULL)
                """,
                "CREATE INDEX changeSetByAt ON changeSet (at)",
                "INSERT INTO idCounter (kind, last) VALUES ('changeSet', 0)",
                "ALTER TABLE importedRow ADD COLUMN batch BIGINT",
                "ALTER TABLE setting ADD COLUMN historyDays INTEGER NOT NULL DEFAULT 365",
            ]
        ),
        (
            // What a change set removed in bulk, kept beside it (see `Schema.v11RemovedRows`):
            // undoing an import moves its rows here, undoing that undo moves them back.
            "v4-removed-rows",
            [
                """
                CREATE TABLE removedExpense (
                    changeSetId BIGINT NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
                    id BIGINT NOT NULL,
                    budgetId BIGINT NOT NULL,
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL,
                    amountCents BIGINT NOT NULL,
                    quantity BIGINT NOT NULL,
                    date BIGINT NOT NULL,
                    tags TEXT[] NOT NULL,
                    createdAt BIGINT NOT NULL,
                    updatedAt BIGINT NOT NULL,
                    spentBy TEXT NOT NULL,
                    PRIMARY KEY (changeSetId, id))
                """,
                """
                CREATE TABLE removedImportedRow (
                    changeSetId BIGINT NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
                    key BIGINT NOT NULL,
                    batch BIGINT,
                    PRIMARY KEY (changeSetId, key))
                """,
            ]
        ),
        (
            // Each budget's spending and expense count per period, written by `PostgresCaches`
            // alone (see `Schema.v3` for SQLite's); the sums in NUMERIC, which cannot overflow.
            // Filled from the expenses by `fill`, under the ledger's month start.
            "v5-caches",
            [
                """
                CREATE TABLE budgetMonth (
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    month BIGINT NOT NULL,
                    spentCents NUMERIC NOT NULL,
                    expenseCount BIGINT NOT NULL,
                    PRIMARY KEY (budgetId, month))
                """
            ]
        ),
        (
            // Each day's spending per budget, tag set and person, with the sum, count and largest
            // total, written by `PostgresCaches` alone (see `Schema.v12ExpenseDays` for SQLite's):
            // the month report reads a few thousand of its rows instead of grouping the month's
            // expenses twice. Filled from the expenses by `fill`.
            "v6-expense-days",
            [
                """
                CREATE TABLE expenseDay (
                    date BIGINT NOT NULL,
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    tags TEXT[] NOT NULL,
                    spentBy TEXT NOT NULL,
                    spentCents NUMERIC NOT NULL,
                    expenseCount BIGINT NOT NULL,
                    largestCents NUMERIC NOT NULL,
                    PRIMARY KEY (date, budgetId, tags, spentBy))
                """
            ]
        ),
    ]
}
