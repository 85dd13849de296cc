import Foundation
import TallyCore

/// Tally's tables in a PostgreSQL database, as named migrations recorded in `tally_migration`,
/// never edited once released (like `Schema` for SQLite). Money is BIGINT cents, days the
/// integer `YYYYMMDD`, months `YYYYMM`, timestamps milliseconds since 1970: the SQLite file's
/// conventions, so a copy between them converts nothing.
enum PostgresSchema {
    /// `pg_advisory_lock` keys: machines that open the same database at once migrate one after
    /// another, and every write transaction holds the writer lock until it commits.
    static let migrationLock: Int64 = 0x7461_6C6C_7931
    static let writerLock: Int64 = 0x7461_6C6C_7932

    static let migrations: [(name: String, sql: [String])] = ledgerMigrations + [
        (
            // Where money sits and what moves it besides spending, as SQLite's `v14-accounts`:
            // rows of their own; balances are figures of them (Core's `AccountBook`).
            "v7-accounts",
            [
                "INSERT INTO idCounter (kind, last) VALUES ('account', 0), ('income', 0), ('transfer', 0)",
                """
                CREATE TABLE account (
                    id BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL CHECK (kind IN ('checking', 'savings', 'credit', 'cash', 'loan')),
                    openingCents BIGINT NOT NULL,
                    openingDate BIGINT,
                    archived BOOLEAN NOT NULL DEFAULT FALSE,
                    createdAt BIGINT NOT NULL,
                    updatedAt BIGINT NOT NULL)
                """,
                """
                CREATE TABLE income (
                    id BIGINT PRIMARY KEY,
                    accountId BIGINT NOT NULL REFERENCES account(id),
                    name TEXT NOT NULL,
                    amountCents BIGINT NOT NULL CHECK (amountCents > 0),
                    date BIGINT NOT NULL,
                    tags TEXT[] NOT NULL,
                    receivedBy TEXT NOT NULL,
                    createdAt BIGINT NOT NULL,
                    updatedAt BIGINT NOT NULL)
                """,
                "CREATE INDEX income_account ON income(accountId, date)",
                """
                CREATE TABLE transfer (
                    id BIGINT PRIMARY KEY,
                    fromAccountId BIGINT NOT NULL REFERENCES account(id),
                    toAccountId BIGINT NOT NULL REFERENCES account(id) CHECK (toAccountId <> fromAccountId),
                    amountCents BIGINT NOT NULL CHECK (amountCents > 0),
                    date BIGINT NOT NULL,
                    name TEXT NOT NULL,
                    createdAt BIGINT NOT NULL,
                    updatedAt BIGINT NOT NULL)
                """,
                """
                CREATE TABLE balanceAssertion (
                    accountId BIGINT NOT NULL REFERENCES account(id),
                    date BIGINT NOT NULL,
                    balanceCents BIGINT NOT NULL,
                    createdAt BIGINT NOT NULL,
                    PRIMARY KEY (accountId, date))
                """,
            ]
        ),
        (
            // The account an expense was paid from and the ledger's default one, as SQLite's
            // `v15-expense-accounts`; balances read `accountDay` (`PostgresCaches`).
            "v8-expense-accounts",
            [
                "ALTER TABLE expense ADD COLUMN accountId BIGINT REFERENCES account(id)",
                "ALTER TABLE removedExpense ADD COLUMN accountId BIGINT",
                "ALTER TABLE setting ADD COLUMN defaultAccountId BIGINT REFERENCES account(id) ON DELETE SET NULL",
                """
                CREATE TABLE accountDay (
                    accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    date BIGINT NOT NULL,
                    changeCents NUMERIC NOT NULL,
                    incomeCents NUMERIC NOT NULL,
                    entryCount BIGINT NOT NULL,
                    PRIMARY KEY (accountId, date))
                """,
            ]
        ),
        // How many lines above a bank export's header a profile skips, as SQLite's
        // `v16-profile-skip`; `NULL` finds the header.
        ("v9-profile-skip", ["ALTER TABLE importProfile ADD COLUMN skip BIGINT CHECK (skip BETWEEN 0 AND 1000)"]),
        // What importing bank statements needs, as SQLite's `v17-statement-accounts`: an
        // account's IBAN or account number, and rules that send entries to an account.
        (
            "v10-statement-accounts",
            [
                "ALTER TABLE account ADD COLUMN number TEXT CHECK (number IS NULL OR length(number) BETWEEN 1 AND 34)",
                "ALTER TABLE importRule ALTER COLUMN budgetId DROP NOT NULL",
                "ALTER TABLE importRule ADD COLUMN transferAccountId BIGINT REFERENCES account(id) ON DELETE CASCADE",
                "ALTER TABLE importRule ADD CONSTRAINT importRule_target CHECK ((budgetId IS NULL) <> (transferAccountId IS NULL))",
            ]
        ),
        // A budget's target, as SQLite's `v18-budget-goals`: its amount, its date (`YYYYMM`, `NULL`
        // for every period) and the account it sits in.
        (
            "v11-budget-goals",
            [
                "ALTER TABLE budget ADD COLUMN targetCents BIGINT CHECK (targetCents IS NULL OR targetCents > 0)",
                "ALTER TABLE budget ADD COLUMN targetBy BIGINT CHECK (targetBy IS NULL OR targetCents IS NOT NULL)",
                "ALTER TABLE budget ADD COLUMN targetAccountId BIGINT REFERENCES account(id) ON DELETE SET NULL",
            ]
        ),
        (
            // Each period's spending per budget, name key and tag set, written by `PostgresCaches`
            // alone (see `Schema.v19WhyOverGroups` for SQLite's): why over reads a few rows per
            // budget and period instead of every expense of four periods. Filled by `fill`.
            "v12-why-over-groups",
            [
                """
                CREATE TABLE expenseGroup (
                    budgetId BIGINT NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
                    month BIGINT NOT NULL,
                    nameKey TEXT NOT NULL,
                    tags TEXT[] NOT NULL,
                    name TEXT NOT NULL,
                    spentCents NUMERIC NOT NULL,
                    expenseCount BIGINT NOT NULL,
                    PRIMARY KEY (budgetId, month, nameKey, tags))
                """
            ]
        ),
        (
            // Expenses in other currencies and the local rate table, as SQLite's
            // `v20-foreign-amounts`: all four columns or none; `amountCents` stays the
            // ledger-currency figure, so no cache changes.
            "v13-foreign-amounts",
            [
                "ALTER TABLE expense ADD COLUMN originalMinor BIGINT CHECK (originalMinor IS NULL OR originalMinor > 0)",
                "ALTER TABLE expense ADD COLUMN originalCurrency TEXT CHECK (originalCurrency IS NULL OR length(originalCurrency) = 3)",
                "ALTER TABLE expense ADD COLUMN rate TEXT CHECK (rate IS NULL OR length(rate) BETWEEN 1 AND 40)",
                "ALTER TABLE expense ADD COLUMN rateSource TEXT CHECK (rateSource IS NULL OR rateSource IN ('table', 'given'))",
                "ALTER TABLE removedExpense ADD COLUMN originalMinor BIGINT",
                "ALTER TABLE removedExpense ADD COLUMN originalCurrency TEXT",
                "ALTER TABLE removedExpense ADD COLUMN rate TEXT",
                "ALTER TABLE removedExpense ADD COLUMN rateSource TEXT",
                """
                CREATE TABLE rate (
                    fromCurrency TEXT NOT NULL CHECK (length(fromCurrency) = 3),
                    toCurrency TEXT NOT NULL CHECK (length(toCurrency) = 3 AND toCurrency <> fromCurrency),
                    day BIGINT NOT NULL CHECK (day BETWEEN 10101 AND 99991231),
                    rate TEXT NOT NULL CHECK (length(rate) BETWEEN 1 AND 40),
                    PRIMARY KEY (fromCurrency, toCurrency, day))
                """,
                "CREATE INDEX expense_foreign ON expense(date) WHERE originalCurrency IS NOT NULL",
            ]
        ),
        (
            // Split expenses and refunds, as SQLite's `v21-expense-lines`: `detail` is Core's
            // `ExpenseDetail` text, empty for a plain expense; `lineKeys` each line's name key
            // (U+001E between lines, empty for a line under the expense's name), so the caches
            // group lines by name key on the server (`PostgresCaches.portions`). Every existing
            // expense is plain: every figure stays.
            "v14-expense-lines",
            [
                "ALTER TABLE expense ADD COLUMN detail TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 100000)",
                "ALTER TABLE expense ADD COLUMN lineKeys TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE removedExpense ADD COLUMN detail TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE removedExpense ADD COLUMN lineKeys TEXT NOT NULL DEFAULT ''",
                "CREATE INDEX expense_detail ON expense(date) WHERE detail <> ''",
            ]
        ),
        (
            // A budget's own currency, as SQLite's `v22-budget-currency`: `NULL` is the ledger's.
            // Its figures are counted by Core (`BudgetCurrency`) from the expenses, so no cache changes.
            "v15-budget-currency",
            ["ALTER TABLE budget ADD COLUMN currency TEXT CHECK (currency IS NULL OR length(currency) = 3)"]
        ),
        (
            // `tally serve`'s tokens, as SQLite's `v23-serve-tokens`: only their SHA-256,
            // outside the history; names unique ignoring case.
            "v16-serve-tokens",
            [
                """
                CREATE TABLE serveToken (
                    name TEXT NOT NULL PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
                    permission TEXT NOT NULL CHECK (permission IN ('view', 'add', 'manage')),
                    hash TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
                    createdAt BIGINT NOT NULL,
                    linkUsed BOOLEAN NOT NULL DEFAULT FALSE)
                """,
                "CREATE UNIQUE INDEX serveToken_nameKey ON serveToken (lower(name))",
            ]
        ),
        (
            // Import rules that split or refund, as SQLite's `v24-rule-detail`: Core's
            // `ImportRule.storedDetail` text, empty for every existing rule.
            "v17-rule-detail",
            ["ALTER TABLE importRule ADD COLUMN detail TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 100000)"]
        ),
        (
            // As SQLite's `v25-report-bounds`: `expenseDay.largestCents` becomes the largest whole
            // total (`amountCents × quantity`) among the expenses with a portion in the group, a
            // split's in each of its lines' groups and a refund's in its own, so it bounds the
            // largest expenses on days with splits and refunds too. Recomputed by `fill`. The
            // foreign expenses' sums already come from the server's scan of `expense_foreign`.
            "v18-report-bounds",
            []
        ),
        (
            // Incomes in other currencies, as SQLite's `v26-foreign-incomes`: all four columns or
            // none; `amountCents` stays the ledger-currency figure, so `accountDay` does not change.
            "v19-foreign-incomes",
            [
                "ALTER TABLE income ADD COLUMN originalMinor BIGINT CHECK (originalMinor IS NULL OR originalMinor > 0)",
                "ALTER TABLE income ADD COLUMN originalCurrency TEXT CHECK (originalCurrency IS NULL OR length(originalCurrency) = 3)",
                "ALTER TABLE income ADD COLUMN rate TEXT CHECK (rate IS NULL OR length(rate) BETWEEN 1 AND 40)",
                "ALTER TABLE income ADD COLUMN rateSource TEXT CHECK (rateSource IS NULL OR rateSource IN ('table', 'given'))",
            ]
        ),
    ]

    static var version: Int { migrations.count }

    /// Creates or upgrades Tally's tables, one machine at a time. Refuses a database whose
    /// tables are not Tally's, or whose Tally is newer than this one.
    static func migrate(_ session: PostgresSession) throws(TallyError) {
        // Every command opens the database: one with exactly this version's migrations needs
        // neither the lock nor the list of tables (whose `information_schema` view costs the
        // server more than the month report's reads).
        if try isCurrent(session) { return }
        try session.query("SELECT pg_advisory_lock(\(migrationLock))")
        defer { _ = try? session.query("SELECT pg_advisory_unlock(\(migrationLock))") }
        let tables = try session.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
        ).map { row throws(TallyError) in try row.string(0) }
        let applied: [String]
        if tables.contains("tally_migration") {
            applied = try session.query("SELECT name FROM tally_migration ORDER BY name").map { row throws(TallyError) in try row.string(0) }
        } else if tables.isEmpty {
            applied = []
        } else {
            throw .notADatabase(path: session.location.description, reason: "it holds tables that are not Tally's")
        }
        let known = migrations.map(\.name)
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw .databaseTooNew(path: session.location.description, unknownMigrations: unknown) }
        for migration in migrations where !applied.contains(migration.name) {
            try session.transaction(writing: true) { () throws(TallyError) in
                try session.query("CREATE TABLE IF NOT EXISTS tally_migration (name TEXT PRIMARY KEY, appliedAt BIGINT NOT NULL)")
                for statement in migration.sql { try session.query(statement) }
                try fill(after: migration.name, session)
                try session.query(
                    "INSERT INTO tally_migration (name, appliedAt) VALUES ($1, $2)",
                    [.text(migration.name), .int(Int64(Date().timeIntervalSince1970 * 1000))])
            }
        }
    }

    /// Whether the database has `tally_migration` with every migration of this version and no other.
    private static func isCurrent(_ session: PostgresSession) throws(TallyError) -> Bool {
        let exists = try session.query("SELECT to_regclass('tally_migration') IS NOT NULL").first?.bool(0) ?? false
        guard exists else { return false }
        let applied = try session.query("SELECT name FROM tally_migration").map { row throws(TallyError) in try row.string(0) }
        return Set(applied) == Set(migrations.map(\.name))
    }

    /// What a migration computes in Swift once its statements ran: figures by Core's rules.
    private static func fill(after migration: String, _ session: PostgresSession) throws(TallyError) {
        switch migration {
        case "v5-caches": try PostgresCaches(session: session, withLines: false).rebuildMonths()
        case "v6-expense-days": try PostgresCaches(session: session, withLines: false).rebuildDays()
        case "v8-expense-accounts": try PostgresCaches(session: session, withLines: false).rebuildAccountDays()
        case "v12-why-over-groups": try PostgresCaches(session: session, withLines: false).rebuildGroups()
        case "v18-report-bounds":
            try PostgresCaches(session: session).rebuildDays()
            // A split paid from an account counted an entry per line.
            try PostgresCaches(session: session).rebuildAccountDays()
        default: break
        }
    }
}
