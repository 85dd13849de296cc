import GRDB

extension Schema {
    /// `v24-rule-detail`: import rules that split or refund. `detail` holds Core's
    /// ``ImportRule/storedDetail`` text, in ``ExpenseDetail``'s form: empty for a rule with one
    /// budget, `R` for a refund rule, else each split line's budget id and share. `budgetId` stays
    /// the first line's, so removing that budget still removes the rule by its foreign key; the
    /// other lines' budgets are found in the text (`removeBudget`, undo), as an expense's are.
    /// Existing rules have one budget and refund nothing.
    static func v24RuleDetail(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE importRule ADD COLUMN detail TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 100000);
            PRAGMA user_version = 24;
            """)
    }
}
