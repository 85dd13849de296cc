import Foundation
import GRDB
import TallyCore

extension SQLiteStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try read { db in try body(SQLiteRows(db, at: timestamp, writable: false)) }
    }

    /// One `IMMEDIATE` transaction: a second process writing at the same time waits for it.
    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try recordedWrite(rows: true) { db, content in
            let rows = SQLiteRows(db, at: timestamp, writable: true)
            let result = try body(rows)
            for expense in rows.inserted { content.expensesAfter.append(expense) }
            return result
        }
    }
}

/// ``LedgerRows`` on the connection of one of `SQLiteStore`'s transactions. Expenses it inserts
/// go with their rows of the caches (`ExpenseCaches`); the change set records them as added.
final class SQLiteRows: LedgerRows {
    private let db: Database
    private let timestamp: Date
    private let writable: Bool
    /// What `insert` saved, for the transaction's change set.
    private(set) var inserted: [Expense] = []
    /// The ledger's calendar, read at the first insert.
    private var calendar: PeriodCalendar?

    init(_ db: Database, at timestamp: Date, writable: Bool) {
        self.db = db
        self.timestamp = timestamp
        self.writable = writable
    }

    func budgets() throws(TallyError) -> [Budget] {
        try run { () throws in try SQLiteStore.allBudgets(db) }
    }

    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        try run { () throws in try SQLiteStore.expenses(query, db) }
    }

    func recurringRules() throws(TallyError) -> [RecurringRule] {
        try run { () throws in try SQLiteStore.allRules(db) }
    }

    func recurringPayments() throws(TallyError) -> [RecurringPayment] {
        try run { () throws in try SQLiteStore.allPayments(db) }
    }

    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try checkWritable()
        return try run { () throws in
            let calendar = try self.calendar ?? SQLiteStore.calendar(db)
            self.calendar = calendar
            return try expenses.map { expense in
                var expense = expense
                expense.createdAt = timestamp
                expense.updatedAt = timestamp
                let saved = try SQLiteStore.insert(expense, calendar: calendar, db)
                inserted.append(saved)
                return saved
            }
        }
    }

    func save(_ payment: RecurringPayment) throws(TallyError) {
        try checkWritable()
        try run { () throws in
            try db.execute(
                sql: "INSERT INTO recurringPayment (ruleId, date, expenseId, kind) VALUES (?, ?, ?, ?)",
                arguments: [payment.ruleID, payment.date.storedNumber, payment.expenseID, payment.kind.rawValue])
        }
    }

    private func checkWritable() throws(TallyError) {
        guard writable else { throw .storage("a read transaction cannot write") }
    }

    private func run<T>(_ body: () throws -> T) throws(TallyError) -> T {
        do {
            return try body()
        } catch {
            throw SQLiteStore.storageError(error)
        }
    }
}
