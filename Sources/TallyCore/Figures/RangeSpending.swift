/// The figures of a report over time, as plain functions of the expenses: what `InMemoryStore`
/// answers with, and the rules the report builder follows when it adds up a store's
/// ``TaggedSpending`` per period for a tag filter or tags as rows (its tests hold it to them).
extension Spending {
    /// What each budget had available in each period of `months` (``Budget/available(viewing:in:history:)``),
    /// by budget id; every month is a key and every budget with an id is in it.
    public static func availableByMonth(
        in months: ClosedRange<Month>, budgets: some Sequence<Budget>, of expenses: some Sequence<Expense>,
        calendar: PeriodCalendar
    ) throws(TallyError) -> [Month: [Int64: Money]] {
        var available: [Month: [Int64: Money]] = [:]
        for month in Spending.months(in: months) { available[month] = [:] }
        for budget in budgets {
            guard let id = budget.id else { continue }
            let history = budget.rollover == .none ? BudgetHistory() : try budget.history(in: calendar, of: expenses)
            for month in Spending.months(in: months) {
                available[month]?[id] = try budget.available(viewing: month, in: calendar, history: history)
            }
        }
        return available
    }

    /// ``byMonth(in:budgets:of:calendar:)`` in one pass over `expenses`, for a filtered few of
    /// them: what each budget id spent in each period of `months` (periods as keys, budgets
    /// without expenses in a period absent).
    public static func byPeriod(
        in months: ClosedRange<Month>, of expenses: some Sequence<Expense>, calendar: PeriodCalendar
    ) throws(TallyError) -> [Month: [Int64: Money]] {
        var spent: [Month: [Int64: Money]] = [:]
        for month in Spending.months(in: months) { spent[month] = [:] }
        for expense in expenses {
            let period = calendar.period(containing: expense.date)
            guard months.contains(period) else { continue }
            var byBudget = spent[period] ?? [:]
            for portion in try expense.portions { byBudget[portion.budgetID] = try (byBudget[portion.budgetID] ?? .zero) + portion.amount }
            spent[period] = byBudget
        }
        return spent
    }

    /// What each tag spent in each period of `months` (an expense with several tags counts in
    /// each), and each period's tagged spending with every expense counted once.
    public static func byTagAndPeriod(
        in months: ClosedRange<Month>, of expenses: some Sequence<Expense>, calendar: PeriodCalendar
    ) throws(TallyError) -> (byTag: [Month: [String: Money]], once: [Month: Money]) {
        var byTag: [Month: [String: Money]] = [:]
        var once: [Month: Money] = [:]
        for month in Spending.months(in: months) {
            byTag[month] = [:]
            once[month] = .zero
        }
        for expense in expenses {
            let period = calendar.period(containing: expense.date)
            guard months.contains(period) else { continue }
            for portion in try expense.portions where !portion.tags.isEmpty {
                once[period] = try (once[period] ?? .zero) + portion.amount
                var spent = byTag[period] ?? [:]
                for tag in Set(portion.tags) { spent[tag] = try (spent[tag] ?? .zero) + portion.amount }
                byTag[period] = spent
            }
        }
        return (byTag, once)
    }
}

/// What one budget spent on one day on expenses with one set of tags: what a report over time
/// narrowed to a tag, or with tags as rows, adds up, small enough for a store to sum in one read.
public struct TaggedSpending: Hashable, Sendable {
    public var budgetID: Int64
    public var day: Day
    /// Sorted and never empty.
    public var tags: [String]
    public var spent: Money

    public init(budgetID: Int64, day: Day, tags: [String], spent: Money) {
        self.budgetID = budgetID
        self.day = day
        self.tags = tags
        self.spent = spent
    }

    /// ``DataAccess/taggedSpending(in:)`` from the expenses themselves: those within `days`
    /// with at least one tag, grouped by budget, day and tag set, in no particular order.
    public static func grouping(_ expenses: some Sequence<Expense>, in days: DayInterval) throws(TallyError) -> [TaggedSpending] {
        try DaySpending.grouping(expenses, in: days).tagged()
    }

    struct GroupKey: Hashable {
        let budgetID: Int64, day: Day, tags: [String]
    }
}
