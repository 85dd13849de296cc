import GRDB

extension Schema {
    /// `v18-budget-goals`: a budget may have a target (`BudgetTarget`).
    /// - `targetCents`: the amount, `NULL` for no target.
    /// - `targetBy`: `YYYYMM` of a sinking fund's date, `NULL` for a target set aside every period.
    /// - `targetAccountId`: the account the money sits in; removing the account clears it (Core
    ///   does so first, in the same change set, so undo restores it; `SET NULL` backs it up).
    ///
    /// Existing budgets have no target: every figure stays.
    static func v18BudgetGoals(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE budget ADD COLUMN targetCents INTEGER CHECK (targetCents IS NULL OR (targetCents > 0 AND targetCents <= 100000000000));
            ALTER TABLE budget ADD COLUMN targetBy INTEGER
                CHECK (targetBy IS NULL OR (targetCents IS NOT NULL AND targetBy BETWEEN 101 AND 999912));
            ALTER TABLE budget ADD COLUMN targetAccountId INTEGER REFERENCES account(id) ON DELETE SET NULL
                CHECK (targetAccountId IS NULL OR targetCents IS NOT NULL);
            PRAGMA user_version = 18;
            """)
    }
}
