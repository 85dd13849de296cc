import GRDB

extension Schema {
    /// `v22-budget-currency`: a budget may have its own currency (a trip budget in JPY), `NULL`
    /// being the ledger's. Its limit, cap, later limits and target are in it; its spending is
    /// counted by Core (`BudgetCurrency`) from the expenses at their days' rates, so the caches,
    /// which sum ledger amounts, do not change. Existing budgets are in the ledger's currency.
    static func v22BudgetCurrency(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE budget ADD COLUMN currency TEXT CHECK (currency IS NULL OR (length(currency) = 3 AND currency = upper(currency)));
            PRAGMA user_version = 22;
            """)
    }
}
