import Foundation
import GRDB
import TallyCore

/// The `DataAccess` that lasts: an SQLite file through GRDB.
///
/// A value exists only once the schema is migrated. Every method is one transaction;
/// writes begin `IMMEDIATE` (GRDB's default for writes), so concurrent writers wait on the
/// busy timeout instead of failing half way.
public final class SQLiteStore: DataAccess {
    private let dbWriter: any DatabaseWriter
    private let clock: @Sendable () -> Date
    private let concurrentReads = ConcurrentReads()

    /// Opens (creating if needed, folder 0700 and file 0600) and migrates the database at `path`.
    ///
    /// An existing file whose header does not show a Tally database of this version is first
    /// inspected read-only, so a file that is not a Tally database, or one written by a newer
    /// Tally, is reported and left byte for byte as it was.
    public convenience init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) {
        if try !Self.createFileIfMissing(at: path), try !Self.isCurrentTallyFile(path) {
            try Self.inspect(path)
        }
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: Self.configuration)
        } catch {
            throw Self.openingError(error, path: path)
        }
        try self.init(dbQueue, clock: clock, path: path)
    }

    /// A private in-memory SQLite database with the production configuration, for tests.
    public static func inMemory(clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) -> SQLiteStore {
        do {
            return try SQLiteStore(DatabaseQueue(configuration: configuration), clock: clock, path: ":memory:")
        } catch {
            throw Self.openingError(error, path: ":memory:")
        }
    }

    private init(_ dbWriter: any DatabaseWriter, clock: @escaping @Sendable () -> Date, path: String) throws(TallyError) {
        // While other processes create the same new file this read may fail ("no such table");
        // migrating then retries until the schema is there (see `migrate`). One SELECT is a
        // transaction of its own: `read` would add BEGIN, COMMIT and two `query_only` pragmas.
        let applied = (try? dbWriter.unsafeRead(Schema.appliedMigrations)) ?? []
        // The header check that skips the inspection trusts `user_version`; this holds even if a
        // newer Tally forgot to raise it.
        let unknown = applied.subtracting(Schema.knownMigrations)
        guard unknown.isEmpty else { throw .databaseTooNew(path: path, unknownMigrations: unknown.sorted()) }
        if applied != Schema.knownMigrations {
            do {
                try Self.migrate(dbWriter)
            } catch {
                throw .storage("cannot prepare database at \(quoted(path)): \(Self.describe(error))")
            }
        }
        self.dbWriter = dbWriter
        self.clock = clock
    }

    private var now: Date { clock().roundedToMilliseconds }

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

    // MARK: - Database Configuration

    /// A one-shot CLI process needs a single connection, so a `DatabaseQueue` in WAL mode:
    /// readers in other processes never block it, and `tally budget list` took 25 ms against
    /// 32 ms with a `DatabasePool` (debug build, hyperfine).
    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            guard !db.configuration.readonly else { return }
            try enableWAL(db)
            // WAL's usual NORMAL can lose the last commits on power loss; an expense must survive it.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    /// Switching a new file to WAL needs it alone, and SQLite answers BUSY at once instead of
    /// calling the busy handler when other processes open it at the same moment; so retry.
    private static func enableWAL(_ db: Database) throws {
        var attempt: UInt32 = 0
        while true {
            do {
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 100 {
                attempt += 1
                usleep(5_000 * min(attempt, 10))
            }
        }
    }

    /// Returns whether it created the file; creates the missing folders 0700 and the file 0600,
    /// before SQLite opens it, so its `-wal` and `-shm` files inherit the file's mode.
    private static func createFileIfMissing(at path: String) throws(TallyError) -> Bool {
        guard path != ":memory:", !FileManager.default.fileExists(atPath: path) else { return false }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileSystem.makeFolder(folder.isEmpty ? "." : folder)
            return try FileSystem.createPrivateFile(path)
        } catch {
            throw .storage("cannot create database at \(quoted(path)): \(error.reason)")
        }
    }

    /// Checks an existing file through a read-only connection before anything may write to it.
    ///
    /// Another process may be creating the same new file this very moment, so an error that is
    /// not a verdict on the file is retried before it is reported.
    private static func inspect(_ path: String) throws(TallyError) {
        try checkNotTruncated(path)
        var attempt: UInt32 = 0
        while true {
            do throws(TallyError) {
                return try inspectOnce(path)
            } catch {
                attempt += 1
                guard case .storage = error, attempt < 5 else { throw error }
                usleep(20_000 * attempt)
            }
        }
    }

    /// SQLite trusts the page count in a file's header and reads missing pages as zeros, so a
    /// file cut short (a partial copy, a full disk) would open and the next write corrupt it.
    /// A WAL or a rollback journal may still hold the missing pages, so only a file without
    /// either is judged.
    private static func checkNotTruncated(_ path: String) throws(TallyError) {
        guard hasNoWALOrJournal(path), let header = FileHeader(path: path) else { return }
        try checkNotTruncated(path, header)
    }

    private static func checkNotTruncated(_ path: String, _ header: FileHeader) throws(TallyError) {
        guard let expected = header.announcedSize, FileSystem.size(path) < expected else { return }
        throw .notADatabase(path: path, reason: "it is truncated: \(FileSystem.size(path)) bytes of the \(expected) its header announces")
    }

    /// Whether the header alone shows a Tally database of this version, which needs no
    /// inspection: opening a second, read-only connection for it cost `tally add` about 0.7 ms.
    /// A WAL or a journal may hold a newer header, so a file with either is inspected.
    private static func isCurrentTallyFile(_ path: String) throws(TallyError) -> Bool {
        guard hasNoWALOrJournal(path), let header = FileHeader(path: path) else { return false }
        try checkNotTruncated(path, header)
        return header.applicationID == Schema.applicationID && header.userVersion == Schema.version
    }

    private static func hasNoWALOrJournal(_ path: String) -> Bool {
        FileSystem.size(path + "-wal") == 0 && FileSystem.size(path + "-journal") == 0
    }

    private static func inspectOnce(_ path: String) throws(TallyError) {
        let sidecars = ["-wal", "-shm"].map { path + $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            let verdict = try dbQueue.read(Self.verdict)
            try dbQueue.close()
            switch verdict {
            case .tally: return
            case .otherApplication:
                throw TallyError.notADatabase(path: path, reason: "it is an SQLite database of another application")
            case .tooNew(let unknown):
                throw TallyError.databaseTooNew(path: path, unknownMigrations: unknown)
            }
        } catch {
            let failure = openingError(error, path: path)
            // A read-only connection may leave empty WAL files behind; remove those it made, but
            // only on a verdict and while the WAL is empty: after any other error another process
            // may be using them, and deleting a live WAL loses its commits.
            let wal = path + "-wal"
            let walIsEmpty = FileSystem.size(wal) == 0
            switch failure {
            case .notADatabase, .databaseTooNew:
                if walIsEmpty {
                    for sidecar in sidecars { try? FileManager.default.removeItem(atPath: sidecar) }
                }
            default: break
            }
            throw failure
        }
    }

    private enum Verdict {
        case tally, otherApplication, tooNew([String])
    }

    private static func verdict(_ db: Database) throws -> Verdict {
        let applied = try Schema.appliedMigrations(db)
        if applied.isEmpty {
            let tables = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!'") ?? 0
            let onlyMigrations = try tables == 1 && db.tableExists("grdb_migrations")
            return tables == 0 || onlyMigrations ? .tally : .otherApplication
        }
        guard applied.contains("v1") else { return .otherApplication }
        let unknown = applied.subtracting(Schema.knownMigrations)
        return unknown.isEmpty ? .tally : .tooNew(unknown.sorted())
    }

    private static func openingError(_ error: any Error, path: String) -> TallyError {
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

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return error.reason
    }

    private func write<T>(_ updates: (Database) throws -> T) throws(TallyError) -> T {
        do {
            return try dbWriter.write(updates)
        } catch {
            throw Self.storageError(error)
        }
    }

    /// One `IMMEDIATE` transaction on a connection set for many rows (see
    /// ``ExpenseImporter/withBulkSettings(_:_:)``, which must act before the transaction begins).
    private func bulkWrite<T>(_ updates: (Database) throws -> T) throws(TallyError) -> T {
        do {
            return try dbWriter.writeWithoutTransaction { db in
                try ExpenseImporter.withBulkSettings(db) {
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try updates(db)
                        return .commit
                    }
                    guard let result else { throw TallyError.storage("the bulk write returned nothing") }
                    return result
                }
            }
        } catch {
            throw Self.storageError(error)
        }
    }

    private func read<T>(_ value: (Database) throws -> T) throws(TallyError) -> T {
        do {
            return try concurrentReads.read(dbWriter, value)
        } catch {
            throw Self.storageError(error)
        }
    }

    // MARK: - Writes

    public func addBudget(_ budget: Budget) throws(TallyError) -> Budget {
        var budget = try budget.validated()
        budget.createdAt = now
        budget.updatedAt = budget.createdAt
        return try write { db in
            try Self.checkUnique(budget, db)
            return try Self.insert(budget, db)
        }
    }

    /// Saves a validated, timestamped budget under a new id.
    static func insert(_ budget: Budget, _ db: Database) throws -> Budget {
        var record = BudgetRecord(budget)
        record.id = nil
        try saving(budget) { try record.insert(db) }
        var saved = budget
        saved.id = record.id
        return saved
    }

    public func updateBudget(_ budget: Budget) throws(TallyError) -> Budget {
        var budget = try budget.validated()
        let timestamp = now
        return try write { db in
            guard let id = budget.id, let existing = try BudgetRecord.fetchOne(db, key: id) else {
                throw TallyError.budgetNotFound(budget.name)
            }
            try Self.checkUnique(budget, db)
            budget.createdAt = Milliseconds.date(existing.createdAt)
            budget.updatedAt = timestamp
            let record = BudgetRecord(budget)
            try Self.saving(budget) { try record.update(db) }
            return budget
        }
    }

    public func removeBudget(named name: String, includingExpenses: Bool) throws(TallyError) -> Int {
        try write { db in
            let budget = try Self.find(name, db)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense WHERE budgetId = ?", arguments: [budget.id]) ?? 0
            try budget.checkRemoval(expenseCount: count, includingExpenses: includingExpenses)
            // The foreign keys' ON DELETE CASCADE removes the expenses and the budget's monthly
            // totals, so the per-expense trigger that updates those totals is dropped meanwhile:
            // it took removing 183,520 expenses from 0.64 to 0.92 s.
            let trigger = count > 0 ? try SuspendedTrigger(SuspendedTrigger.delete, db) : nil
            try db.execute(sql: "DELETE FROM budget WHERE id = ?", arguments: [budget.id])
            try trigger?.restore()
            return count
        }
    }

    public func addExpense(_ expense: Expense) throws(TallyError) -> Expense {
        var expense = try expense.validated()
        expense.createdAt = now
        expense.updatedAt = expense.createdAt
        return try write { db in
            try Self.checkBudgetExists(for: expense, db)
            return try Self.insert(expense, db)
        }
    }

    public func addExpense(_ expense: Expense, toBudgetNamed name: String) throws(TallyError) -> (expense: Expense, status: BudgetStatus) {
        var expense = try expense.validated()
        expense.createdAt = now
        expense.updatedAt = expense.createdAt
        return try write { db in
            let budget = try Self.find(name, db)
            expense.budgetID = budget.id ?? 0
            let saved = try Self.insert(expense, db)
            return (saved, try Self.status(of: budget, in: expense.date.monthValue, db))
        }
    }

    private static func insert(_ expense: Expense, _ db: Database) throws -> Expense {
        let record = ExpenseRecord(expense, tagSetId: try tagSetID(expense.tags, db))
        // Plain SQL: a record's insert first reads the table's schema, 3 % of a `tally add`.
        try saving(expense) {
            try db.execute(
                sql: ExpenseRecord.insertSQL(rows: 1),
                arguments: [
                    record.budgetId, record.name, record.nameKey, record.amountCents, record.quantity, record.date,
                    record.tagSetId, record.createdAt, record.updatedAt,
                ])
        }
        var saved = expense
        saved.id = db.lastInsertedRowID
        return saved
    }

    /// One transaction and the import's batched writer for the whole batch: a million expenses
    /// cost one fsync instead of a million. Every expense is validated before anything is written.
    @discardableResult
    public func addExpenses(_ expenses: [Expense]) throws(TallyError) -> Int {
        var validated: [Expense] = []
        validated.reserveCapacity(expenses.count)
        for expense in expenses { validated.append(try expense.validated()) }
        guard !validated.isEmpty else { return 0 }
        let timestamp = Milliseconds.since1970(now)
        return try bulkWrite { db in
            let budgetIDs = try Set(Int64.fetchAll(db, sql: "SELECT id FROM budget"))
            var writer = try ExpenseBatchWriter(db: db, milliseconds: timestamp)
            // Batches repeat the same few names; each is folded once.
            var nameKeys: [String: String] = [:]
            for expense in validated {
                try expense.checkBudget(exists: budgetIDs.contains(expense.budgetID))
                let nameKey = nameKeys[expense.name] ?? {
                    let key = expense.nameKey
                    nameKeys[expense.name] = key
                    return key
                }()
                try writer.append(expense, budgetID: expense.budgetID, nameKey: nameKey)
            }
            try writer.finish()
            return writer.count
        }
    }

    public func updateExpense(_ expense: Expense) throws(TallyError) -> Expense {
        var expense = try expense.validated()
        let timestamp = now
        return try write { db in
            guard let id = expense.id, let existing = try ExpenseRecord.fetchOne(db, key: id) else {
                throw TallyError.expenseNotFound(expense.id ?? 0)
            }
            try Self.checkBudgetExists(for: expense, db)
            expense.createdAt = Milliseconds.date(existing.createdAt)
            expense.updatedAt = timestamp
            let record = ExpenseRecord(expense, tagSetId: try Self.tagSetID(expense.tags, db))
            try Self.saving(expense) { try record.update(db) }
            return expense
        }
    }

    public func removeExpense(id: Int64) throws(TallyError) {
        try write { db in
            try db.execute(sql: "DELETE FROM expense WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw TallyError.expenseNotFound(id) }
        }
    }

    // MARK: - Reads

    public func budget(named name: String) throws(TallyError) -> Budget {
        try read { db in try Self.find(name, db) }
    }

    public func budgets() throws(TallyError) -> [Budget] {
        try read { db in try Self.allBudgets(db) }
    }

    public func expense(id: Int64) throws(TallyError) -> Expense {
        try read { db in
            guard let record = try ExpenseRecord.fetchOne(db, key: id) else { throw TallyError.expenseNotFound(id) }
            return try record.model(tags: Self.tags(of: record.tagSetId, db))
        }
    }

    public func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        let filter = try Filter(query)
        let (order, arguments) = (filter.order, filter.pagedArguments)
        // A page is chosen from the covering index alone and only its rows are then read: the
        // top ten of a month of 40,000 expenses took 50 ms reading every row, 2 ms this way.
        let sql =
            query.limit == nil
            ? "SELECT e.* FROM expense e \(filter.sql) \(order) LIMIT ? OFFSET ?"
            : """
            SELECT e.* FROM (SELECT e.id FROM expense e \(filter.sql) \(order) LIMIT ? OFFSET ?) page
            JOIN expense e ON e.id = page.id \(order)
            """
        return try read { db in
            let records = try ExpenseRecord.fetchAll(db, sql: sql, arguments: arguments)
            let tags = try Self.tags(ofSets: records.compactMap(\.tagSetId), db)
            var expenses: [Expense] = []
            expenses.reserveCapacity(records.count)
            for record in records {
                expenses.append(try record.model(tags: record.tagSetId.flatMap { tags[$0] } ?? []))
            }
            return expenses
        }
    }

    public func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError) {
        let filter = try Filter(query)
        let sql = """
            SELECT e.*, (SELECT s.tags FROM tagSet s WHERE s.id = e.tagSetId) AS tagList
            FROM expense e \(filter.sql) \(filter.order) LIMIT ? OFFSET ?
            """
        let arguments = filter.pagedArguments
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let tagList: String? = row["tagList"]
                try body(try ExpenseRecord(row: row).model(tags: TagSetKey.tags(tagList)))
            }
        }
    }

    public func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int {
        let filter = try Filter(query)
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense e \(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }

    public func budgetStatuses(for month: Month) throws(TallyError) -> [BudgetStatus] {
        try read { db in
            let budgets = try Self.allBudgets(db)
            // Budgets of the same period share one aggregate query.
            var figures: [DayInterval: [Int64: (spent: Money, count: Int)]] = [:]
            for days in Set(budgets.map { $0.interval(for: month) }) {
                figures[days] = try Self.spentByBudget(in: days, db)
            }
            var statuses: [BudgetStatus] = []
            for budget in budgets {
                let figure = figures[budget.interval(for: month)]?[budget.id ?? 0] ?? (.zero, 0)
                statuses.append(
                    try BudgetStatus(budget: budget, month: month, spent: figure.spent, expenseCount: figure.count))
            }
            return statuses
        }
    }

    public func spendingByDay(in days: DayInterval) throws(TallyError) -> [Day: Money] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT date, SUM(amountCents * quantity) AS spent FROM expense
                    WHERE date BETWEEN ? AND ? GROUP BY date
                    """,
                arguments: [days.first.storedNumber, days.last.storedNumber])
            var totals: [Day: Money] = [:]
            for row in rows {
                totals[try Self.day(row["date"])] = Money(cents: row["spent"])
            }
            return totals
        }
    }

    public func spendingByTag(in days: DayInterval) throws(TallyError) -> [String: Money] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                // Summed in the covering index's order first (no sort), then per tag over few rows.
                sql: """
                    SELECT t.name AS tag, SUM(bySet.spent) AS spent
                    FROM (
                        SELECT tagSetId, SUM(amountCents * quantity) AS spent FROM expense
                        WHERE date BETWEEN ? AND ? AND tagSetId IS NOT NULL
                        GROUP BY date, budgetId, tagSetId
                    ) bySet
                    JOIN tagSetTag st ON st.tagSetId = bySet.tagSetId
                    JOIN tag t ON t.id = st.tagId
                    GROUP BY t.id
                    """,
                arguments: [days.first.storedNumber, days.last.storedNumber])
            var totals: [String: Money] = [:]
            for row in rows { totals[row["tag"]] = Money(cents: row["spent"]) }
            return totals
        }
    }

    // MARK: - Report Aggregates

    /// One grouped read of the covering index gives every figure of the month: each group holds
    /// one budget's expenses of one day with one tag set, 744 groups for a month of 41,667
    /// expenses. The groups follow the index's order, so SQLite streams them without sorting
    /// (4 ms; grouping by budget first made it sort the month, 12 ms).
    public func monthSummary(for month: Month) throws(TallyError) -> MonthSummary {
        try read { db in
            let budgets = try Self.allBudgets(db)
            let intervals = budgets.map { $0.interval(for: month) }
            let span = Self.span(month.days, intervals)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT budgetId, date, tagSetId, SUM(amountCents * quantity) AS spent, COUNT(*) AS count
                    FROM expense WHERE date BETWEEN ? AND ?
                    GROUP BY date, budgetId, tagSetId
                    """,
                arguments: [span.first.storedNumber, span.last.storedNumber])
            var groups: [(budgetID: Int64, day: Day, tagSetID: Int64?, spent: Money, count: Int)] = []
            while let row = try rows.next() {
                groups.append((row[0], try Self.day(row[1]), row[2], Money(cents: row[3]), row[4]))
            }

            var groupsByBudget: [Int64: [Int]] = [:]
            for (index, group) in groups.enumerated() { groupsByBudget[group.budgetID, default: []].append(index) }
            var statuses: [BudgetStatus] = []
            statuses.reserveCapacity(budgets.count)
            for (budget, interval) in zip(budgets, intervals) {
                var spent = Money.zero
                var count = 0
                for index in groupsByBudget[budget.id ?? 0] ?? [] where interval.contains(groups[index].day) {
                    spent = try spent + groups[index].spent
                    count += groups[index].count
                }
                statuses.append(try BudgetStatus(budget: budget, month: month, spent: spent, expenseCount: count))
            }

            var spentByDay: [Day: Money] = [:]
            var spentBySet: [Int64: Money] = [:]
            for group in groups where month.days.contains(group.day) {
                spentByDay[group.day] = try (spentByDay[group.day] ?? .zero) + group.spent
                if let set = group.tagSetID { spentBySet[set] = try (spentBySet[set] ?? .zero) + group.spent }
            }
            var spentByTag: [String: Money] = [:]
            let tags = try Self.tags(ofSets: Array(spentBySet.keys), db)
            for (set, spent) in spentBySet {
                for tag in tags[set] ?? [] { spentByTag[tag] = try (spentByTag[tag] ?? .zero) + spent }
            }
            return MonthSummary(month: month, statuses: statuses, spentByDay: spentByDay, spentByTag: spentByTag)
        }
    }

    /// Each distinct period interval is summed once, from the covering index in its order.
    public func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        try read { db in
            let budgets = try Self.allBudgets(db)
            var byInterval: [DayInterval: [Int64: (spent: Money, count: Int)]] = [:]
            var spent: [Month: [Int64: Money]] = [:]
            var month = months.lowerBound
            while true {
                var byBudget: [Int64: Money] = [:]
                for budget in budgets {
                    guard let id = budget.id else { continue }
                    let interval = budget.interval(for: month)
                    if byInterval[interval] == nil { byInterval[interval] = try Self.spentByBudget(in: interval, db) }
                    if let figure = byInterval[interval]?[id] { byBudget[id] = figure.spent }
                }
                spent[month] = byBudget
                guard month < months.upperBound else { return spent }
                month = month.adding(months: 1)
            }
        }
    }

    /// What each budget spent in `days`, and on how many expenses. Grouping by day then budget
    /// follows the covering index, so SQLite streams a month's few hundred groups without sorting
    /// its entries (3 ms against 8 ms for `GROUP BY budgetId` on a month of 41,667 expenses).
    private static func spentByBudget(in days: DayInterval, _ db: Database) throws -> [Int64: (spent: Money, count: Int)] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT budgetId, SUM(amountCents * quantity), COUNT(*) FROM expense
                WHERE date BETWEEN ? AND ? GROUP BY date, budgetId
                """),
            arguments: [days.first.storedNumber, days.last.storedNumber])
        var figures: [Int64: (spent: Money, count: Int)] = [:]
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let figure = figures[id] ?? (.zero, 0)
            figures[id] = (try figure.spent + Money(cents: row[1]), figure.count + row[2])
        }
        return figures
    }

    /// The smallest interval holding `first` and all of `others`.
    private static func span(_ first: DayInterval, _ others: [DayInterval]) -> DayInterval {
        var span = first
        for interval in others {
            span = DayInterval(first: min(span.first, interval.first), last: max(span.last, interval.last))
        }
        return span
    }

    // MARK: - Imports

    public func importExpenses(
        _ request: ImportRequest, rows: (_ insert: ImportInsert) throws(TallyError) -> String?
    ) throws(TallyError) -> ImportOutcome {
        let timestamp = now
        return try bulkWrite { db in try ExpenseImporter(db: db, timestamp: timestamp).run(request, rows: rows) }
    }

    public func importRecord(fingerprint: String) throws(TallyError) -> ImportRecord? {
        try read { db in try ExpenseImporter.record(fingerprint: fingerprint, db) }
    }

    // MARK: - One Budget's Figures

    public func status(of budget: Budget, in month: Month) throws(TallyError) -> BudgetStatus {
        try read { db in try Self.status(of: budget, in: month, db) }
    }

    private static func status(of budget: Budget, in month: Month, _ db: Database) throws -> BudgetStatus {
        let (spent, count) = try figure(of: budget, in: month, db)
        return try BudgetStatus(budget: budget, month: month, spent: Money(cents: spent), expenseCount: count)
    }

    /// `budget`'s figures for `month`, as `tally add` shows them: one row of `budgetMonth` (see
    /// `Schema.v3`) instead of summing the month's expenses, which took a fifth of the command.
    private static func figure(of budget: Budget, in month: Month, _ db: Database) throws -> (spent: Int64, count: Int) {
        switch budget.period {
        case .monthly:
            let stored = try Row.fetchOne(
                db, sql: "SELECT spentCents, expenseCount FROM budgetMonth WHERE budgetId = ? AND month = ?",
                arguments: [budget.id, Int64(month.year) * 100 + Int64(month.month)])
            guard let stored else { return (0, 0) }
            // A REAL marks a sum that overflowed; summing the expenses reports it.
            let spent: DatabaseValue = stored[0]
            if case .int64(let cents) = spent.storage { return (cents, stored[1]) }
            return try sumExpenses(of: budget, in: month, db)
        }
    }

    /// One budget's month summed from its expenses, one index probe per day: a date range would
    /// step over every other budget's entries (3 ms against 0.5 ms on a million expenses).
    private static func sumExpenses(of budget: Budget, in month: Month, _ db: Database) throws -> (spent: Int64, count: Int) {
        let days = Array(budget.interval(for: month))
        let placeholders = Array(repeating: "?", count: days.count).joined(separator: ", ")
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COALESCE(SUM(amountCents * quantity), 0), COUNT(*)
                FROM expense WHERE date IN (\(placeholders)) AND budgetId = ?
                """,
            arguments: StatementArguments(days.map(\.storedNumber)) + [budget.id])
        return row.map { ($0[0], $0[1]) } ?? (0, 0)
    }

    // MARK: - Testing

    /// Runs raw SQL on the store's own connection, bypassing every rule; tests use it to prove
    /// that the schema itself refuses bad rows.
    func executeUnchecked(_ sql: String) throws {
        try dbWriter.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }

    /// Rows of `budgetMonth` that differ from the sums of the expenses themselves, as text;
    /// empty when the triggers and the bulk writers kept every month right.
    func budgetMonthMismatches() throws -> [String] {
        try dbWriter.read { db in
            let stored = "SELECT budgetId, month, spentCents, expenseCount FROM budgetMonth WHERE expenseCount <> 0 OR spentCents <> 0"
            let summed = "SELECT budgetId, date / 100, SUM(amountCents * quantity), COUNT(*) FROM expense GROUP BY 1, 2"
            return try Row.fetchAll(db, sql: "\(stored) EXCEPT \(summed) UNION ALL SELECT * FROM (\(summed) EXCEPT \(stored))")
                .map(\.description)
        }
    }

    /// A pragma's value as the store's own connection sees it.
    func pragma(_ name: String) throws -> String? {
        try dbWriter.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    // MARK: - Helpers

    private static func find(_ name: String, _ db: Database) throws -> Budget {
        let key = NameKey.lookup(name)
        let record = try BudgetRecord.fetchOne(db, sql: "SELECT * FROM budget WHERE nameKey = ?", arguments: [key])
        return try Budget.named(name, found: record?.model())
    }

    private static func allBudgets(_ db: Database) throws -> [Budget] {
        var budgets: [Budget] = []
        for record in try BudgetRecord.fetchAll(db, sql: "SELECT * FROM budget ORDER BY nameKey, id") {
            budgets.append(try record.model())
        }
        return budgets
    }

    private static func checkUnique(_ budget: Budget, _ db: Database) throws {
        let holder = try Int64.fetchOne(db, sql: "SELECT id FROM budget WHERE nameKey = ?", arguments: [budget.nameKey])
        try budget.checkNameIsFree(heldBy: holder)
    }

    /// The day of a stored `date`; the schema's CHECK allows a few that do not exist (`20260231`).
    private static func day(_ number: Int64) throws(TallyError) -> Day {
        guard let day = Day(storedNumber: number) else { throw .storage("an expense has an invalid date \(number)") }
        return day
    }

    private static func checkBudgetExists(for expense: Expense, _ db: Database) throws {
        let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM budget WHERE id = ?)", arguments: [expense.budgetID])
        try expense.checkBudget(exists: exists ?? false)
    }

    /// Runs a budget write, turning a constraint the checks above could not foresee into its rule.
    private static func saving(_ budget: Budget, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw TallyError.duplicateBudget(budget.name)
        }
    }

    private static func saving(_ expense: Expense, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            // The foreign key found no such budget.
            try expense.checkBudget(exists: false)
        }
    }

    /// The id of the set of `tags` (validated), created with its missing tags if it is new;
    /// `nil` for no tags.
    static func tagSetID(_ tags: [String], _ db: Database) throws -> Int64? {
        guard !tags.isEmpty else { return nil }
        let composed = tags.map(\.composedTag)
        let key = TagSetKey.make(composed)
        if let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM tagSet WHERE tags = ?"), arguments: [key]) {
            return existing
        }
        try db.cachedStatement(sql: "INSERT INTO tagSet (tags) VALUES (?)").execute(arguments: [key])
        let setID = db.lastInsertedRowID
        for name in Set(composed) {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO tag (name) VALUES (?)").execute(arguments: [name])
            try db.cachedStatement(sql: "INSERT INTO tagSetTag (tagSetId, tagId) SELECT ?, id FROM tag WHERE name = ?")
                .execute(arguments: [setID, name])
        }
        return setID
    }

    private static func tags(of tagSetID: Int64?, _ db: Database) throws -> [String] {
        guard let tagSetID else { return [] }
        return TagSetKey.tags(try String.fetchOne(db, sql: "SELECT tags FROM tagSet WHERE id = ?", arguments: [tagSetID]))
    }

    /// The tags of each of `tagSetIDs`, in one query whatever their number.
    private static func tags(ofSets tagSetIDs: [Int64], _ db: Database) throws -> [Int64: [String]] {
        guard !tagSetIDs.isEmpty else { return [:] }
        let ids = "[" + Set(tagSetIDs).map(String.init).joined(separator: ",") + "]"
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, tags FROM tagSet WHERE id IN (SELECT value FROM json_each(?))", arguments: [ids])
        var tags: [Int64: [String]] = [:]
        while let row = try rows.next() {
            tags[row["id"]] = TagSetKey.tags(row["tags"])
        }
        return tags
    }

    /// The `WHERE` clause of an expense query.
    /// The WHERE clause of an expense query, its ORDER BY (ties by id in the same direction, so
    /// pages are stable) and its arguments, with LIMIT and OFFSET last for paged reads.
    private struct Filter {
        var sql = ""
        var arguments = StatementArguments()
        let order: String
        let pagedArguments: StatementArguments

        init(_ query: ExpenseQuery) throws(TallyError) {
            let direction = query.descending ? "DESC" : "ASC"
            let key =
                switch query.sort {
                case .date: "e.date"
                case .amount: "e.amountCents"
                case .total: "e.amountCents * e.quantity"
                case .name: "e.nameKey"
                }
            order = "ORDER BY \(key) \(direction), e.id \(direction)"
            var clauses: [String] = []
            if let budgetID = query.budgetID {
                clauses.append("e.budgetId = ?")
                arguments += [budgetID]
            }
            if let days = query.days {
                clauses.append("e.date BETWEEN ? AND ?")
                arguments += [days.first.storedNumber, days.last.storedNumber]
            }
            if let search = query.search.map(NameKey.make), !search.isEmpty {
                clauses.append("instr(e.nameKey, ?) > 0")
                arguments += [search]
            }
            if let tag = query.tag {
                clauses.append(
                    "e.tagSetId IN (SELECT st.tagSetId FROM tagSetTag st JOIN tag t ON t.id = st.tagId WHERE t.name = ?)")
                arguments += [try Expense.normalizedTag(tag).composedTag]
            }
            if !clauses.isEmpty { sql = "WHERE " + clauses.joined(separator: " AND ") }
            pagedArguments = arguments + [query.limit.map { Int64(max($0, 0)) } ?? -1, Int64(max(query.offset, 0))]
        }
    }
}

extension Error {
    /// A one-line reason for a message, without Foundation's boilerplate where possible.
    fileprivate var reason: String {
        if let error = self as? FileSystem.Failure { return error.message }
        return oneLineDescription
    }

    private var oneLineDescription: String {
        (self as NSError).localizedDescription.replacingOccurrences(of: "\n", with: " ")
    }
}

/// The few POSIX calls that set the database's permissions exactly, whatever the umask.
enum FileSystem {
    struct Failure: Error {
        let message: String

        init(errno code: Int32) {
            message = String(cString: strerror(code))
        }
    }

    /// Creates `path` and its missing parents, each readable by its owner only.
    static func makeFolder(_ path: String) throws(Failure) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw Failure(errno: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolder(parent) }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            guard code == EEXIST else { throw Failure(errno: code) }
            return
        }
        guard chmod(path, 0o700) == 0 else { throw Failure(errno: errno) }
    }

    /// The size of the file at `path`, 0 when there is none. A bare `stat`: FileManager's
    /// attributes also look up the owner's name, which reads `/etc/passwd` on every open.
    static func size(_ path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// Creates an empty file with mode 0600; returns false when it already exists.
    static func createPrivateFile(_ path: String) throws(Failure) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { return false }
            throw Failure(errno: code)
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw Failure(errno: errno) }
        return true
    }
}
