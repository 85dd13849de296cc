import GRDB

// Who spent each expense (`v8-expense-by`), how many snapshots are kept (`v9-snapshots`), the
// history of change sets (`v10-history`) and the rows they removed in bulk (`v11-removed-rows`).
extension Schema {
    /// `v8-expense-by` records who spent each expense (`Expense.by`) in `spentBy` (`by` is an SQL
    /// keyword). Expenses saved before it keep an empty one: nobody knows who added them.
    ///
    /// The covering index `expense_date_budgetId` takes `spentBy` last, so the month report's
    /// per-person sums (`spendingByPerson`) read the index like the month's other figures instead
    /// of reading each expense from the table; rebuilding the index is a one-time cost of the
    /// migration. `expense list --by` without a month reads the whole table.
    ///
    /// Nothing else changes, so every stored figure stays as it was.
    static func v8ExpenseBy(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE expense ADD COLUMN spentBy TEXT NOT NULL DEFAULT '' CHECK (
                NOT spentBy GLOB ' *' AND NOT spentBy GLOB '* ' AND length(spentBy) <= 100
                AND NOT spentBy GLOB '\(controlCharacter)');
            DROP INDEX expense_date_budgetId;
            CREATE INDEX expense_date_budgetId ON expense(date, budgetId, tagSetId, amountCents, quantity, spentBy);
            PRAGMA user_version = 8;
            """)
    }

    /// `v9-snapshots` adds how many snapshots of the file are kept (`SnapshotKeeping`; 0 turns
    /// automatic ones off) to the ledger's settings. The snapshots themselves are files beside
    /// the database (`SnapshotFolder`), not rows. Nothing else changes.
    static func v9Snapshots(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE setting ADD COLUMN snapshotLimit INTEGER NOT NULL DEFAULT 10 CHECK (snapshotLimit BETWEEN 0 AND 1000);
            PRAGMA user_version = 9;
            """)
    }

    /// `v10-history` adds the history `tally log` lists and `tally undo` reverts: one `changeSet`
    /// row per command that changed the ledger, its rows' images as JSON (`ChangeContent`), written
    /// in the command's own transaction. `at` is indexed because every write prunes what is older
    /// than `setting.historyDays`. `importedRow.batch` is the change set id of the import that
    /// added a key (NULL for keys from before `v10`), so undoing an import removes its keys only.
    ///
    /// Nothing else changes, so every stored figure stays as it was.
    static func v10History(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE changeSet (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at INTEGER NOT NULL,
                command TEXT NOT NULL,
                summary TEXT NOT NULL,
                undoes INTEGER,
                content BLOB NOT NULL
            ) STRICT;
            CREATE INDEX changeSet_at ON changeSet(at);
            ALTER TABLE importedRow ADD COLUMN batch INTEGER;
            ALTER TABLE setting ADD COLUMN historyDays INTEGER NOT NULL DEFAULT 365 CHECK (historyDays BETWEEN 1 AND 36500);
            PRAGMA user_version = 10;
            """)
    }

    /// `v11-removed-rows` keeps what a change set removed in bulk beside it, where `v10` kept a
    /// copy of every row in its JSON: undoing a million-row import moves its expenses to
    /// `removedExpense` and its row keys to `removedImportedRow` (two `INSERT … SELECT`s), and
    /// undoing that undo moves them back (`ChangeContent.removedExpenses`). The rows go with
    /// their change set when the history is pruned. No index on a budget or a tag set: a
    /// removed expense may name a budget the same undo removed, and redo puts both back.
    ///
    /// Nothing else changes, so every stored figure stays as it was; change sets recorded
    /// before keep their images and undo as they did.
    static func v11RemovedRows(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE removedExpense (
                changeSetId INTEGER NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
                id INTEGER NOT NULL,
                budgetId INTEGER NOT NULL,
                name TEXT NOT NULL,
                nameKey TEXT NOT NULL,
                amountCents INTEGER NOT NULL,
                quantity INTEGER NOT NULL,
                date INTEGER NOT NULL,
                tagSetId INTEGER,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                spentBy TEXT NOT NULL,
                PRIMARY KEY (changeSetId, id)
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE removedImportedRow (
                changeSetId INTEGER NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
                key INTEGER NOT NULL,
                batch INTEGER,
                PRIMARY KEY (changeSetId, key)
            ) STRICT, WITHOUT ROWID;
            PRAGMA user_version = 11;
            """)
    }
}
