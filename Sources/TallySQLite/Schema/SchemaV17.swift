import GRDB

extension Schema {
    /// `v17-statement-accounts`: what importing bank statements needs.
    /// - An account may keep its IBAN or account number, which a statement names it by.
    /// - An import rule may send a statement's entries to an account as transfers
    ///   (`rule add … --transfer-to`) instead of to a budget: `budgetId` may be `NULL`, exactly when
    ///   `transferAccountId` is set. SQLite cannot drop a `NOT NULL`, so the table is rebuilt with
    ///   its rows, ids and index.
    ///
    /// Existing accounts have no number and existing rules keep their budgets: every figure stays.
    static func v17StatementAccounts(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE account ADD COLUMN number TEXT CHECK (number IS NULL OR length(number) BETWEEN 1 AND 34);
            CREATE TABLE importRuleNew (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pattern TEXT NOT NULL CHECK (pattern <> '' AND length(pattern) <= 2000),
                budgetId INTEGER REFERENCES budget(id) ON DELETE CASCADE,
                tags TEXT NOT NULL DEFAULT '' CHECK (instr(tags, ';;') = 0),
                rename TEXT CHECK (rename IS NULL OR (rename <> '' AND length(rename) <= 2000)),
                priority INTEGER NOT NULL DEFAULT 100 CHECK (priority BETWEEN 0 AND 1000000),
                transferAccountId INTEGER REFERENCES account(id) ON DELETE CASCADE,
                CHECK ((budgetId IS NULL) <> (transferAccountId IS NULL))
            ) STRICT;
            INSERT INTO importRuleNew (id, pattern, budgetId, tags, rename, priority)
                SELECT id, pattern, budgetId, tags, rename, priority FROM importRule;
            DROP TABLE importRule;
            ALTER TABLE importRuleNew RENAME TO importRule;
            CREATE INDEX importRule_budgetId ON importRule(budgetId);
            CREATE INDEX importRule_transferAccountId ON importRule(transferAccountId);
            PRAGMA user_version = 17;
            """)
    }
}
