import Foundation
import TallyCore

extension PostgresStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let rows = PostgresLedgerRows(self, at: now, writable: false)
        return try read { () throws(TallyError) in try body(rows) }
    }

    /// The writer lock makes writers from every machine take turns.
    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let rows = PostgresLedgerRows(self, at: now, writable: true)
        return try recordedWrite(rows: true) { (content: inout ChangeContent) throws(TallyError) in
            let result = try body(rows)
            for expense in rows.inserted { content.expensesAfter.append(expense) }
            return result
        }
    }
}

/// ``LedgerRows`` on the store's connection, inside one of its transactions.
final class PostgresLedgerRows: LedgerRows {
    private let store: PostgresStore
    private let timestamp: Date
    private let writable: Bool
    /// What `insert` saved, for the transaction's change set.
    private(set) var inserted: [Expense] = []

    init(_ store: PostgresStore, at timestamp: Date, writable: Bool) {
        self.store = store
        self.timestamp = timestamp
        self.writable = writable
    }

    func budgets() throws(TallyError) -> [Budget] { try store.loadBudgets() }

    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] { try store.loadExpenses(query) }

    func recurringRules() throws(TallyError) -> [RecurringRule] { try store.loadRules() }

    func recurringPayments() throws(TallyError) -> [RecurringPayment] { try store.loadPayments() }

    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try checkWritable()
        let saved = try store.insertExpenses(expenses, at: timestamp)
        inserted += saved
        return saved
    }

    func save(_ payment: RecurringPayment) throws(TallyError) {
        try checkWritable()
        try store.session.query(
            "INSERT INTO recurringPayment (ruleId, date, expenseId, kind) VALUES ($1, $2, $3, $4)",
            [.int(payment.ruleID), .int(payment.date.stored), .int(payment.expenseID), .text(payment.kind.rawValue)])
    }

    private func checkWritable() throws(TallyError) {
        guard writable else { throw .storage("a read transaction cannot write") }
    }
}
