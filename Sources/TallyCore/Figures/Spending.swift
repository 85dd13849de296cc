/// The figures every store reports, as plain functions of the expenses themselves.
///
/// `InMemoryStore` answers with these; `SQLiteStore`'s aggregate queries, its `budgetMonth`
/// table and the sums its bulk writers keep are caches of them, proved equal by the contract suite.
public enum Spending {
    /// What `expenses` within `days` add up to per day; days without expenses are absent.
    public static func byDay(in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> [Day: Money] {
        var totals: [Day: Money] = [:]
        for expense in expenses where days.contains(expense.date) {
            totals[expense.date] = try (totals[expense.date] ?? .zero) + expense.spending()
        }
        return totals
    }

    /// What `expenses` within `days` add up to per tag; an expense with several tags counts in each.
    public static func byTag(in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> [String: Money] {
        var totals: [String: Money] = [:]
        for expense in expenses where days.contains(expense.date) {
            for portion in try expense.portions {
                for tag in portion.tags { totals[tag] = try (totals[tag] ?? .zero) + portion.amount }
            }
        }
        return totals
    }

    /// What each of `budgets` spent within each of `months`' periods (the period's own days,
    /// whatever the budget's period: a trend of spending, not of year-to-date figures), by
    /// budget id: every month is a key, and a budget without expenses in a period is absent.
    public static func byMonth(
        in months: ClosedRange<Month>, budgets: some Sequence<Budget>, of expenses: some Sequence<Expense>,
        calendar: PeriodCalendar
    ) throws(TallyError) -> [Month: [Int64: Money]] {
        var spent: [Month: [Int64: Money]] = [:]
        for month in Spending.months(in: months) {
            var byBudget: [Int64: Money] = [:]
            for budget in budgets {
                let days = calendar.days(of: month)
                let owned = expenses.filter { $0.counts(in: budget.id) && days.contains($0.date) }
                if !owned.isEmpty, let id = budget.id { byBudget[id] = try budget.spent(in: days, of: owned) }
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
    /// This budget's figures in the view of period `month`, from the expenses themselves: what
    /// its expenses within ``days(viewing:in:)`` add up to, how many they are, and, when it rolls
    /// over, what earlier periods carried in.
    public func status(viewing month: Month, in calendar: PeriodCalendar, of expenses: some Sequence<Expense>) throws(TallyError) -> BudgetStatus {
        let days = days(viewing: month, in: calendar)
        let owned = expenses.filter { $0.counts(in: id) }
        let inView = owned.filter { days.contains($0.date) }
        let history = rollover == .none ? BudgetHistory() : try history(in: calendar, of: owned)
        // A split expense counts once for each of its lines in the budget, as the stores' caches count rows.
        let count = inView.reduce(0) { $0 + ($1.lines.isEmpty ? 1 : $1.lines.count { line in line.budgetID == id }) }
        return try status(viewing: month, in: calendar, spent: try spent(in: days, of: inView), expenseCount: count, history: history)
    }

    /// What this budget's expenses among `expenses` spent in each of its periods, and its earliest expense.
    public func history(in calendar: PeriodCalendar, of expenses: some Sequence<Expense>) throws(TallyError) -> BudgetHistory {
        var history = BudgetHistory()
        for expense in expenses where expense.counts(in: id) {
            for portion in try expense.portions where portion.budgetID == id { try history.add(portion.amount, on: expense.date, of: self, in: calendar) }
        }
        return history
    }
}
