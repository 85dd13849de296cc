import GRDB

// The first schema (`v1`: budgets, tags and tag sets, expenses, the import log) and its rebuild
// of the expense table for faster imports (`v2`).
extension Schema {
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
    /// again for every statement. The CHECKs and the three indexes are still much of SQLite's
    /// work in an import.
    ///
    /// Tags are many-to-many through tag sets: an expense points at the set of its tags
    /// (`tagSetId`, NULL for none), and `tagSetTag` lists each set's members. Expenses repeat a
    /// few combinations, so an import writes one integer per expense instead of a link row per
    /// tag, more rows than the expenses themselves, and a month's spending by tag sums per set
    /// from the covering index, then spreads over the few sets' tags.
    /// `tagSet.tags` is the set's canonical key: its composed tag names, sorted, joined by `;`
    /// (which tags cannot contain).
    ///
    /// Indexes: `expense_budgetId_date_amount` covers every month figure (queries probe it once
    /// per budget with `budgetId IN (SELECT id FROM budget)` and never read table rows);
    /// `expense_date` orders exports and unfiltered lists by date then id; `expense_tagSetId`
    /// finds a tag's expenses and lets an unused set be deleted without a scan.
    ///
    /// `v2` changes the expense table for faster imports; its comment says how.
    static func v1(_ db: Database) throws {
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

    /// Makes bulk imports cheaper for SQLite, which spent most of a large import in its
    /// constraints and indexes rather than in writing the rows:
    /// - One covering index, `expense_date_budgetId`, leads with the date instead of the budget
    ///   and replaces both `expense_budgetId_date_amount` and `expense_date`. Expenses
    ///   arrive roughly in date order, so its entries are appended at one end instead of being
    ///   inserted at each budget's place. A month's figures are one range of it, grouped in its
    ///   order without sorting; one budget's month is one probe per day; lists and exports in
    ///   date order read it backwards or forwards. Removing a budget now scans the index for
    ///   its expenses, which is rare.
    /// - `expense_tagSetId` is dropped: its insertion points, one per tag set, paid
    ///   for a tag filter without a month, which now scans, and for deleting unused tag sets,
    ///   which are now kept: they are a handful of rows, only observable through expenses.
    /// - `expense.date` becomes the integer `YYYYMMDD` (`20261121`): it sorts and reads as the
    ///   text did, but index keys are 4 bytes instead of 11 and compare as integers, and its
    ///   CHECK is arithmetic instead of a GLOB.
    /// - The control-character CHECK on expense names is dropped: SQLite tries the character
    ///   class at every position of every name. `Expense.validate()` still refuses
    ///   them; budget names and tags keep the CHECK.
    ///
    /// SQLite cannot alter a column's type or a CHECK, so the table is rebuilt; the migrator
    /// turns foreign keys off meanwhile and checks them before committing. The AUTOINCREMENT
    /// counter is carried over, so ids of deleted expenses are never handed out again.
    static func v2(_ db: Database) throws {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'expense'")
        try db.execute(sql: """
            CREATE TABLE newExpense (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 2000),
                nameKey TEXT NOT NULL,
                amountCents INTEGER NOT NULL CHECK (amountCents > 0 AND amountCents <= 100000000000),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
                date INTEGER NOT NULL CHECK (
                    date BETWEEN 10101 AND 99991231 AND date % 100 BETWEEN 1 AND 31
                    AND date / 100 % 100 BETWEEN 1 AND 12),
                tagSetId INTEGER REFERENCES tagSet(id),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;
            INSERT INTO newExpense (id, budgetId, name, nameKey, amountCents, quantity, date, tagSetId, createdAt, updatedAt)
                SELECT id, budgetId, name, nameKey, amountCents, quantity, CAST(replace(date, '-', '') AS INTEGER),
                    tagSetId, createdAt, updatedAt
                FROM expense ORDER BY id;
            DROP TABLE expense;
            ALTER TABLE newExpense RENAME TO expense;
            CREATE INDEX expense_date_budgetId ON expense(date, budgetId, tagSetId, amountCents, quantity);
            """)
        if let sequence {
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'expense'")
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('expense', ?)", arguments: [sequence])
        }
    }
}
