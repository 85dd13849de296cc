/// A month's figures from one read of the store: what ``DataAccess/budgetStatuses(for:)``,
/// ``DataAccess/spendingByDay(in:)`` and ``DataAccess/spendingByTag(in:)`` answer for the month,
/// without reading the month's expenses three times.
public struct MonthSummary: Hashable, Sendable {
    public var month: Month
    /// The days of the period `month` names.
    public var days: DayInterval
    /// Ordered like ``DataAccess/budgets()``; each budget's figures as ``Budget/days(viewing:in:)`` says.
    public var statuses: [BudgetStatus]
    /// Spent per day of ``days``; days without expenses are absent.
    public var spentByDay: [Day: Money]
    /// Spent per tag within ``days``; an expense with several tags counts in each.
    public var spentByTag: [String: Money]

    public init(month: Month, days: DayInterval, statuses: [BudgetStatus], spentByDay: [Day: Money], spentByTag: [String: Money]) {
        self.month = month
        self.days = days
        self.statuses = statuses
        self.spentByDay = spentByDay
        self.spentByTag = spentByTag
    }
}
