/// A month's figures from one read of the store: what ``DataAccess/budgetStatuses(for:)``,
/// ``DataAccess/spendingByDay(in:)``, ``DataAccess/spendingByTag(in:)``,
/// ``DataAccess/spendingByPerson(in:)`` and ``DataAccess/spendingByCurrency(in:)`` answer for the month, without reading the month's
/// expenses four times.
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
    /// Spent and counted per person within ``days``, in ``PersonSpending/ordered(_:)``'s order.
    public var spentByPerson: [PersonSpending]
    /// Spent in each other currency within ``days`` (``CurrencySpending/totals(_:)``), by code.
    public var byCurrency: [CurrencySpending]

    public init(
        month: Month, days: DayInterval, statuses: [BudgetStatus], spentByDay: [Day: Money], spentByTag: [String: Money],
        spentByPerson: [PersonSpending], byCurrency: [CurrencySpending] = []
    ) {
        self.month = month
        self.days = days
        self.statuses = statuses
        self.spentByDay = spentByDay
        self.spentByTag = spentByTag
        self.spentByPerson = spentByPerson
        self.byCurrency = byCurrency
    }
}
