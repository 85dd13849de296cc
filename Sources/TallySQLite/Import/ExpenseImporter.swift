import Foundation
import GRDB
import GRDBSQLite
import TallyCore

/// What an import's transaction asks of SQLite alone (the import itself is Core's,
/// `DataAccess+Import.swift`): the new expenses through an ``ExpenseBatchWriter`` on a larger
/// page cache, and row keys saved by prepared statements.
enum ExpenseImporter {
    /// ``LedgerRows/insertExpenses(_:)``: `body` adds the rows to an ``ExpenseBatchWriter``, whose
    /// caches' sums are saved once it is done. AUTOINCREMENT hands the transaction's rows
    /// consecutive ids, from the last one handed out.
    static func insertExpenses(
        at timestamp: Date, _ db: Database, _ body: (any NewExpenseWriter) throws(TallyError) -> Void
    ) throws(TallyError) -> ExpenseIDRange? {
        let writer = try Writer(db: db, milliseconds: Milliseconds.since1970(timestamp))
        do throws(TallyError) {
            try body(writer)
            try writer.finish()
        } catch {
            // The writer turned the schema's CHECKs off; the connection outlives this transaction.
            try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
            throw error
        }
        guard writer.count > 0 else { return nil }
        return ExpenseIDRange(first: writer.firstID, last: writer.firstID + Int64(writer.count) - 1, count: writer.count)
    }

    /// Sets the connection's page cache to 32 MB and returns the size it had. The default 2 MB
    /// spills a large import to the WAL again and again, its rows and then its row keys; 32 MB
    /// spills far less often, and memory stays bounded.
    static func enlargeCache(_ db: Database) throws(TallyError) -> Int {
        do {
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -32768")
            return cacheSize
        } catch {
            throw SQLiteStore.storageError(error)
        }
    }

    /// An ``ExpenseBatchWriter`` as Core's ``NewExpenseWriter``.
    private final class Writer: NewExpenseWriter {
        let firstID: Int64
        private var writer: ExpenseBatchWriter

        init(db: Database, milliseconds: Int64) throws(TallyError) {
            do {
                firstID = try SQLiteStore.lastExpenseID(db) + 1
                writer = try ExpenseBatchWriter(db: db, milliseconds: milliseconds)
            } catch {
                throw SQLiteStore.storageError(error)
            }
        }

        var count: Int { writer.count }

        func add(_ expense: Expense, nameKey: String) throws(TallyError) {
            do {
                try writer.append(expense, budgetID: expense.budgetID, nameKey: nameKey)
            } catch {
                throw SQLiteStore.storageError(error)
            }
        }

        func finish() throws(TallyError) {
            do {
                try writer.finish()
            } catch {
                throw SQLiteStore.storageError(error)
            }
        }
    }

    /// Every row key as ``RowImage/importedRows(batch:keys:)``, by batch (0 for keys from
    /// before `v10`), read through SQLite's C API: a dry run of an import reads a million.
    static func rowKeyBatches(_ db: Database) throws -> [RowImage] {
        var batches: [Int64: [Int64]] = [:]
        let statement = try RawStatement(db, "SELECT coalesce(batch, 0), key FROM importedRow")
        try statement.forEachRow { row in batches[sqlite3_column_int64(row, 0), default: []].append(sqlite3_column_int64(row, 1)) }
        return batches.keys.sorted().map { batch in .importedRows(batch: batch, keys: batches[batch] ?? []) }
    }

    /// Saves row keys of import `batch` (`nil` for none) 500 to a prepared statement; ascending
    /// keys (an import saves its new ones sorted) let SQLite append to its pages instead of
    /// splitting them at random. A key already there is kept as it is.
    static func saveRowKeys(_ keys: [Int64], batch: Int64?, _ db: Database) throws {
        guard !keys.isEmpty else { return }
        let perStatement = 500
        let batchValue = batch.map(String.init) ?? "NULL"
        func statement(rows: Int) throws -> RawStatement {
            try RawStatement(
                db, "INSERT OR IGNORE INTO importedRow (key, batch) VALUES " + Array(repeating: "(?, \(batchValue))", count: rows).joined(separator: ","))
        }
        let full = try statement(rows: perStatement)
        var index = 0
        while index + perStatement <= keys.count {
            for offset in 0..<perStatement { full.bind(Int32(offset + 1), keys[index + offset]) }
            try full.step()
            index += perStatement
        }
        if index < keys.count {
            let last = try statement(rows: keys.count - index)
            for offset in 0..<(keys.count - index) { last.bind(Int32(offset + 1), keys[index + offset]) }
            try last.step()
        }
    }
}

/// Writes new expenses 1,024 to an `INSERT` statement bound through SQLite's C API, inside the
/// caller's transaction: each statement costs SQLite a fixed setup (cursors on the table, its
/// indexes and the parents of its foreign keys, the AUTOINCREMENT counter), which one row per
/// statement paid for every row. Tag set ids are looked up in a dictionary instead of queries.
/// Callers validate the expenses and check their budget ids first.
struct ExpenseBatchWriter {
    /// Rows per `INSERT`; 11 parameters each, below SQLite's limit of 32,766. A statement that
    /// may fail half way (any CHECK calling a function may) first copies every page it is about
    /// to change to a statement journal, so it can undo just itself; pages it creates are not
    /// copied. Small batches copy about a page per row, far more than the import's other writes;
    /// at 1,024 rows the table and index pages it fills are mostly new.
    private static let batchSize = 1_024
    /// The tag set cache is emptied when it reaches this size, so distinct tag lists stay bounded.
    private static let cacheLimit = 65_536

    private let db: Database
    private let milliseconds: Int64
    private let fullBatch: RawStatement
    private var pending: [PendingExpense] = []
    private var tagSetIDs: [[String]: Int64] = [:]
    /// The schema's CHECKs are off while this writer runs: every row it writes passed
    /// `Expense.validated()` (and a budget it creates `Budget.validated()`), which refuse all the
    /// CHECKs refuse (`SchemaChecksTests` holds them to that). Evaluated for every row, they are a
    /// large part of SQLite's work in an import.
    /// Its makers (``ExpenseImporter/insertExpenses(at:_:_:)``, `SQLiteStore.insertInBulk`) turn
    /// them back on however it ends.
    /// The rows' sums for `budgetMonth` and `expenseDay`, written once at the end.
    private var caches: ExpenseCaches
    /// How many expenses have been written so far.
    private(set) var count = 0

    /// `milliseconds` is both timestamps of every expense written.
    init(db: Database, milliseconds: Int64) throws {
        self.db = db
        self.milliseconds = milliseconds
        caches = try ExpenseCaches(db)
        // Set before the statements are compiled: SQLite leaves the CHECKs out of their code.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        fullBatch = try RawStatement(db, ExpenseRecord.insertSQL(rows: Self.batchSize))
        pending.reserveCapacity(Self.batchSize)
    }

    /// Queues a validated expense; `nameKey` is its folded name.
    mutating func append(_ expense: Expense, budgetID: Int64, nameKey: String) throws {
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
            budgetID: budgetID, name: expense.name, nameKey: nameKey, amountCents: expense.amount.cents,
            quantity: expense.quantity, date: expense.date.storedNumber, tagSetID: tagSetID, by: expense.by, accountID: expense.accountID,
            foreign: expense.foreign, detail: expense.isRefund || !expense.lines.isEmpty ? ExpenseDetail.pack(expense) : ""))
        if pending.count == Self.batchSize { try flush() }
    }

    /// Writes what is still queued and adds the rows to the caches.
    /// The writer must not be used afterwards.
    mutating func finish() throws {
        try flush()
        // Turning them on again expires every compiled statement, which recompiles with them.
        try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        try caches.saveAdded(db)
    }

    private mutating func flush() throws {
        guard !pending.isEmpty else { return }
        let statement =
            pending.count == Self.batchSize ? fullBatch : try RawStatement(db, ExpenseRecord.insertSQL(rows: pending.count))
        var index: Int32 = 0
        var detailed: [(offset: Int, detail: String)] = []
        for (offset, row) in pending.enumerated() {
            statement.bind(index + 1, row.budgetID)
            statement.bind(index + 2, row.name)
            statement.bind(index + 3, row.nameKey)
            statement.bind(index + 4, row.amountCents)
            statement.bind(index + 5, row.quantity)
            statement.bind(index + 6, row.date)
            if let tagSetID = row.tagSetID { statement.bind(index + 7, tagSetID) } else { statement.bindNull(index + 7) }
            statement.bind(index + 8, milliseconds)
            statement.bind(index + 9, milliseconds)
            statement.bind(index + 10, row.by)
            if let accountID = row.accountID { statement.bind(index + 11, accountID) } else { statement.bindNull(index + 11) }
            if let foreign = row.foreign {
                statement.bind(index + 12, foreign.original.minorUnits)
                statement.bind(index + 13, foreign.original.currency.code)
                statement.bind(index + 14, foreign.rate.plainString)
                statement.bind(index + 15, foreign.source.rawValue)
            } else {
                for offset in Int32(12)...15 { statement.bindNull(index + offset) }
            }
            index += 15
            let whole = ExpenseCaches.Row(
                date: row.date, budgetID: row.budgetID, tagSetID: row.tagSetID, by: row.by, nameKey: row.nameKey, name: row.name,
                accountID: row.accountID ?? 0,
                cents: row.amountCents * row.quantity, receiptCents: row.amountCents * row.quantity)
            if row.detail.isEmpty {
                caches.add(whole)
            } else {
                for line in try ExpenseCaches.Row.rows(whole, detail: row.detail, db) { caches.add(line) }
                detailed.append((offset, row.detail))
            }
        }
        try statement.step()
        // The batch's ids are consecutive (AUTOINCREMENT, one statement); the few splits and
        // refunds get their text after it, leaving the batch's statement as every import binds it.
        let first = db.lastInsertedRowID - Int64(pending.count) + 1
        for (offset, detail) in detailed {
            try db.execute(sql: "UPDATE expense SET detail = ? WHERE id = ?", arguments: [detail, first + Int64(offset)])
        }
        count += pending.count
        pending.removeAll(keepingCapacity: true)
        try caches.savePartIfFull(db)
    }
}

/// A prepared statement stepped through SQLite's C API. GRDB owns and finalizes it.
struct RawStatement {
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

    /// A statement the connection keeps prepared (`Database.cachedStatement`), for a query run
    /// again, within a read or across reads.
    init(cached db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
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

    /// `value` bound with its terminating NUL, so SQLite keeps it as terminated text and a
    /// `length()` in a `CHECK` does not copy it again (three a row of a rate import); only for
    /// texts that hold no NUL (currency codes, rates' digits), which would end them early.
    func bindTerminated(_ index: Int32, _ value: String) {
        _ = value.withCString { text in sqlite3_bind_text(handle, index, text, -1, RawStatement.transient) }
    }

    /// Steps a one-column query, handing each integer to `body`.
    func forEachInteger(_ body: (Int64) -> Void) throws(TallyError) {
        try forEachRow { row in body(sqlite3_column_int64(row, 0)) }
    }

    /// Steps a query, handing the statement to `body` at each row to read its columns.
    /// Column `column` of a row `forEachRow` stepped to, as text by its bytes and length.
    static func text(_ row: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(row, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(row, column))), as: UTF8.self)
    }

    func forEachRow(_ body: (OpaquePointer) -> Void) throws(TallyError) {
        try forEachRow(while: { row in
            body(row)
            return true
        })
    }

    /// Steps a query while `body` returns true.
    func forEachRow(while body: (OpaquePointer) -> Bool) throws(TallyError) {
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            guard body(handle) else { return }
        }
    }

    func step() throws(TallyError) {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> TallyError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "error \(code)"
        return .storage("database error: \(message)")
    }
}

/// One row waiting for its batch.
private struct PendingExpense {
    var budgetID: Int64
    var name: String
    var nameKey: String
    var amountCents: Int64
    var quantity: Int64
    var date: Int64
    var tagSetID: Int64?
    var by: String
    var accountID: Int64?
    var foreign: ForeignCharge?
    /// ``ExpenseDetail``'s text of a split or refund; empty for nearly every row.
    var detail: String = ""
}
