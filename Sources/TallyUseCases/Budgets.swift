import TallyCore

/// `budget add`: a new budget with a monthly limit.
public struct AddBudget: Sendable {
    public var name: String
    public var limit: Money

    public init(name: String, limit: Money) {
        self.name = name
        self.limit = limit
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Budget {
        let budget = try Budget(name: name, limit: limit).validated()
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.addBudget(budget) }
    }
}

/// `budget edit`: renames a budget or changes its limit.
public struct EditBudget: Sendable {
    public var name: String
    public var newName: String?
    public var newLimit: Money?

    public init(name: String, newName: String? = nil, newLimit: Money? = nil) {
        self.name = name
        self.newName = newName
        self.newLimit = newLimit
    }

    /// The budget before and after the change.
    public func run(in ledger: Ledger) throws(TallyError) -> (before: Budget, after: Budget) {
        // The new values obey the budget rules before the store is touched.
        if let newName { _ = try Budget(name: newName, limit: newLimit ?? Money(cents: 1)).validated() }
        if let newLimit { _ = try Budget(name: "limit", limit: newLimit).validated() }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let before = try store.budget(named: name)
            var changed = before
            if let newName { changed.name = newName }
            if let newLimit { changed.limit = newLimit }
            return (before, try store.updateBudget(changed))
        }
    }
}

/// `budget remove`: a budget, and its expenses when confirmed.
public struct RemoveBudget: Sendable {
    public var name: String
    /// Remove the expenses too without asking.
    public var includingExpenses: Bool

    public init(name: String, includingExpenses: Bool) {
        self.name = name
        self.includingExpenses = includingExpenses
    }

    /// The budget removed and how many expenses went with it. A budget that has expenses, when
    /// not `includingExpenses`, is removed only if `confirm(name, expenseCount)` says yes;
    /// otherwise ``TallyError/budgetNotEmpty(_:expenseCount:)`` is thrown.
    public func run(
        in ledger: Ledger, confirm: (_ name: String, _ expenseCount: Int) -> Bool = { _, _ in false }
    ) throws(TallyError) -> (budget: Budget, removedExpenses: Int) {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let budget = try store.budget(named: name)
            do throws(TallyError) {
                return (budget, try store.removeBudget(named: name, includingExpenses: includingExpenses))
            } catch {
                guard case .budgetNotEmpty(let budgetName, let count) = error, confirm(budgetName, count) else { throw error }
                return (budget, try store.removeBudget(named: name, includingExpenses: true))
            }
        }
    }
}

/// `budget list`: every budget's figures for a month, filtered and ordered.
public struct ListBudgets: Sendable {
    public var month: Month
    public var search: String?
    public var order: BudgetOrder
    public var descending: Bool

    public init(month: Month, search: String? = nil, order: BudgetOrder = .name, descending: Bool = false) {
        self.month = month
        self.search = search
        self.order = order
        self.descending = descending
    }

    public func run(in ledger: Ledger) throws(TallyError) -> [BudgetStatus] {
        let statuses = try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.budgetStatuses(for: month) }
        return BudgetStatus.arranged(statuses, search: search, order: order, descending: descending)
    }
}

/// `budget show`: one budget's figures and expenses for a month.
public struct ShowBudget: Sendable {
    public var name: String
    public var month: Month

    public init(name: String, month: Month) {
        self.name = name
        self.month = month
    }

    public func run(in ledger: Ledger) throws(TallyError) -> (status: BudgetStatus, expenses: [Expense]) {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let status = try store.status(ofBudgetNamed: name, in: month)
            let query = ExpenseQuery(budgetID: status.budget.id, days: status.days, sort: .date)
            return (status, try store.expenses(query))
        }
    }
}
