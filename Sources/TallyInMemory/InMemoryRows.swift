import Foundation
import TallyCore

extension InMemoryStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try transaction(recording: false) { (state: inout State) throws(TallyError) in
            try body(InMemoryRows(state, at: timestamp, writable: false))
        }
    }

    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try transaction { (state: inout State) throws(TallyError) in
            let rows = InMemoryRows(state, at: timestamp, writable: true)
            let result = try body(rows)
            state = rows.state
            return result
        }
    }
}

/// ``LedgerRows`` over a draft of the store's state, which the transaction keeps when `body`
/// returns (and records by comparing it with the state before).
final class InMemoryRows: LedgerRows {
    private(set) var state: InMemoryStore.State
    private let timestamp: Date
    private let writable: Bool

    init(_ state: InMemoryStore.State, at timestamp: Date, writable: Bool) {
        self.state = state
        self.timestamp = timestamp
        self.writable = writable
    }

    func budgets() throws(TallyError) -> [Budget] { InMemoryStore.ordered(Array(state.budgets.values)) }

    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] { try InMemoryStore.expenses(query, in: state) }

    func recurringRules() throws(TallyError) -> [RecurringRule] { state.rules.values.sorted { ($0.id ?? 0) < ($1.id ?? 0) } }

    func recurringPayments() throws(TallyError) -> [RecurringPayment] { InMemoryStore.allPayments(state) }

    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try checkWritable()
        return expenses.map { InMemoryStore.insertExpense($0, at: timestamp, into: &state) }
    }

    func save(_ payment: RecurringPayment) throws(TallyError) {
        try checkWritable()
        state.payments[payment.ruleID, default: [:]][payment.date] = payment
    }

    private func checkWritable() throws(TallyError) {
        guard writable else { throw .storage("a read transaction cannot write") }
    }
}
