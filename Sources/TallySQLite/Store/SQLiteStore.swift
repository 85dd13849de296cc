import Foundation
import GRDB
import TallyCore

/// The `DataAccess` that lasts: an SQLite file through GRDB.
///
/// A value exists only once the schema is migrated. Every method is one transaction;
/// writes begin `IMMEDIATE` (GRDB's default for writes), so concurrent writers wait on the
/// busy timeout instead of failing half way.
public final class SQLiteStore: DataAccess {
    let dbWriter: any DatabaseWriter
    private let clock: @Sendable () -> Date
    private let concurrentReads = ConcurrentReads()
    /// The file, `:memory:` for a private in-memory database.
    let path: String
    /// False for a file this store created: it holds nothing to keep in a snapshot yet.
    let keepsAutomaticSnapshots: Bool
    let dailyCheck = DailySnapshotCheck()

    /// Opens (creating if needed, folder 0700 and file 0600) and migrates the database at `path`.
    ///
    /// An existing file whose header does not show a Tally database of this version is first
    /// inspected read-only, so a file that is not a Tally database, or one written by a newer
    /// Tally, is reported and left byte for byte as it was.
    public convenience init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) {
        let created = try Self.createFileIfMissing(at: path)
        if !created, try !Self.isCurrentTallyFile(path) {
            try Self.inspect(path)
        }
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: Self.configuration)
        } catch {
            throw Self.openingError(error, path: path)
        }
        try self.init(dbQueue, clock: clock, path: path, keepsAutomaticSnapshots: !created)
    }

    /// A private in-memory SQLite database with the production configuration, for tests.
    public static func inMemory(clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) -> SQLiteStore {
        do {
            return try SQLiteStore(DatabaseQueue(configuration: configuration), clock: clock, path: ":memory:", keepsAutomaticSnapshots: false)
        } catch {
            throw Self.openingError(error, path: ":memory:")
        }
    }

    private init(
        _ dbWriter: any DatabaseWriter, clock: @escaping @Sendable () -> Date, path: String, keepsAutomaticSnapshots: Bool
    ) throws(TallyError) {
        // While other processes create the same new file this read may fail ("no such table");
        // migrating then retries until the schema is there (see `migrate`). One SELECT is a
        // transaction of its own: `read` would add BEGIN, COMMIT and two `query_only` pragmas.
        let applied = (try? dbWriter.unsafeRead(Schema.appliedMigrations)) ?? []
        // The header check that skips the inspection trusts `user_version`; this holds even if a
        // newer Tally forgot to raise it.
        let unknown = applied.subtracting(Schema.knownMigrations)
        guard unknown.isEmpty else { throw .databaseTooNew(path: path, unknownMigrations: unknown.sorted()) }
        if applied != Schema.knownMigrations {
            if keepsAutomaticSnapshots, !applied.isEmpty {
                try Self.snapshotBeforeMigrating(dbWriter, path: path, at: clock().roundedToMilliseconds)
            }
            do {
                try Self.migrate(dbWriter)
            } catch {
                throw .storage("cannot prepare database at \(quoted(path)): \(Self.describe(error))")
            }
        }
        self.dbWriter = dbWriter
        self.clock = clock
        self.path = path
        self.keepsAutomaticSnapshots = keepsAutomaticSnapshots
    }

    /// A `migration` snapshot of a file of an older schema, unless its settings turned automatic
    /// snapshots off (files from before `v9-snapshots` keep the default).
    private static func snapshotBeforeMigrating(_ dbWriter: any DatabaseWriter, path: String, at when: Date) throws(TallyError) {
        let folder = SnapshotFolder(databasePath: path)
        let limit = (try? dbWriter.unsafeRead(snapshotLimit)) ?? SnapshotLimit.standard
        guard limit > 0 else { return }
        do {
            let snapshot = try dbWriter.writeWithoutTransaction { db in
                try writeSnapshot(of: db, databasePath: path, into: folder, reason: .migration, at: when)
            }
            folder.rotate(keeping: limit, sparing: [snapshot.id])
        } catch {
            throw storageError(error)
        }
    }

    var now: Date { clock().roundedToMilliseconds }

    /// Closes the connection now, which folds the WAL into the file as the last connection
    /// does. Every later call throws.
    public func close() throws(TallyError) {
        do {
            try dbWriter.close()
        } catch {
            throw Self.storageError(error)
        }
    }

    /// Processes opening a new file at once race to apply the same migration: GRDB reads the
    /// applied ones before its transaction, so the loser fails (`table budget already exists`)
    /// and rolls back; migrating again then finds the migration applied.
    private static func migrate(_ dbWriter: any DatabaseWriter) throws {
        var attempt = 0
        while true {
            do {
                return try Schema.migrator.migrate(dbWriter)
            } catch {
                attempt += 1
                guard attempt <= Schema.knownMigrations.count else { throw error }
            }
        }
    }

    // MARK: - Errors and Transactions

    static func openingError(_ error: any Error, path: String) -> TallyError {
        if let error = error as? TallyError { return error }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            return .notADatabase(path: path, reason: error.message ?? "\(error.resultCode)")
        }
        return .storage("cannot open database at \(quoted(path)): \(describe(error))")
    }

    static func storageError(_ error: any Error) -> TallyError {
        if let error = error as? TallyError { return error }
        if let error = error as? DatabaseError, error.message == "integer overflow" { return .arithmeticOverflow }
        return .storage("database error: \(describe(error))")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return error.reason
    }

    func write<T>(_ updates: (Database) throws -> T) throws(TallyError) -> T {
        let daily = try snapshotBeforeTheDaysFirstChange()
        do {
            let result = try dbWriter.write(updates)
            daily?.keep()
            return result
        } catch {
            daily?.discard()
            throw Self.storageError(error)
        }
    }

    func read<T>(_ value: (Database) throws -> T) throws(TallyError) -> T {
        do {
            return try concurrentReads.read(dbWriter, value)
        } catch {
            throw Self.storageError(error)
        }
    }

    // MARK: - Testing

    /// Runs raw SQL on the store's own connection, bypassing every rule; tests use it to prove
    /// that the schema itself refuses bad rows.
    func executeUnchecked(_ sql: String) throws {
        try dbWriter.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }

    /// Rows of `budgetMonth` and `expenseDay` that differ from the sums of the expenses
    /// themselves, as text; empty when `ExpenseCaches` kept both caches right.
    func cacheMismatches() throws -> [String] {
        try dbWriter.writeWithoutTransaction { db in
            try Self.fillPortions(db)
            defer { try? db.execute(sql: "DROP TABLE temp.portion") }
            let stored = "SELECT budgetId, month, spentCents, expenseCount FROM budgetMonth WHERE expenseCount <> 0 OR spentCents <> 0"
            let summed = "SELECT budgetId, \(Schema.period("date")), SUM(cents), COUNT(*) FROM portion GROUP BY 1, 2"
            return try Row.fetchAll(db, sql: "\(stored) EXCEPT \(summed) UNION ALL SELECT * FROM (\(summed) EXCEPT \(stored))")
                .map(\.description) + Self.expenseDayMismatches(db) + Self.expenseGroupMismatches(db) + Self.accountDayMismatches(db)
                + Self.danglingLinks(db)
        }
    }

    /// `temp.portion`: what each expense counts in each budget by Core's rule (``Expense/portions``),
    /// one row per plain expense and per line of a split, with its whole expense's total (what a
    /// list by total sorts by), which the caches are checked against.
    private static func fillPortions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE portion (
                date INTEGER, budgetId INTEGER, tagSetId INTEGER, spentBy TEXT, nameKey TEXT, name TEXT, cents INTEGER, receiptCents INTEGER)
            """)
        let insert = try db.makeStatement(sql: "INSERT INTO portion VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for expense in try expenses(ExpenseQuery(), db) {
            let receipt = try expense.total().cents
            for portion in try expense.portions {
                let key = portion.tags.isEmpty ? nil : TagSetKey.make(portion.tags.map(\.composedTag))
                let tagSetID = try key.flatMap { try Int64.fetchOne(db, sql: "SELECT id FROM tagSet WHERE tags = ?", arguments: [$0]) }
                try insert.execute(arguments: [
                    expense.date.storedNumber, portion.budgetID, tagSetID, expense.by, portion.nameKey, portion.name, portion.amount.cents, receipt,
                ])
            }
        }
    }

    /// `expenseGroup` against the groups of each period's expenses, under the ledger's calendar.
    private static func expenseGroupMismatches(_ db: Database) throws -> [String] {
        let stored = "SELECT budgetId, month, nameKey, tagSetId, name, spentCents, expenseCount FROM expenseGroup"
        let summed = """
            SELECT budgetId, \(Schema.period("date")), nameKey, ifnull(tagSetId, 0), min(name), SUM(cents), COUNT(*)
            FROM portion GROUP BY 1, 2, 3, 4
            """
        return try Row.fetchAll(db, sql: "\(stored) EXCEPT \(summed) UNION ALL SELECT * FROM (\(summed) EXCEPT \(stored))")
            .map { "expenseGroup \($0)" }
    }

    /// `accountDay` against Core's rule over every income, transfer and expense paid from an account.
    private static func accountDayMismatches(_ db: Database) throws -> [String] {
        var incomes: [Income] = []
        var transfers: [Transfer] = []
        for row in try accountImages(db) {
            if case .income(let income) = row { incomes.append(income) }
            if case .transfer(let transfer) = row { transfers.append(transfer) }
        }
        let expenses = try expenses(ExpenseQuery(), db).filter { $0.accountID != nil }
        let rule = try AccountDay.sums(incomes: incomes, transfers: transfers, expenses: expenses)
        let stored = try AccountDays.read(db)
        guard rule != stored else { return [] }
        return ["accountDay: stored \(stored.count) days, the rule \(rule.count): "
            + Set(stored).symmetricDifference(rule).map { "\($0.accountID) \($0.date.isoString) \($0.change.cents) \($0.income.cents) \($0.entries)" }.sorted()
                .joined(separator: ", ")]
    }

    /// Links that name a row that is gone: their writers keep them, with no foreign key
    /// (`Schema.v27WriterKeptLinks`).
    private static func danglingLinks(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: """
            SELECT 'recurringPayment', ruleId, date, expenseId FROM recurringPayment
            WHERE expenseId IS NOT NULL AND NOT EXISTS (SELECT 1 FROM expense WHERE id = expenseId)
            UNION ALL SELECT 'removedExpense', changeSetId, id, NULL FROM removedExpense
            WHERE NOT EXISTS (SELECT 1 FROM changeSet WHERE id = changeSetId)
            UNION ALL SELECT 'removedImportedRow', changeSetId, key, NULL FROM removedImportedRow
            WHERE NOT EXISTS (SELECT 1 FROM changeSet WHERE id = changeSetId)
            """).map { "dangling link \($0)" }
    }

    /// How many rows a table of rows kept beside change sets holds (`Schema.v11RemovedRows`).
    func keptRowCount(_ table: String) throws -> Int {
        try dbWriter.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    /// The tables `table`'s foreign keys name, sorted.
    func foreignKeyTargets(of table: String) throws -> [String] {
        try dbWriter.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?) ORDER BY 1", arguments: [table])
        }
    }

    /// The schema's triggers, by name.
    func triggerNames() throws -> [String] {
        try dbWriter.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name") }
    }

    /// A pragma's value as the store's own connection sees it.
    func pragma(_ name: String) throws -> String? {
        try dbWriter.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }
}
