import Foundation

/// A ledger's rows inside one transaction of its store: the primitives that the algorithms
/// written once above the stores read and write (``DataAccess/postRecurring(through:dryRun:)``
/// is the first). Every write is part of the transaction's change set, keeps the store's cached
/// figures, and rolls back with it; in a read transaction the writes throw.
public protocol LedgerRows {
    /// Every budget, ordered by name key then id.
    func budgets() throws(TallyError) -> [Budget]
    /// The expenses matching `query`, sorted and paged as it asks.
    func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense]
    /// How many expenses match `query`, ignoring its sort and paging.
    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int
    /// Every recurring rule, by id, with its skips.
    func recurringRules() throws(TallyError) -> [RecurringRule]
    /// Every paid occurrence, by rule id then date.
    func recurringPayments() throws(TallyError) -> [RecurringPayment]

    /// Saves validated expenses of existing budgets under new ids, stamped with the
    /// transaction's time, and returns them as saved.
    func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense]
    /// Removes a saved budget with its expenses, limits, recurring and import rules and alert
    /// memory; the occurrences its expenses paid stay paid. Returns how many expenses went.
    func remove(_ budget: Budget) throws(TallyError) -> Int
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

    /// How many expenses match `query`, ignoring its sort and paging.
    public func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.countExpenses(query) }
    }

    /// Removes the budget named `name` (found as ``budget(named:)`` finds it) and, when
    /// `includingExpenses` is true, its expenses with it; without, a budget that has expenses is
    /// refused (``Budget/checkRemoval(expenseCount:includingExpenses:)``). One transaction;
    /// returns how many expenses were removed.
    @discardableResult
    public func removeBudget(named name: String, includingExpenses: Bool) throws(TallyError) -> Int {
        let key = NameKey.lookup(name)
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let budget = try Budget.named(name, found: try rows.budgets().first { $0.nameKey == key })
            try budget.checkRemoval(expenseCount: try rows.countExpenses(ExpenseQuery(budgetID: budget.id)), includingExpenses: includingExpenses)
            return try rows.remove(budget)
        }
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

    /// Finds a budget by name, ignoring case and diacritics (``Budget/named(_:found:)``).
    public func budget(named name: String) throws(TallyError) -> Budget {
        let key = NameKey.lookup(name)
        return try Budget.named(name, found: try budgets().first { $0.nameKey == key })
    }

    /// The expense with id `id`; ``TallyError/expenseNotFound(_:)`` when there is none.
    public func expense(id: Int64) throws(TallyError) -> Expense {
        guard let expense = try expenses(ids: [id]).first else { throw .expenseNotFound(id) }
        return expense
    }

    /// Validates and saves a new expense in an existing budget that takes its day
    /// (``Expense/checkBudget(_:)``), as one transaction.
    public func addExpense(_ expense: Expense) throws(TallyError) -> Expense {
        let expense = try expense.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            try expense.checkBudget(try rows.budgets().first { $0.id == expense.budgetID })
            return try rows.insert([expense])[0]
        }
    }

    /// Total spent per day within `days`; days without expenses are absent (``Spending/byDay(in:of:)``).
    public func spendingByDay(in days: DayInterval) throws(TallyError) -> [Day: Money] {
        try Spending.byDay(in: days, of: try expenses(ExpenseQuery(days: days)))
    }

    /// Total spent per tag within `days`; an expense with several tags counts in each
    /// (``Spending/byTag(in:of:)``).
    public func spendingByTag(in days: DayInterval) throws(TallyError) -> [String: Money] {
        try Spending.byTag(in: days, of: try expenses(ExpenseQuery(days: days)))
    }
}

/// What a store's ``LedgerRows`` keeps of the transaction it runs in: its time, whether it may
/// write, and the expenses it inserted, which the store records in the change set.
public final class RowsTransaction {
    public let timestamp: Date
    public let writable: Bool
    public private(set) var inserted: [Expense] = []
    public private(set) var removed: [Expense] = []

    public init(at timestamp: Date, writable: Bool) {
        self.timestamp = timestamp
        self.writable = writable
    }

    /// Expenses about to be inserted, stamped with the transaction's time; throws in a read
    /// transaction.
    public func stampedForInsert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try checkWritable()
        return expenses.map { expense in
            var expense = expense
            expense.createdAt = timestamp
            expense.updatedAt = timestamp
            return expense
        }
    }

    /// Throws in a read transaction.
    public func checkWritable() throws(TallyError) {
        guard writable else { throw .storage("a read transaction cannot write") }
    }

    /// Notes expenses saved under their new ids, for ``record(into:)``.
    public func inserted(_ saved: [Expense]) {
        inserted += saved
    }

    /// Notes expenses about to be removed, for ``record(into:)``.
    public func removing(_ expenses: [Expense]) throws(TallyError) {
        try checkWritable()
        removed += expenses
    }

    /// Adds what the transaction inserted and removed to its change set.
    public func record(into content: inout ChangeContent) {
        for expense in removed { content.expensesBefore.append(expense) }
        for expense in inserted { content.expensesAfter.append(expense) }
    }
}
