import Foundation
import GRDB
import GRDBSQLite
import TallyCore

/// Writes one import inside the caller's transaction, on two threads: a helper thread runs
/// `rows` (reading, mapping and validating the file) while this one, which owns the
/// connection, writes what it has handed over through a bounded queue. Rows are written 1,024
/// to an `INSERT` statement bound through SQLite's C API: each statement costs SQLite a fixed
/// setup (cursors on the table, its three indexes and the parents of its foreign keys, the
/// AUTOINCREMENT counter), which one row per statement paid a million times. Budget and tag set
/// ids are looked up in dictionaries instead of queries.
struct ExpenseImporter {
    private let db: Database
    private let timestamp: Date
    private let milliseconds: Int64

    init(db: Database, timestamp: Date) {
        self.db = db
        self.timestamp = timestamp
        milliseconds = Milliseconds.since1970(timestamp)
    }

    /// Caches are emptied when they reach this size, so a file of distinct names stays bounded.
    private static let cacheLimit = 65_536
    /// Rows per `INSERT`; 9 parameters each, below SQLite's limit of 32,766. A statement that
    /// may fail half way (any CHECK calling a function may) first copies every page it is about
    /// to change to a statement journal, so it can undo just itself; pages it creates are not
    /// copied. At 64 rows that was one page per row, 20 times the import's other writes; at
    /// 1,024 rows the table and index pages it fills are mostly new.
    private static let batchSize = 1_024

    /// Runs `body`, which opens the import's transaction, with the connection set for one.
    ///
    /// The default 2 MB page cache spills a large import to the WAL again and again; 32 MB halved
    /// the time of a million rows, and memory stays bounded. Statement journals (see `batchSize`)
    /// stay in memory instead of a temporary file; SQLite decides that when a transaction begins.
    static func withBulkSettings<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        let tempStore = try Int.fetchOne(db, sql: "PRAGMA temp_store") ?? 0
        try db.execute(sql: "PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize); PRAGMA temp_store = \(tempStore)") }
        return try body()
    }

    func run(_ request: ImportRequest, rows: (_ insert: ImportInsert) throws(TallyError) -> String?) throws -> ImportOutcome {
        var budgets: [Budget] = []
        for record in try BudgetRecord.fetchAll(db, sql: "SELECT * FROM budget") { budgets.append(try record.model()) }
        var resolver = ImportBudgetResolver(existing: budgets)
        var created: [String] = []
        for budget in request.newBudgets {
            let budget = try budget.validated()
            guard !resolver.contains(budget) else { continue }
            let saved = try insertBudget(budget)
            resolver.register(saved)
            created.append(saved.name)
        }

        var tagSetIDs: [[String]: Int64] = [:]
        var pending: [PendingExpense] = []
        pending.reserveCapacity(Self.batchSize)
        let fullBatch = try RawStatement(db, Self.insertSQL(rows: Self.batchSize))
        var count = 0

        func flush() throws {
            guard !pending.isEmpty else { return }
            let statement = pending.count == Self.batchSize ? fullBatch : try RawStatement(db, Self.insertSQL(rows: pending.count))
            var index: Int32 = 0
            for row in pending {
                statement.bind(index + 1, row.budgetID)
                statement.bind(index + 2, row.name)
                statement.bind(index + 3, row.nameKey)
                statement.bind(index + 4, row.amountCents)
                statement.bind(index + 5, row.quantity)
                statement.bind(index + 6, row.date)
                if let tagSetID = row.tagSetID { statement.bind(index + 7, tagSetID) } else { statement.bindNull(index + 7) }
                statement.bind(index + 8, milliseconds)
                statement.bind(index + 9, milliseconds)
                index += 9
            }
            try statement.step()
            count += pending.count
            pending.removeAll(keepingCapacity: true)
        }

        func write(_ row: ImportRow) throws {
            let expense = row.expense
            let budgetName = row.budgetName
            var budgetID = resolver.id(for: budgetName)
            if budgetID == nil, let limit = request.missingBudgetLimit {
                let saved = try insertBudget(try Budget(name: budgetName, limit: limit).validated())
                resolver.register(saved, spelling: budgetName)
                created.append(saved.name)
                budgetID = saved.id
            }
            guard let budgetID else { return resolver.markMissing(budgetName) }
            var tagSetID: Int64?
            if !expense.tags.isEmpty {
                if let cached = tagSetIDs[expense.tags] {
                    tagSetID = cached
                } else {
                    tagSetID = try SQLiteStore.tagSetID(expense.tags, db)
                    if tagSetIDs.count >= Self.cacheLimit { tagSetIDs.removeAll(keepingCapacity: true) }
                    tagSetIDs[expense.tags] = tagSetID
                }
            }
            pending.append(PendingExpense(
                budgetID: budgetID, name: expense.name, nameKey: row.nameKey, amountCents: expense.amount.cents,
                quantity: expense.quantity, date: row.date, tagSetID: tagSetID))
            if pending.count == Self.batchSize { try flush() }
        }

        let fingerprint = try RowPipeline.run(rows, write: write)
        try flush()

        let missing = resolver.missingNames
        guard missing.isEmpty else { throw TallyError.unknownBudgets(missing) }
        if let fingerprint {
            if let earlier = try Self.record(fingerprint: fingerprint, db), !request.force {
                throw TallyError.alreadyImported(file: request.source, importedAt: earlier.importedAt, expenseCount: earlier.expenseCount)
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO importLog (fingerprint, importedAt, rowCount) VALUES (?, ?, ?)",
                arguments: [fingerprint, milliseconds, count])
        }
        return ImportOutcome(importedCount: count, createdBudgets: created)
    }

    private static func insertSQL(rows: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        return "INSERT INTO expense (budgetId, name, nameKey, amountCents, quantity, date, tagSetId, createdAt, updatedAt) VALUES \(values)"
    }

    static func record(fingerprint: String, _ db: Database) throws -> ImportRecord? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT importedAt, rowCount FROM importLog WHERE fingerprint = ?", arguments: [fingerprint])
        else { return nil }
        return ImportRecord(fingerprint: fingerprint, importedAt: Milliseconds.date(row["importedAt"]), expenseCount: row["rowCount"])
    }

    private func insertBudget(_ budget: Budget) throws -> Budget {
        var budget = budget
        budget.createdAt = timestamp
        budget.updatedAt = timestamp
        var record = BudgetRecord(budget)
        record.id = nil
        do {
            try record.insert(db)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw TallyError.duplicateBudget(budget.name)
        }
        budget.id = record.id
        return budget
    }
}

/// A prepared statement stepped through SQLite's C API. GRDB owns and finalizes it.
private struct RawStatement {
    private let statement: Statement
    private let handle: OpaquePointer
    private let connection: OpaquePointer?

    // SQLITE_TRANSIENT: SQLite copies the text before the Swift buffer goes away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would read as NULL.
            if let base = bytes.baseAddress {
                _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                    sqlite3_bind_text(handle, index, text, Int32(bytes.count), RawStatement.transient)
                }
            } else {
                sqlite3_bind_text(handle, index, "", 0, RawStatement.transient)
            }
        }
    }

    func step() throws(TallyError) {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "error \(code)"
            throw .storage("database error: \(message)")
        }
    }
}

/// One row waiting for its batch.
private struct PendingExpense {
    var budgetID: Int64
    var name: String
    var nameKey: String
    var amountCents: Int64
    var quantity: Int64
    var date: String
    var tagSetID: Int64?
}
