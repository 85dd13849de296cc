import Foundation

/// How often a budget's limit renews. Queries ask the period for its days instead of
/// assuming calendar months, so one-off budgets and rollover can be added here.
public enum BudgetPeriod: String, Hashable, Sendable, CaseIterable {
    case monthly

    /// The days the limit covers for the period that holds `month`.
    public func interval(for month: Month) -> DayInterval {
        switch self {
        case .monthly: month.days
        }
    }
}

/// A named spending limit. Validates itself and computes its own figures.
public struct Budget: Identifiable, Hashable, Sendable {
    public static let maximumNameLength = 100

    /// Assigned by the store; `nil` until the budget is saved.
    public var id: Int64?
    public var name: String
    public var limit: Money
    public var period: BudgetPeriod
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, limit: Money, period: BudgetPeriod = .monthly,
        createdAt: Date = Date(), updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.limit = limit
        self.period = period
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// The key under which names are unique: case, diacritics and width folded.
    public var nameKey: String { NameKey.make(name) }

    /// Returns the budget with its name trimmed, or throws the first broken rule.
    public func validated() throws(TallyError) -> Budget {
        var budget = self
        budget.name = try NameKey.validated(name, kind: .budget, maximumLength: Budget.maximumNameLength)
        try Budget.checkLimit(limit)
        return budget
    }

    /// A limit is above zero and at most ``Money/maximumInput``.
    public static func checkLimit(_ limit: Money) throws(TallyError) {
        guard limit.cents > 0 else { throw .limitNotPositive(limit) }
        guard limit <= Money.maximumInput else { throw .amountOutOfRange(limit.plainString) }
    }

    public func validate() throws(TallyError) {
        _ = try validated()
    }

    /// Whether two names would clash as budget names.
    public func hasSameName(as other: String) -> Bool {
        nameKey == NameKey.lookup(other)
    }

    /// The days this budget's limit covers for `month`.
    public func interval(for month: Month) -> DayInterval { period.interval(for: month) }

    /// What this budget's expenses in `month`'s period add up to.
    public func spent(in month: Month, of expenses: some Sequence<Expense>) throws(TallyError) -> Money {
        let days = interval(for: month)
        var total = Money.zero
        for expense in expenses where expense.budgetID == id && days.contains(expense.date) {
            total = try total + expense.total()
        }
        return total
    }

    /// The limit left after `spent`; negative when over budget.
    public func remaining(after spent: Money) throws(TallyError) -> Money {
        try limit - spent
    }

    public func isOver(after spent: Money) -> Bool { spent > limit }

    /// A budget that has expenses is removed, with them, only when asked: throws
    /// ``TallyError/budgetNotEmpty(_:expenseCount:)`` when it has `expenseCount` expenses and
    /// `includingExpenses` is false.
    public func checkRemoval(expenseCount: Int, includingExpenses: Bool) throws(TallyError) {
        guard expenseCount == 0 || includingExpenses else { throw .budgetNotEmpty(name, expenseCount: expenseCount) }
    }

    /// Names are unique by ``nameKey``: throws ``TallyError/duplicateBudget(_:)`` when `holder`,
    /// the id of the budget a store already holds under this one's name key (`nil` for none), is
    /// another budget's.
    public func checkNameIsFree(heldBy holder: Int64?) throws(TallyError) {
        if let holder, holder != id { throw .duplicateBudget(name) }
    }

    /// The budget a user calls `name`, given `found`: the one a store holds under
    /// `NameKey.lookup(name)`, so case, diacritics, width and surrounding white space do not
    /// count. None is ``TallyError/budgetNotFound(_:)`` with the name as typed.
    @inlinable
    public static func named(_ name: String, found: Budget?) throws(TallyError) -> Budget {
        guard let found else { throw .budgetNotFound(name) }
        return found
    }
}

/// A budget's figures for one month.
public struct BudgetStatus: Hashable, Sendable {
    public let budget: Budget
    public let month: Month
    public let spent: Money
    public let remaining: Money
    public let expenseCount: Int

    public init(budget: Budget, month: Month, spent: Money, expenseCount: Int) throws(TallyError) {
        self.budget = budget
        self.month = month
        self.spent = spent
        self.remaining = try budget.remaining(after: spent)
        self.expenseCount = expenseCount
    }

    public var isOverBudget: Bool { budget.isOver(after: spent) }
}
