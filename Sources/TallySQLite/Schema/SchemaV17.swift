import GRDB

extension Schema {
    /// `v17-account-number`: an account may keep its IBAN or account number, which a bank
    /// statement names it by (`import` of OFX, camt.053, MT940). Existing accounts have none.
    static func v17AccountNumber(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE account ADD COLUMN number TEXT CHECK (number IS NULL OR length(number) BETWEEN 1 AND 34);
            PRAGMA user_version = 17;
            """)
    }
}
