import GRDB

extension Schema {
    /// `v25-rule-detail`: import rules that split or refund. `detail` holds Core's
    /// ``ImportRule/storedDetail`` text, in ``ExpenseDetail``'s form: empty for a rule with one
    /// budget, `R` for a refund rule, else each split line's budget id and share. `budgetId` stays
    /// the first line's, so removing that budget still removes the rule by its foreign key; the
    /// other lines' budgets are found in the text (`removeBudget`, undo), as an expense's are.
    /// Existing rules have one budget and refund nothing.
    ///
    /// Named `v25` to follow a `v24` being written beside it; on this branch it is the 24th
    /// migration, and `user_version` must equal the migration count (`SQLiteStoreTests`), so it
    /// sets 24 until the two are merged and numbered in order.
    static func v25RuleDetail(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE importRule ADD COLUMN detail TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 100000);
            PRAGMA user_version = 24;
            """)
    }
}
