import Foundation
import GRDB
import TallyCore

extension SQLiteStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let transaction = RowsTransaction(at: now, writable: false)
        return try read { db in try body(SQLiteRows(db, transaction)) }
    }

    /// One `IMMEDIATE` transaction: a second process writing at the same time waits for it.
    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let transaction = RowsTransaction(at: now, writable: true)
        return try recordedWrite(rows: true) { db, content in
            defer { transaction.record(into: &content) }
            return try body(SQLiteRows(db, transaction))
        }
    }
}

/// ``LedgerRows`` on the connection of one of `SQLiteStore`'s transactions. Expenses it inserts
/// go with their rows of the caches (`ExpenseCaches`).
final class SQLiteRows: LedgerRows {
    private let db: Database
    private let transaction: RowsTransaction
    /// The ledger's calendar, read at the first insert.
    private var calendar: PeriodCalendar?

    init(_ db: Database, _ transaction: RowsTransaction) {
        self.db = db
        self.transaction = transaction
    }

    var timestamp: Date { transaction.timestamp }

    func settings() throws(TallyError) -> LedgerSettings {
        try run { () throws in try SQLiteStore.settings(db) }
    }

    func budgets() throws(TallyError) -> [Budget] {
        try run { () throws in try SQLiteStore.allBudgets(db) }
    }

    func rowImages() throws(TallyError) -> [RowImage] {
        try run { () throws in try SQLiteStore.rowImages(importRecords: true, db) }
    }

    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        try run { () throws in try SQLiteStore.expenses(query, db) }
    }

    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int {
        try run { () throws in try SQLiteStore.countExpenses(query, db) }
    }

    /// The foreign keys' `ON DELETE CASCADE` removes the budget's expenses with their rows of
    /// both caches, its limits, rules and alert memory; `ON DELETE SET NULL` keeps its payments.
    func remove(_ budget: Budget) throws(TallyError) -> Int {
        let expenses = try self.expenses(ExpenseQuery(budgetID: budget.id))
        try transaction.removing(expenses)
        try run { () throws in try db.execute(sql: "DELETE FROM budget WHERE id = ?", arguments: [budget.id]) }
        return expenses.count
    }

    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        let stamped = try transaction.stampedForInsert(expenses)
        let saved = try run { () throws in
            let calendar = try self.calendar ?? SQLiteStore.calendar(db)
            self.calendar = calendar
            return try stamped.map { expense in try SQLiteStore.insert(expense, calendar: calendar, db) }
        }
        transaction.inserted(saved)
        return saved
    }

    /// A new row's id is SQLite's next AUTOINCREMENT one.
    func save(_ row: RowImage) throws(TallyError) -> RowImage {
        try transaction.checkWritable()
        return try run { () throws in
            switch row {
            case .budget(let budget) where budget.id == nil:
                return .budget(try SQLiteStore.insert(budget, db))
            case .recurringRule(let rule) where rule.id == nil:
                return .recurringRule(try SQLiteStore.insert(rule, timestamp: Milliseconds.since1970(timestamp), db))
            case .importRule(var rule, let budgetID) where rule.id == nil:
                try SQLiteStore.insert(rule, budgetID: budgetID, db)
                rule.id = db.lastInsertedRowID
                return .importRule(rule, budgetID: budgetID)
            default:
                try SQLiteStore.put(row, db)
                return row
            }
        }
    }

    func delete(_ row: RowImage) throws(TallyError) {
        try transaction.checkWritable()
        try run { () throws in try SQLiteStore.delete(row, db) }
    }

    private func run<T>(_ body: () throws -> T) throws(TallyError) -> T {
        do {
            return try body()
        } catch {
            throw SQLiteStore.storageError(error)
        }
    }
}
