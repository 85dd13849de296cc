import GRDB

/// The database schema, one named migration per change. A released migration is never edited:
/// the fixtures under `Tests/TallySQLiteTests/Fixtures` prove that old files still open. One
/// file past 400 lines on purpose: the migrations read in order, as a history of the schema.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        migrator.registerMigration("v2", migrate: v2)
        migrator.registerMigration("v3", migrate: v3)
        migrator.registerMigration("v4", migrate: v4)
        migrator.registerMigration("v5", migrate: v5)
        migrator.registerMigration("v6", migrate: v6)
        migrator.registerMigration("v7", migrate: v7)
        migrator.registerMigration("v8-expense-by", migrate: v8ExpenseBy)
        migrator.registerMigration("v9-snapshots", migrate: v9Snapshots)
        migrator.registerMigration("v10-history", migrate: v10History)
        migrator.registerMigration("v11-removed-rows", migrate: v11RemovedRows)
        migrator.registerMigration("v12-expense-days", migrate: v12ExpenseDays)
        migrator.registerMigration("v13-cache-writer", migrate: v13CacheWriter)
        return migrator
    }

    /// `PRAGMA application_id`: "Taly". With `user_version`, which every migration from `v3` on
    /// sets to its number, a file's first 100 bytes tell whether it is a current Tally database
    /// (see `SQLiteStore.inspect`).
    static let applicationID: Int32 = 0x5461_6C79
    static let version: Int32 = 13

    static var knownMigrations: Set<String> { Set(migrator.migrations) }

    /// The applied migrations, as GRDB's `appliedIdentifiers` answers (none while there is no
    /// migration table), but read through `Row`, which every command uses anyway: its
    /// `String.fetchSet` made the Swift runtime scan every conformance record once more.
    static func appliedMigrations(_ db: Database) throws -> Set<String> {
        do {
            var applied = Set<String>()
            let rows = try Row.fetchCursor(db, sql: "SELECT identifier FROM grdb_migrations")
            while let row = try rows.next() { applied.insert(row[0]) }
            return applied
        } catch {
            if (try? !db.tableExists("grdb_migrations")) ?? false { return [] }
            throw error
        }
    }

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
    ///
    /// `v2` changes the expense table for faster imports; its comment says how.
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

    /// Makes bulk imports cheaper for SQLite, which spent 3.5 s of a million-row import in its
    /// constraints and indexes (`INSERT … SELECT` by the `sqlite3` tool, against 1.1 s for its
    /// bare `.import`); the same statement now takes 1.6 s. Measured on that million:
    /// - One covering index, `expense_date_budgetId`, leads with the date instead of the budget
    ///   and replaces both `expense_budgetId_date_amount` and `expense_date` (−0.45 s). Expenses
    ///   arrive roughly in date order, so its entries are appended at one end instead of being
    ///   inserted at each budget's place. A month's figures are one range of it, grouped in its
    ///   order without sorting; one budget's month is one probe per day; lists and exports in
    ///   date order read it backwards or forwards. Removing a budget now scans the index for
    ///   its expenses, which is rare and takes about 50 ms.
    /// - `expense_tagSetId` is dropped (−0.45 s): its 23 insertion points, one per tag set, paid
    ///   for a tag filter without a month, which now scans, and for deleting unused tag sets,
    ///   which are now kept: they are a handful of rows, only observable through expenses.
    /// - `expense.date` becomes the integer `YYYYMMDD` (`20261121`): it sorts and reads as the
    ///   text did, but index keys are 4 bytes instead of 11 and compare as integers, and its
    ///   CHECK is arithmetic instead of a GLOB (−0.4 s).
    /// - The control-character CHECK on expense names is dropped: SQLite tries the character
    ///   class at every position of every name (−0.25 s). `Expense.validate()` still refuses
    ///   them; budget names and tags keep the CHECK.
    ///
    /// SQLite cannot alter a column's type or a CHECK, so the table is rebuilt; the migrator
    /// turns foreign keys off meanwhile and checks them before committing. The AUTOINCREMENT
    /// counter is carried over, so ids of deleted expenses are never handed out again.
    private static func v2(_ db: Database) throws {
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

    /// Each budget's spending per calendar month, kept by triggers, so that `tally add` can say
    /// what is left of the budget without summing the month's expenses (7,600 index entries for
    /// a large budget on a million expenses, a fifth of the command). Bulk writes drop the
    /// insert trigger inside their transaction and add their own sums instead: the trigger cost
    /// `sqlite3`'s own `INSERT … SELECT` of a million rows 29 % (2.23 to 2.88 s).
    ///
    /// A row is a cache of what `Budget.spent(in:of:)` adds up, and of how many expenses
    /// `Budget.status(in:of:)` counts, for a monthly budget's month: the contract suite and
    /// `SQLiteStore.cacheMismatches()` prove them equal.
    ///
    /// `spentCents` is `ANY` because SQLite turns an integer overflow into a REAL instead of
    /// failing; the store then sums the month's expenses itself, which reports the overflow.
    /// Rows are never removed when their count reaches zero: they are a few per budget and month.
    ///
    /// The file is also marked as Tally's, with its schema version, in the header.
    private static func v3(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE budgetMonth (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                month INTEGER NOT NULL CHECK (month BETWEEN 101 AND 999912),
                spentCents ANY NOT NULL,
                expenseCount INTEGER NOT NULL,
                PRIMARY KEY (budgetId, month)
            ) STRICT, WITHOUT ROWID;
            CREATE TRIGGER expense_insert_budgetMonth AFTER INSERT ON expense BEGIN
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, NEW.date / 100, NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            CREATE TRIGGER expense_delete_budgetMonth AFTER DELETE ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = OLD.date / 100;
            END;
            CREATE TRIGGER expense_update_budgetMonth AFTER UPDATE OF budgetId, amountCents, quantity, date ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = OLD.date / 100;
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, NEW.date / 100, NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            PRAGMA application_id = 1415670905;
            PRAGMA user_version = 3;
            """)
        // Summed in Swift: SQL's SUM would fail the whole migration on one overflowing month.
        try ExpenseCaches.rebuildMonths(calendar: .calendarMonths, db)
    }

    /// Budgets that work like budgets: a period (`monthly`, `yearly` or `once` with its days),
    /// a rollover policy and cap, an explicit first period, a limit history (`budgetLimit`: the
    /// limits from a period on, after the first in `budget.limitCents`), and the ledger's
    /// settings (`setting`: the day its months start on).
    ///
    /// `budgetMonth` becomes each budget's spending per *period*, named for the month it starts
    /// in (see `PeriodCalendar`): with months starting on the 1st, the default and what every
    /// older file has, that is the calendar month it was. Its triggers compute the period from
    /// the expense's date and `setting.monthStart`; changing the setting rebuilds the table.
    /// Rollover figures read a budget's rows to add up what each period carried into the next.
    ///
    /// The budget table is rebuilt because SQLite cannot change a CHECK; the migrator turns
    /// foreign keys off meanwhile and checks them before committing. Existing budgets become
    /// monthly, without rollover, with their one limit: every figure is what it was.
    private static func v4(_ db: Database) throws {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'budget'")
        try db.execute(sql: """
            CREATE TABLE newBudget (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 1000
                    AND NOT name GLOB '\(controlCharacter)'),
                nameKey TEXT NOT NULL UNIQUE CHECK (length(nameKey) > 0),
                limitCents INTEGER NOT NULL CHECK (limitCents > 0 AND limitCents <= 100000000000),
                period TEXT NOT NULL CHECK (period IN ('monthly', 'yearly', 'once')),
                rollover TEXT NOT NULL DEFAULT 'none' CHECK (rollover IN ('none', 'surplus', 'both')),
                capCents INTEGER CHECK (capCents > 0 AND capCents <= 100000000000),
                startMonth INTEGER CHECK (startMonth BETWEEN 101 AND 999912),
                fromDate INTEGER,
                toDate INTEGER,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                CHECK ((period = 'once') = (fromDate IS NOT NULL AND toDate IS NOT NULL)),
                CHECK (fromDate <= toDate),
                CHECK (period <> 'once' OR (rollover = 'none' AND startMonth IS NULL))
            ) STRICT;
            INSERT INTO newBudget (id, name, nameKey, limitCents, period, rollover, createdAt, updatedAt)
                SELECT id, name, nameKey, limitCents, period, 'none', createdAt, updatedAt FROM budget ORDER BY id;
            DROP TABLE budget;
            ALTER TABLE newBudget RENAME TO budget;

            CREATE TABLE budgetLimit (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                fromMonth INTEGER NOT NULL CHECK (fromMonth BETWEEN 101 AND 999912),
                limitCents INTEGER NOT NULL CHECK (limitCents > 0 AND limitCents <= 100000000000),
                PRIMARY KEY (budgetId, fromMonth)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE setting (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                monthStart INTEGER NOT NULL CHECK (monthStart BETWEEN 1 AND 28)
            ) STRICT;
            INSERT INTO setting (id, monthStart) VALUES (1, 1);

            DROP TRIGGER expense_insert_budgetMonth;
            DROP TRIGGER expense_delete_budgetMonth;
            DROP TRIGGER expense_update_budgetMonth;
            CREATE TRIGGER expense_insert_budgetMonth AFTER INSERT ON expense BEGIN
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, \(period("NEW.date")), NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            CREATE TRIGGER expense_delete_budgetMonth AFTER DELETE ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = \(period("OLD.date"));
            END;
            CREATE TRIGGER expense_update_budgetMonth AFTER UPDATE OF budgetId, amountCents, quantity, date ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = \(period("OLD.date"));
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, \(period("NEW.date")), NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            PRAGMA user_version = 4;
            """)
        if let sequence {
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'budget'")
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('budget', ?)", arguments: [sequence])
        }
    }

    /// `v5` adds the ledger's currency (an ISO 4217 code, NULL for none) to its settings. Only how
    /// figures are shown depends on it, so every stored figure stays as it was.
    private static func v5(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE setting ADD COLUMN currency TEXT CHECK (currency IS NULL OR (length(currency) = 3 AND currency GLOB '[A-Z][A-Z][A-Z]'));
            PRAGMA user_version = 5;
            """)
    }

    /// `v6`: recurring bills and alerts. Recurring bills (`RecurringRule`): the rules, their skipped occurrences, and each paid
    /// occurrence with the expense that paid it (`posted` by `recurring post` or `matched` to one
    /// already recorded).
    ///
    /// - The `recurringPayment` primary key `(ruleId, date)` is what makes `recurring post`
    ///   idempotent even across processes: an occurrence can be paid once.
    /// - The unique `expenseId` index makes an expense pay at most one occurrence, and serves
    ///   the foreign key when an expense is deleted: the occurrence stays paid (`SET NULL`), so
    ///   removing a posted bill does not bring it back.
    /// - Removing a budget removes its rules (`CASCADE`), which remove their skips and payments.
    /// - Tags are the rule's normalized tags joined by `;`, which tags cannot contain.
    ///
    /// Alerts: each budget's warning level (`budget.warnPercent`) and the ledger's default for new
    /// budgets (`setting.warnPercent`); existing budgets get 80 %, the level they had. `checkState`
    /// holds the level each budget had at the last `check --new-only` of a period.
    private static func v6(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE budget ADD COLUMN warnPercent INTEGER NOT NULL DEFAULT 80 CHECK (warnPercent BETWEEN 1 AND 100);
            ALTER TABLE setting ADD COLUMN warnPercent INTEGER NOT NULL DEFAULT 80 CHECK (warnPercent BETWEEN 1 AND 100);

            CREATE TABLE recurringRule (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                name TEXT NOT NULL CHECK (
                    name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 2000),
                amountCents INTEGER NOT NULL CHECK (amountCents > 0 AND amountCents <= 100000000000),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
                tags TEXT NOT NULL DEFAULT '' CHECK (instr(tags, ';;') = 0),
                every TEXT NOT NULL CHECK (every IN ('day', 'week', 'month', 'year')),
                interval INTEGER NOT NULL CHECK (interval BETWEEN 1 AND 1000),
                day INTEGER CHECK (
                    day IS NULL OR (every = 'month' AND day BETWEEN 1 AND 31) OR (every = 'week' AND day BETWEEN 0 AND 6)),
                startDate INTEGER NOT NULL CHECK (startDate BETWEEN 10101 AND 99991231),
                untilDate INTEGER CHECK (untilDate >= startDate AND untilDate <= 99991231),
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX recurringRule_budgetId ON recurringRule(budgetId);

            CREATE TABLE recurringSkip (
                ruleId INTEGER NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
                date INTEGER NOT NULL CHECK (date BETWEEN 10101 AND 99991231),
                PRIMARY KEY (ruleId, date)
            ) STRICT, WITHOUT ROWID;

            CREATE TABLE recurringPayment (
                ruleId INTEGER NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
                date INTEGER NOT NULL CHECK (date BETWEEN 10101 AND 99991231),
                expenseId INTEGER REFERENCES expense(id) ON DELETE SET NULL,
                kind TEXT NOT NULL CHECK (kind IN ('posted', 'matched')),
                PRIMARY KEY (ruleId, date)
            ) STRICT, WITHOUT ROWID;
            CREATE UNIQUE INDEX recurringPayment_expenseId ON recurringPayment(expenseId) WHERE expenseId IS NOT NULL;

            CREATE TABLE checkState (
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                period INTEGER NOT NULL CHECK (period BETWEEN 101 AND 999912),
                level TEXT NOT NULL CHECK (level IN ('ok', 'warning', 'projected-over', 'over')),
                PRIMARY KEY (budgetId, period)
            ) STRICT, WITHOUT ROWID;
            PRAGMA user_version = 6;
            """)
    }

    /// `v7` adds import rules (`ImportRule`): a pattern as the user typed it, the budget it sends
    /// rows to (removing the budget removes its rules), its tags as a tag set key (normalized
    /// names joined by `;`, which tags cannot contain), an optional new name and a priority.
    ///
    /// It also adds `importedRow`, the keys of the rows of imported CSV files (`ImportRowKey`):
    /// row-level dedupe. A rowid table of bare integers is the cheapest set SQLite has (about ten
    /// bytes a row). Keys stay when their expense is edited or removed, so a removed row does not
    /// come back with the next overlapping file. Files imported before `v7` have no keys; their
    /// fingerprints in `importLog` still refuse them whole (see `ImportResolution.finish`).
    ///
    /// And `importProfile`: saved import settings by name (`ImportProfile`), as the user gave them.
    ///
    /// Nothing else changes, so every stored figure stays as it was.
    private static func v7(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE importRule (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pattern TEXT NOT NULL CHECK (pattern <> '' AND length(pattern) <= 2000),
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                tags TEXT NOT NULL DEFAULT '' CHECK (instr(tags, ';;') = 0),
                rename TEXT CHECK (rename IS NULL OR (rename <> '' AND length(rename) <= 2000)),
                priority INTEGER NOT NULL DEFAULT 100 CHECK (priority BETWEEN 0 AND 1000000)
            ) STRICT;
            CREATE INDEX importRule_budgetId ON importRule(budgetId);
            CREATE TABLE importedRow (key INTEGER PRIMARY KEY) STRICT;
            CREATE TABLE importProfile (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (name <> '' AND NOT name GLOB ' *' AND NOT name GLOB '* ' AND length(name) <= 1000),
                nameKey TEXT NOT NULL UNIQUE CHECK (length(nameKey) > 0),
                columns TEXT,
                dateFormat TEXT,
                expenseSign TEXT CHECK (expenseSign IN ('positive', 'negative')),
                delimiter TEXT CHECK (delimiter IN (',', ';', 'tab')),
                fallbackBudget TEXT,
                uncategorized INTEGER NOT NULL DEFAULT 0 CHECK (uncategorized IN (0, 1)),
                decimalComma INTEGER CHECK (decimalComma IN (0, 1)),
                currency TEXT CHECK (currency IS NULL OR (length(currency) = 3 AND currency GLOB '[A-Z][A-Z][A-Z]')),
                encoding TEXT CHECK (encoding IN ('utf-8', 'windows-1252', 'latin1'))
            ) STRICT;
            PRAGMA user_version = 7;
            """)
    }

    /// `v8-expense-by` records who spent each expense (`Expense.by`) in `spentBy` (`by` is an SQL
    /// keyword). Expenses saved before it keep an empty one: nobody knows who added them.
    ///
    /// The covering index `expense_date_budgetId` takes `spentBy` last, so the month report's
    /// per-person sums (`spendingByPerson`) read the index like the month's other figures: on a
    /// million expenses (41,667 in the month) 56 ms of CPU reading each expense from the table,
    /// 16 ms from the index (sqlite3 `.timer`); rebuilding the index costs such a file about a
    /// second once. `expense list --by` without a month reads the whole table.
    ///
    /// Nothing else changes, so every stored figure stays as it was.
    private static func v8ExpenseBy(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE expense ADD COLUMN spentBy TEXT NOT NULL DEFAULT '' CHECK (
                NOT spentBy GLOB ' *' AND NOT spentBy GLOB '* ' AND length(spentBy) <= 100
                AND NOT spentBy GLOB '\(controlCharacter)');
            DROP INDEX expense_date_budgetId;
            CREATE INDEX expense_date_budgetId ON expense(date, budgetId, tagSetId, amountCents, quantity, spentBy);
            PRAGMA user_version = 8;
            """)
    }

    /// `v9-snapshots` adds how many snapshots of the file are kept (`SnapshotKeeping`; 0 turns
    /// automatic ones off) to the ledger's settings. The snapshots themselves are files beside
    /// the database (`SnapshotFolder`), not rows. Nothing else changes.
    private static func v9Snapshots(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE setting ADD COLUMN snapshotLimit INTEGER NOT NULL DEFAULT 10 CHECK (snapshotLimit BETWEEN 0 AND 1000);
            PRAGMA user_version = 9;
            """)
    }

    /// `v10-history` adds the history `tally log` lists and `tally undo` reverts: one `changeSet`
    /// row per command that changed the ledger, its rows' images as JSON (`ChangeContent`), written
    /// in the command's own transaction. `at` is indexed because every write prunes what is older
    /// than `setting.historyDays`. `importedRow.batch` is the change set id of the import that
    /// added a key (NULL for keys from before `v10`), so undoing an import removes its keys only.
    ///
    /// Nothing else changes, so every stored figure stays as it was.
    private static func v10History(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE changeSet (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at INTEGER NOT NULL,
                command TEXT NOT NULL,
                summary TEXT NOT NULL,
                undoes INTEGER,
                content BLOB NOT NULL
            ) STRICT;
            CREATE INDEX changeSet_at ON changeSet(at);
            ALTER TABLE importedRow ADD COLUMN batch INTEGER;
            ALTER TABLE setting ADD COLUMN historyDays INTEGER NOT NULL DEFAULT 365 CHECK (historyDays BETWEEN 1 AND 36500);
            PRAGMA user_version = 10;
            """)
    }

    /// `v11-removed-rows` keeps what a change set removed in bulk beside it, where `v10` kept a
    /// copy of every row in its JSON: undoing a million-row import moves its expenses to
    /// `removedExpense` and its row keys to `removedImportedRow` (two `INSERT … SELECT`s), and
    /// undoing that undo moves them back (`ChangeContent.removedExpenses`). The rows go with
    /// their change set when the history is pruned. No index on a budget or a tag set: a
    /// removed expense may name a budget the same undo removed, and redo puts both back.
    ///
    /// Nothing else changes, so every stored figure stays as it was; change sets recorded
    /// before keep their images and undo as they did.
    private static func v11RemovedRows(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE removedExpense (
                changeSetId INTEGER NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
                id INTEGER NOT NULL,
                budgetId INTEGER NOT NULL,
                name TEXT NOT NULL,
                nameKey TEXT NOT NULL,
                amountCents INTEGER NOT NULL,
                quantity INTEGER NOT NULL,
                date INTEGER NOT NULL,
                tagSetId INTEGER,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                spentBy TEXT NOT NULL,
                PRIMARY KEY (changeSetId, id)
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE removedImportedRow (
                changeSetId INTEGER NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
                key INTEGER NOT NULL,
                batch INTEGER,
                PRIMARY KEY (changeSetId, key)
            ) STRICT, WITHOUT ROWID;
            PRAGMA user_version = 11;
            """)
    }

    /// `v12-expense-days` adds `expenseDay`, the month report's cache: one row per day, budget,
    /// tag set (0 for none) and who spent it, with the expenses' sum and count and a bound of
    /// their largest total (exact but after a removal or an edit of the largest, which leaves it).
    /// The report read the month's entries of the covering index three times (its figures, who
    /// spent it, the ten largest): 22 ms of SQLite's work on a million expenses, against 0.5 ms
    /// for the month's 726 rows here. The largest total bounds the ten largest expenses to the
    /// few groups that can hold them (`SQLiteStore.largestExpenses`).
    ///
    /// Each row is a cache of `Spending`'s rules over its expenses (sum and count as
    /// `MonthSummary` adds them, `Spending.byPerson`): the contract suite and
    /// `SQLiteStore.cacheMismatches()` prove them equal, and that the bound holds. Triggers keep
    /// it on every write; bulk writes drop the insert or delete trigger inside their transaction
    /// and add or take away their own sums (`DayTotals`), as they do for `budgetMonth`. A group's
    /// row goes when its last expense does. `spentCents` is `ANY` for the same reason as
    /// `budgetMonth`'s: an overflow becomes a REAL, and the readers then sum the expenses.
    ///
    /// Every command parses the triggers with the schema, so they are written short: removals
    /// leave the largest total as a bound, which took 0.2 million instructions off each command
    /// (0.45 million while they looked up the next largest). `tally add` compiles no trigger
    /// (`SQLiteStore.insertKeepingCaches`).
    ///
    /// The rows are summed in Swift, as `v3`'s were: one overflowing SUM would fail the migration.
    private static func v12ExpenseDays(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE expenseDay (
                date INTEGER NOT NULL,
                budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                tagSetId INTEGER NOT NULL,
                spentBy TEXT NOT NULL,
                spentCents ANY NOT NULL,
                expenseCount INTEGER NOT NULL,
                largestCents ANY NOT NULL,
                PRIMARY KEY (date, budgetId, tagSetId, spentBy)
            ) STRICT, WITHOUT ROWID;
            CREATE TRIGGER expense_insert_expenseDay AFTER INSERT ON expense BEGIN
                \(v12Addition("NEW"))
            END;
            CREATE TRIGGER expense_delete_expenseDay AFTER DELETE ON expense BEGIN
                \(v12Removal("OLD"))
            END;
            CREATE TRIGGER expense_update_expenseDay
            AFTER UPDATE OF budgetId, amountCents, quantity, date, tagSetId, spentBy ON expense BEGIN
                \(v12Removal("OLD"))
                \(v12Addition("NEW"))
            END;
            PRAGMA user_version = 12;
            """)
        try ExpenseCaches.rebuildDays(db)
    }

    /// `v12`'s trigger statement that adds expense `row` (`NEW`) to its group, in the shortest
    /// form (no column list, no conflict target).
    private static func v12Addition(_ row: String) -> String {
        """
        INSERT INTO expenseDay VALUES (\(row).date, \(row).budgetId, ifnull(\(row).tagSetId, 0), \(row).spentBy,
            \(row).amountCents * \(row).quantity, 1, \(row).amountCents * \(row).quantity)
            ON CONFLICT DO UPDATE SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1,
            largestCents = max(largestCents, excluded.largestCents);
        """
    }

    /// `v12`'s trigger statements that take expense `row` (`OLD`) from its group, and remove the
    /// day's emptied groups of its budget. The largest total stays: a bound that the readers
    /// check, which spares every command parsing a lookup of the next largest.
    private static func v12Removal(_ row: String) -> String {
        """
        UPDATE expenseDay SET spentCents = spentCents - \(row).amountCents * \(row).quantity, expenseCount = expenseCount - 1
            WHERE date = \(row).date AND budgetId = \(row).budgetId AND tagSetId = ifnull(\(row).tagSetId, 0) AND spentBy = \(row).spentBy;
        DELETE FROM expenseDay WHERE date = \(row).date AND budgetId = \(row).budgetId AND expenseCount = 0;
        """
    }

    /// The period (`YYYYMM`) a stored date (`YYYYMMDD`) falls in, as `PeriodCalendar.period(containing:)`
    /// answers under `setting.monthStart`: its month from the month-start day on, else the month before.
    static func period(_ date: String) -> String {
        """
        CASE WHEN \(date) % 100 >= (SELECT monthStart FROM setting WHERE id = 1) THEN \(date) / 100 \
        WHEN \(date) / 100 % 100 = 1 THEN (\(date) / 10000 - 1) * 100 + 12 ELSE \(date) / 100 - 1 END
        """
    }

    /// `GLOB` pattern of a text holding a control character (C0, DEL, C1) or a line or
    /// paragraph separator: what `NameKey` refuses in names and tags.
    private static let controlCharacter = "*[\u{1}-\u{1F}\u{7F}-\u{9F}\u{2028}\u{2029}]*"
}
