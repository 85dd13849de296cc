import GRDB

extension Schema {
    /// `v27-writer-kept-links`: three links lose their foreign keys and are kept by their one
    /// writer instead, because SQLite checks a foreign key with a statement per row and bulk
    /// writes move a million rows at a time:
    /// - `recurringPayment.expenseId`: every removal of expenses goes through
    ///   `ExpenseCaches.delete`, which sets the link of each occurrence they paid to NULL first,
    ///   as `ON DELETE SET NULL` did (the occurrence stays paid).
    /// - `removedExpense.changeSetId` and `removedImportedRow.changeSetId`: only `setAside`
    ///   writes these rows, under the change set undo has just recorded, and pruning the history
    ///   (`SQLiteStore.record`) removes them with their change set, as `ON DELETE CASCADE` did.
    ///
    /// `SQLiteStore.cacheMismatches` reports any link that names a row that is gone; the
    /// differential tests call it after every kind of write. The tables are rebuilt with the
    /// same columns, rows and indexes: every figure stays.
    static func v27WriterKeptLinks(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE newRecurringPayment (
                ruleId INTEGER NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
                date INTEGER NOT NULL CHECK (date BETWEEN 10101 AND 99991231),
                expenseId INTEGER,
                kind TEXT NOT NULL CHECK (kind IN ('posted', 'matched')),
                PRIMARY KEY (ruleId, date)
            ) STRICT, WITHOUT ROWID;
            INSERT INTO newRecurringPayment (ruleId, date, expenseId, kind) SELECT ruleId, date, expenseId, kind FROM recurringPayment;
            DROP TABLE recurringPayment;
            ALTER TABLE newRecurringPayment RENAME TO recurringPayment;
            CREATE UNIQUE INDEX recurringPayment_expenseId ON recurringPayment(expenseId) WHERE expenseId IS NOT NULL;

            CREATE TABLE newRemovedExpense (
                changeSetId INTEGER NOT NULL,
                \(removedExpenseColumns),
                PRIMARY KEY (changeSetId, id)
            ) STRICT, WITHOUT ROWID;
            INSERT INTO newRemovedExpense SELECT * FROM removedExpense;
            DROP TABLE removedExpense;
            ALTER TABLE newRemovedExpense RENAME TO removedExpense;

            CREATE TABLE newRemovedImportedRow (
                changeSetId INTEGER NOT NULL,
                key INTEGER NOT NULL,
                batch INTEGER,
                PRIMARY KEY (changeSetId, key)
            ) STRICT, WITHOUT ROWID;
            INSERT INTO newRemovedImportedRow (changeSetId, key, batch) SELECT changeSetId, key, batch FROM removedImportedRow;
            DROP TABLE removedImportedRow;
            ALTER TABLE newRemovedImportedRow RENAME TO removedImportedRow;
            PRAGMA user_version = 27;
            """)
    }

    /// `removedExpense`'s columns after its change set's, in their order (`v11` and the columns
    /// later migrations added), so `SELECT *` copies a row as it is; one a line, as the table's
    /// other columns are written.
    static let removedExpenseColumns = [
        "id INTEGER NOT NULL", "budgetId INTEGER NOT NULL", "name TEXT NOT NULL", "nameKey TEXT NOT NULL",
        "amountCents INTEGER NOT NULL", "quantity INTEGER NOT NULL", "date INTEGER NOT NULL", "tagSetId INTEGER",
        "createdAt INTEGER NOT NULL", "updatedAt INTEGER NOT NULL", "spentBy TEXT NOT NULL", "accountId INTEGER",
        "originalMinor INTEGER", "originalCurrency TEXT", "rate TEXT", "rateSource TEXT", "detail TEXT NOT NULL DEFAULT ''",
    ].joined(separator: ",\n    ")
}
