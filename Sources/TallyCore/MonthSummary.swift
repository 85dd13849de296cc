/// A month's figures from one read of the store: what ``DataAccess/budgetStatuses(for:)``,
/// ``DataAccess/spendingByDay(in:)`` and ``DataAccess/spendingByTag(in:)`` answer for the month,
/// without reading the month's expenses three times.
public struct MonthSummary: Hashable, Sendable {
    public var month: Month
    /// Ordered like ``DataAccess/budgets()``; each budget's figures cover its period's interval for `month`.
    public var statuses: [BudgetStatus]
    /// Spent per day of `month.days`; days without expenses are absent.
    public var spentByDay: [Day: Money]
    /// Spent per tag within `month.days`; an expense with several tags counts in each.
    public var spentByTag: [String: Money]

    public init(month: Month, statuses: [BudgetStatus], spentByDay: [Day: Money], spentByTag: [String: Money]) {
        self.month = month
        self.statuses = statuses
        self.spentByDay = spentByDay
        self.spentByTag = spentByTag
    }
}
