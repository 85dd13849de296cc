import GRDB

extension Schema {
    /// `v15-expense-accounts`: an expense may name the account it was paid from, and a ledger a
    /// default account for expenses that name none. Balances read `accountDay`, each account's
    /// change per day from its incomes, transfers and expenses (`AccountDays`, kept by
    /// `ExpenseCaches`), instead of every entry. No index on `expense.accountId`: an account's
    /// expenses are read a month at a time, through the date index, and an index would slow
    /// every import; removing an account reads the table once.
    ///
    /// Existing expenses name no account, so every figure stays as it was; `accountDay` starts
    /// from the incomes and transfers.
    static func v15ExpenseAccounts(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE expense ADD COLUMN accountId INTEGER REFERENCES account(id);
            ALTER TABLE removedExpense ADD COLUMN accountId INTEGER;
            ALTER TABLE setting ADD COLUMN defaultAccountId INTEGER REFERENCES account(id) ON DELETE SET NULL;
            CREATE TABLE accountDay (
                accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                date INTEGER NOT NULL,
                changeCents INTEGER NOT NULL,
                incomeCents INTEGER NOT NULL,
                entryCount INTEGER NOT NULL,
                PRIMARY KEY (accountId, date)
            ) WITHOUT ROWID;
            """)
        try AccountDays.rebuild(db)
        try db.execute(sql: "PRAGMA user_version = 15")
    }
}
