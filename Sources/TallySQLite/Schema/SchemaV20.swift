import GRDB

extension Schema {
    /// `v20-foreign-amounts`: expenses in other currencies, and the rates they are converted at.
    /// - An expense may keep its original amount (in its currency's own minor units), the
    ///   currency, the exact rate as decimal text and where the rate came from: all four or none.
    ///   `amountCents` stays the ledger-currency figure, so no cache changes. `removedExpense`
    ///   mirrors `expense`'s columns (`ExpenseRecord.positionalColumns`), so it gets them too.
    /// - `rate`: one exact rate per day and pair of currencies, kept locally so that conversions
    ///   work offline; keyed by the pair first, so "the latest on or before a day" is one seek a pair.
    /// - `expense_foreign`, a partial index of the expenses in other currencies by day: a report's
    ///   "by currency" reads those of its period without visiting the others.
    ///
    /// Existing expenses are in the ledger's currency: every figure stays.
    static func v20ForeignAmounts(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE expense ADD COLUMN originalMinor INTEGER CHECK (originalMinor IS NULL OR originalMinor > 0);
            ALTER TABLE expense ADD COLUMN originalCurrency TEXT CHECK (originalCurrency IS NULL OR length(originalCurrency) = 3);
            ALTER TABLE expense ADD COLUMN rate TEXT CHECK (rate IS NULL OR length(rate) BETWEEN 1 AND 40);
            ALTER TABLE expense ADD COLUMN rateSource TEXT CHECK (rateSource IS NULL OR rateSource IN ('table', 'given'));
            ALTER TABLE removedExpense ADD COLUMN originalMinor INTEGER;
            ALTER TABLE removedExpense ADD COLUMN originalCurrency TEXT;
            ALTER TABLE removedExpense ADD COLUMN rate TEXT;
            ALTER TABLE removedExpense ADD COLUMN rateSource TEXT;
            CREATE TABLE rate (
                fromCurrency TEXT NOT NULL CHECK (length(fromCurrency) = 3),
                toCurrency TEXT NOT NULL CHECK (length(toCurrency) = 3 AND toCurrency <> fromCurrency),
                day INTEGER NOT NULL CHECK (day BETWEEN 10101 AND 99991231),
                rate TEXT NOT NULL CHECK (length(rate) BETWEEN 1 AND 40),
                PRIMARY KEY (fromCurrency, toCurrency, day)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX expense_foreign ON expense(date) WHERE originalCurrency IS NOT NULL;
            PRAGMA user_version = 20;
            """)
    }
}
