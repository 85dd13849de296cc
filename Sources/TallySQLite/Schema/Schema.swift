import GRDB

/// The database schema, one named migration per change. A released migration is never edited:
/// the fixtures under `Tests/TallySQLiteTests/Fixtures` prove that old files still open. This
/// file holds the migrator and what the migrations share; the migrations themselves read in
/// order, as a history of the schema, in `SchemaV1toV2.swift` to `SchemaV27.swift`.
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
        migrator.registerMigration("v14-accounts", migrate: v14Accounts)
        migrator.registerMigration("v15-expense-accounts", migrate: v15ExpenseAccounts)
        migrator.registerMigration("v16-profile-skip", migrate: v16ProfileSkip)
        migrator.registerMigration("v17-statement-accounts", migrate: v17StatementAccounts)
        migrator.registerMigration("v18-budget-goals", migrate: v18BudgetGoals)
        migrator.registerMigration("v19-why-over-groups", migrate: v19WhyOverGroups)
        migrator.registerMigration("v20-foreign-amounts", migrate: v20ForeignAmounts)
        migrator.registerMigration("v21-expense-lines", migrate: v21ExpenseLines)
        migrator.registerMigration("v22-budget-currency", migrate: v22BudgetCurrency)
        migrator.registerMigration("v23-serve-tokens", migrate: v23ServeTokens)
        migrator.registerMigration("v24-rule-detail", migrate: v24RuleDetail)
        migrator.registerMigration("v25-report-bounds", migrate: v25ReportBounds)
        migrator.registerMigration("v26-foreign-incomes", migrate: v26ForeignIncomes)
        migrator.registerMigration("v27-writer-kept-links", migrate: v27WriterKeptLinks)
        return migrator
    }

    /// `PRAGMA application_id`: "Taly". With `user_version`, which every migration from `v3` on
    /// sets to its number, a file's first 100 bytes tell whether it is a current Tally database
    /// (see `SQLiteStore.inspect`).
    static let applicationID: Int32 = 0x5461_6C79
    static let version: Int32 = 27

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
    static let controlCharacter = "*[\u{1}-\u{1F}\u{7F}-\u{9F}\u{2028}\u{2029}]*"
}
