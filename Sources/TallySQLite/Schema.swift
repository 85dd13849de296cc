import GRDB

/// The database schema, one named migration per change. A released migration is never edited:
/// the fixtures under `Tests/TallySQLiteTests/Fixtures` prove that old files still open.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
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
    ///
    /// An import evaluates every expense CHECK once per row, so they are written in their cheapest
    /// form: two anchored GLOBs instead of `trim(name) = name`, which copies the name, and a
    /// literal control-character class instead of a `char(1) || …` expression that SQLite builds
    /// again for every statement. The CHECKs still cost about 30 % of SQLite's work in an import,
    /// the three indexes about 37 % (callgrind, `INSERT … SELECT` of 100,000 rows).
    ///
    /// Tags are many-to-many through tag sets: an expense points at the set of its tags
    /// (`tagSetId`, NULL for none), and `tagSetTag` lists each set's members. Expenses repeat a
    /// few combinations, so an import writes one integer per expense instead of a link row per
    /// tag (1.4 million for a million expenses: they took `sqlite3`'s own `INSERT … SELECT` of the
    /// million from 2.8 to 4.9 s), and a month's
    /// spending by tag sums per set from the covering index, then spreads over the few sets' tags.
    /// `tagSet.tags` is the set's canonical key: its composed tag names, sorted, joined by `;`
    /// (which tags cannot contain).
    ///
    /// Indexes: `expense_budgetId_date_amount` covers every month figure (queries probe it once
    /// per budget with `budgetId IN (SELECT id FROM budget)` and never read table rows);
    /// `expense_date` orders exports and unfiltered lists by date then id; `expense_tagSetId`
    /// finds a tag's expenses and lets an unused set be deleted without a scan.
    private static func v1(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE budget (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 1000
                    AND NOT name GLOB '\(controlCharacter)'),
                nameKey TEXT NOT NULL UNIQUE CHECK (length(nameKey) > 0),
                limitCents INTEGER NOT NULL CHECK (limitCents > 0 AND limitCents <= 100000000000),
                period TEXT NOT NULL CHECK (period IN ('monthly')),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE tag (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 500
                    AND name = lower(name) AND instr(name, ',') = 0 AND instr(name, ';') = 0
                    AND NOT name GLOB '\(controlCharacter)')
            ) STRICT;

            CREATE TABLE tagSet (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                tags TEXT NOT NULL UNIQUE CHECK (
                    tags <> '' AND NOT tags GLOB ' *' AND NOT tags GLOB '* ' AND instr(tags, ';;') = 0
                    AND substr(tags, 1, 1) <> ';' AND substr(tags, -1, 1) <> ';')
            ) STRICT;

            CREATE TABLE tagSetTag (
                tagSetId INTEGER NOT NULL REFERENCES tagSet(id) ON DELETE CASCADE,
                tagId INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                PRIMARY KEY (tagSetId, tagId)
            ) WITHOUT ROWID, STRICT;
            CREATE INDEX tagSetTag_tagId ON tagSetTag(tagId, tagSetId);

            CREATE TABLE expense (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 2000
                    AND NOT name GLOB '\(controlCharacter)'),
                nameKey TEXT NOT NULL,
                amountCents INTEGER NOT NULL CHECK (amountCents > 0 AND amountCents <= 100000000000),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
                date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                tagSetId INTEGER REFERENCES tagSet(id),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX expense_budgetId_date_amount ON expense(budgetId, date, amountCents, quantity, tagSetId);
            CREATE INDEX expense_date ON expense(date);
            CREATE INDEX expense_tagSetId ON expense(tagSetId, date) WHERE tagSetId IS NOT NULL;

            -- The files imported so far, by the SHA-256 of their bytes, so a repeat is refused.
            CREATE TABLE importLog (
                fingerprint TEXT PRIMARY KEY CHECK (length(fingerprint) > 0),
                importedAt INTEGER NOT NULL,
                rowCount INTEGER NOT NULL CHECK (rowCount >= 0)
            ) STRICT;
            """)
    }

    /// `GLOB` pattern of a text holding a control character (C0, DEL, C1) or a line or
    /// paragraph separator: what `NameKey` refuses in names and tags.
    private static let controlCharacter = "*[\u{1}-\u{1F}\u{7F}-\u{9F}\u{2028}\u{2029}]*"
}
