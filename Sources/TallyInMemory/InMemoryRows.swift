import Foundation
import TallyCore

extension InMemoryStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try transaction(recording: false) { (state: inout State) throws(TallyError) in
            try body(InMemoryRows(state, RowsTransaction(at: timestamp, writable: false)))
        }
    }

    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try transaction { (state: inout State) throws(TallyError) in
            let rows = InMemoryRows(state, RowsTransaction(at: timestamp, writable: true))
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
    private let transaction: RowsTransaction

    init(_ state: InMemoryStore.State, _ transaction: RowsTransaction) {
        self.state = state
        self.transaction = transaction
    }

    func budgets() throws(TallyError) -> [Budget] { InMemoryStore.ordered(Array(state.budgets.values)) }

    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] { try InMemoryStore.expenses(query, in: state) }

    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int { try InMemoryStore.matching(query, in: state).count }

    /// What SQLite's foreign keys do: the budget's expenses, rules (with their payments) and
    /// import rules go with it; the payments its expenses made stay paid.
    func remove(_ budget: Budget) throws(TallyError) -> Int {
        try transaction.checkWritable()
        let owned = state.expenses.values.filter { $0.budgetID == budget.id }
        for expense in owned { state.expenses[expense.id ?? 0] = nil }
        InMemoryStore.unlinkPayments(of: Set(owned.compactMap(\.id)), in: &state)
        for rule in state.rules.values where rule.budgetID == budget.id {
            state.rules[rule.id ?? 0] = nil
            state.payments[rule.id ?? 0] = nil
        }
        state.importRules = state.importRules.filter { $0.value.budgetID != budget.id }
        state.budgets[budget.id ?? 0] = nil
        return owned.count
    }

    func recurringRules() throws(TallyError) -> [RecurringRule] { state.rules.values.sorted { ($0.id ?? 0) < ($1.id ?? 0) } }

    func recurringPayments() throws(TallyError) -> [RecurringPayment] { InMemoryStore.allPayments(state) }

    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try transaction.checkWritable()
        return expenses.map { InMemoryStore.insertExpense($0, at: transaction.timestamp, into: &state) }
    }

    func save(_ payment: RecurringPayment) throws(TallyError) {
        try transaction.checkWritable()
        state.payments[payment.ruleID, default: [:]][payment.date] = payment
    }
}
