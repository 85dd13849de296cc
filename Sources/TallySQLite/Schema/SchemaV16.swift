import GRDB

extension Schema {
    /// `v16-profile-skip`: a profile may keep how many lines above a bank export's header to skip
    /// (`import --skip`), a column like the profile's other settings; `NULL` finds the header.
    ///
    /// Existing profiles keep `NULL`, so they read their files as before.
    static func v16ProfileSkip(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE importProfile ADD COLUMN skip INTEGER CHECK (skip BETWEEN 0 AND 1000);
            PRAGMA user_version = 16;
            """)
    }
}
