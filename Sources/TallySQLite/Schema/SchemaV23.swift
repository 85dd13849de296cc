import GRDB

extension Schema {
    /// `v23-serve-tokens`: `tally serve`'s tokens, only their SHA-256, outside the history (no
    /// change set, export or copy reads this table). `name` is unique ignoring case.
    static func v23ServeTokens(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE serveToken (
                name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 100),
                permission TEXT NOT NULL CHECK (permission IN ('view', 'add', 'manage')),
                hash TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
                createdAt INTEGER NOT NULL,
                linkUsed INTEGER NOT NULL DEFAULT 0 CHECK (linkUsed IN (0, 1))
            ) STRICT;
            PRAGMA user_version = 23;
            """)
    }
}
