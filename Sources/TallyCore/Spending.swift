/// The figures every store reports, as plain functions of the expenses themselves.
///
/// `InMemoryStore` answers with these; `SQLiteStore`'s aggregate queries, its `budgetMonth`
/// table and the sums its bulk writers keep are caches of them, proved equal by the contract suite.
public enum Spending {
    /// What `expenses` within `days` add up to per day; days without expenses are absent.
    public static func byDay(in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> [Day: Money] {
        var totals: [Day: Money] = [:]
        for expense in expenses where days.contains(expense.date) {
            totals[expense.date] = try (totals[expense.date] ?? .zero) + expense.total()
        }
        return totals
    }

    /// What `expenses` within `days` add up to per tag; an expense with several tags counts in each.
    public static func byTag(in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> [String: Money] {
        var totals: [String: Money] = [:]
        for expense in expenses where days.contains(expense.date) {
            for tag in expense.tags { totals[tag] = try (totals[tag] ?? .zero) + expense.total() }
        }
        return totals
    }

    /// What each of `budgets` spent in its period for each of `months`, by budget id: every
    /// month is a key, and a budget without expenses in a month's period is absent from it.
    public static func byMonth(
        in months: ClosedRange<Month>, budgets: some Sequence<Budget>, of expenses: some Sequence<Expense>
    ) throws(TallyError) -> [Month: [Int64: Money]] {
        var spent: [Month: [Int64: Money]] = [:]
        for month in Spending.months(in: months) {
            var byBudget: [Int64: Money] = [:]
            for budget in budgets {
                let status = try budget.status(in: month, of: expenses)
                if status.expenseCount > 0, let id = budget.id { byBudget[id] = status.spent }
            }
            spent[month] = byBudget
        }
        return spent
    }

    /// Every month of `months`, in order.
    public static func months(in months: ClosedRange<Month>) -> [Month] {
        var all: [Month] = []
        var month = months.lowerBound
        while true {
            all.append(month)
            guard month < months.upperBound else { return all }
            month = month.adding(months: 1)
        }
    }
}

extension Budget {
    /// This budget's figures for `month`: what its expenses among `expenses` in the month's
    /// period add up to (``spent(in:of:)``), and how many they are.
    public func status(in month: Month, of expenses: some Sequence<Expense>) throws(TallyError) -> BudgetStatus {
        let days = interval(for: month)
        let owned = expenses.filter { $0.budgetID == id && days.contains($0.date) }
        return try BudgetStatus(budget: self, month: month, spent: try spent(in: month, of: owned), expenseCount: owned.count)
    }
}
