import GRDB

extension Schema {
    /// `v14-accounts`: where money sits and what moves it besides spending. Accounts, incomes,
    /// transfers and balance assertions are rows of their own; balances are figures of them
    /// (Core's `AccountBook`), never stored. Existing ledgers gain empty tables: every figure
    /// stays as it was.
    static func v14Accounts(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE account (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 1000 AND name NOT GLOB '\(controlCharacter)'),
                nameKey TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind IN ('checking', 'savings', 'credit', 'cash', 'loan')),
                openingCents INTEGER NOT NULL CHECK (abs(openingCents) <= 100000000000),
                openingDate INTEGER,
                archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            );
            CREATE TABLE income (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                accountId INTEGER NOT NULL REFERENCES account(id),
                name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 2000),
                amountCents INTEGER NOT NULL CHECK (amountCents BETWEEN 1 AND 100000000000),
                date INTEGER NOT NULL,
                tags TEXT NOT NULL DEFAULT '',
                receivedBy TEXT NOT NULL DEFAULT '' CHECK (length(receivedBy) <= 100),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            );
            CREATE INDEX income_account ON income(accountId, date);
            CREATE TABLE transfer (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                fromAccountId INTEGER NOT NULL REFERENCES account(id),
                toAccountId INTEGER NOT NULL REFERENCES account(id) CHECK (toAccountId <> fromAccountId),
                amountCents INTEGER NOT NULL CHECK (amountCents BETWEEN 1 AND 100000000000),
                date INTEGER NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            );
            CREATE INDEX transfer_from ON transfer(fromAccountId, date);
            CREATE INDEX transfer_to ON transfer(toAccountId, date);
            CREATE TABLE balanceAssertion (
                accountId INTEGER NOT NULL REFERENCES account(id),
                date INTEGER NOT NULL,
                balanceCents INTEGER NOT NULL CHECK (abs(balanceCents) <= 100000000000),
                createdAt INTEGER NOT NULL,
                PRIMARY KEY (accountId, date)
            ) WITHOUT ROWID;
            PRAGMA user_version = 14;
            """)
    }
}
