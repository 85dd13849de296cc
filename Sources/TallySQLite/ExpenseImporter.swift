import Foundation
import GRDB
import GRDBSQLite
import TallyCore

/// Writes one import inside the caller's transaction. A million rows cost a million steps of
/// three prepared statements bound through SQLite's C API (no per-row argument arrays), with
/// budget ids, tag ids, name keys and dates looked up in dictionaries instead of queries.
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

    func run(_ request: ImportRequest, rows: (_ insert: ImportInsert) throws(TallyError) -> String?) throws -> ImportOutcome {
        // The default 2 MB page cache spills a large import to the WAL again and again; 32 MB
        // halved the time of a million rows, and memory stays bounded.
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -32768")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
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

        var tagIDs: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM tag") { tagIDs[row["name"]] = row["id"] }
        var tagIDsBySpelling: [String: Int64] = [:]
        var nameKeys: [String: String] = [:]
        var dates: [Day: String] = [:]
        let insertExpense = try RawStatement(db, """
            INSERT INTO expense (budgetId, name, nameKey, amountCents, quantity, date, createdAt, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertTag = try RawStatement(db, "INSERT INTO tag (name) VALUES (?)")
        let linkTag = try RawStatement(db, "INSERT OR IGNORE INTO expenseTag (expenseId, tagId) VALUES (?, ?)")
        let connection = db.sqliteConnection
        let timestamp = milliseconds
        var count = 0

        let fingerprint = try rows { (expense: Expense, budgetName: String) throws(TallyError) in
            var budgetID = resolver.id(for: budgetName)
            if budgetID == nil, let limit = request.missingBudgetLimit {
                let saved = try storageErrors { try insertBudget(try Budget(name: budgetName, limit: limit).validated()) }
                resolver.register(saved, spelling: budgetName)
                created.append(saved.name)
                budgetID = saved.id
            }
            guard let budgetID else { return resolver.markMissing(budgetName) }
            let expense = try expense.validated()
            _ = try expense.total()

            if nameKeys.count >= Self.cacheLimit { nameKeys.removeAll(keepingCapacity: true) }
            let nameKey: String
            if let cached = nameKeys[expense.name] {
                nameKey = cached
            } else {
                nameKey = expense.nameKey
                nameKeys[expense.name] = nameKey
            }
            let date: String
            if let cached = dates[expense.date] {
                date = cached
            } else {
                date = expense.date.isoString
                dates[expense.date] = date
            }
            insertExpense.bind(1, budgetID)
            insertExpense.bind(2, expense.name)
            insertExpense.bind(3, nameKey)
            insertExpense.bind(4, expense.amount.cents)
            insertExpense.bind(5, expense.quantity)
            insertExpense.bind(6, date)
            insertExpense.bind(7, timestamp)
            insertExpense.bind(8, timestamp)
            try insertExpense.step()
            count += 1
            guard !expense.tags.isEmpty else { return }
            let expenseID = sqlite3_last_insert_rowid(connection)
            for tag in expense.tags {
                let tagID: Int64
                if let cached = tagIDsBySpelling[tag] {
                    tagID = cached
                } else {
                    let composed = tag.composedTag
                    if let existing = tagIDs[composed] {
                        tagID = existing
                    } else {
                        insertTag.bind(1, composed)
                        try insertTag.step()
                        tagID = sqlite3_last_insert_rowid(connection)
                        tagIDs[composed] = tagID
                    }
                    if tagIDsBySpelling.count >= Self.cacheLimit { tagIDsBySpelling.removeAll(keepingCapacity: true) }
                    tagIDsBySpelling[tag] = tagID
                }
                linkTag.bind(1, expenseID)
                linkTag.bind(2, tagID)
                try linkTag.step()
            }
        }

        let missing = resolver.missingNames
        guard missing.isEmpty else { throw TallyError.unknownBudgets(missing) }
        if let fingerprint {
            if let earlier = try Self.record(fingerprint: fingerprint, db), !request.force {
                throw TallyError.alreadyImported(file: request.source, importedAt: earlier.importedAt, expenseCount: earlier.expenseCount)
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO importLog (fingerprint, importedAt, rowCount) VALUES (?, ?, ?)",
                arguments: [fingerprint, timestamp, count])
        }
        return ImportOutcome(importedCount: count, createdBudgets: created)
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

    private func storageErrors<T>(_ body: () throws -> T) throws(TallyError) -> T {
        do {
            return try body()
        } catch let error as TallyError {
            throw error
        } catch let error as DatabaseError {
            throw .storage("database error: \(error.message ?? "\(error.resultCode)")")
        } catch {
            throw .storage("database error: \(error)")
        }
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
