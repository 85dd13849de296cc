/// A ledger's rows inside one transaction of its store: the primitives that the algorithms
/// written once above the stores read and write (``DataAccess/postRecurring(through:dryRun:)``
/// is the first). Every write is part of the transaction's change set, keeps the store's cached
/// figures, and rolls back with it; in a read transaction the writes throw.
public protocol LedgerRows {
    /// Every budget, ordered by name key then id.
    func budgets() throws(TallyError) -> [Budget]
    /// The expenses matching `query`, sorted and paged as it asks.
    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense]
    /// Every recurring rule, by id, with its skips.
    func recurringRules() throws(TallyError) -> [RecurringRule]
    /// Every paid occurrence, by rule id then date.
    func recurringPayments() throws(TallyError) -> [RecurringPayment]

    /// Saves validated expenses of existing budgets under new ids, stamped with the
    /// transaction's time, and returns them as saved.
    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense]
    /// Remembers an occurrence as paid. The stores' key on rule and day refuses a second payment
    /// of the same occurrence.
    func save(_ payment: RecurringPayment) throws(TallyError)
}

extension DataAccess {
    /// Every budget, ordered by name key then id.
    public func budgets() throws(TallyError) -> [Budget] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.budgets() }
    }

    /// The expenses matching `query`, sorted and paged as it asks.
    public func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.expenses(query) }
    }

    /// Every recurring rule, by id, with its skips.
    public func recurringRules() throws(TallyError) -> [RecurringRule] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.recurringRules() }
    }

    /// The recurring rule with id `id`; ``TallyError/recurringRuleNotFound(_:)`` when there is none.
    public func recurringRule(id: Int64) throws(TallyError) -> RecurringRule {
        guard let rule = try recurringRules().first(where: { $0.id == id }) else { throw .recurringRuleNotFound(id) }
        return rule
    }

    /// Every paid occurrence, by rule id then date.
    public func recurringPayments() throws(TallyError) -> [RecurringPayment] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.recurringPayments() }
    }
}
