import GRDB

extension Schema {
    /// `v26-foreign-incomes`: incomes in other currencies, as `v20-foreign-amounts` made expenses.
    /// An income may keep its original amount (in its currency's own minor units), the currency,
    /// the exact rate as decimal text and where the rate came from: all four or none.
    /// `amountCents` stays the ledger-currency figure, so `accountDay` does not change.
    ///
    /// Existing incomes are in the ledger's currency: every figure stays.
    static func v26ForeignIncomes(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE income ADD COLUMN originalMinor INTEGER CHECK (originalMinor IS NULL OR originalMinor > 0);
            ALTER TABLE income ADD COLUMN originalCurrency TEXT CHECK (originalCurrency IS NULL OR length(originalCurrency) = 3);
            ALTER TABLE income ADD COLUMN rate TEXT CHECK (rate IS NULL OR length(rate) BETWEEN 1 AND 40);
            ALTER TABLE income ADD COLUMN rateSource TEXT CHECK (rateSource IS NULL OR rateSource IN ('table', 'given'));
            PRAGMA user_version = 26;
            """)
    }
}
