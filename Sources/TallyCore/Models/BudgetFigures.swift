import Foundation

/// What a store knows of a budget's past that its figures depend on once it rolls over: what it
/// spent in each of its periods, by period key, and the day of its earliest expense.
public struct BudgetHistory: Hashable, Sendable {
    public var spentByPeriod: [Month: Money]
    public var earliestExpense: Day?

    public init(spentByPeriod: [Month: Money] = [:], earliestExpense: Day? = nil) {
        self.spentByPeriod = spentByPeriod
        self.earliestExpense = earliestExpense
    }

    /// Counts `spent` on `day` into the period of `budget` that holds it: an expense, or what a
    /// store summed of one day's expenses.
    public mutating func add(_ spent: Money, on day: Day, of budget: Budget, in calendar: PeriodCalendar) throws(TallyError) {
        let key = budget.periodKey(of: calendar.period(containing: day))
        spentByPeriod[key] = try (spentByPeriod[key] ?? .zero) + spent
        if earliestExpense.map({ day < $0 }) ?? true { earliestExpense = day }
    }
}

extension Budget {
    /// The key of the period `month` lies in: the month itself for a monthly budget, January of
    /// its year for a yearly one, the first month of its range for a once budget.
    public func periodKey(of month: Month) -> Month {
        switch period {
        case .monthly: month
        case .yearly: Month(validYear: month.year, month: 1)
        case .once: range?.first.monthValue ?? month
        }
    }

    /// The period key that follows `key`.
    func nextPeriodKey(after key: Month) -> Month {
        key.adding(months: period == .yearly ? 12 : 1)
    }

    /// The days the period with key `key` covers.
    public func days(ofPeriod key: Month, in calendar: PeriodCalendar) -> DayInterval {
        switch period {
        case .monthly: calendar.days(of: key)
        case .yearly: calendar.days(ofYear: key.year)
        case .once: range ?? calendar.days(of: key)
        }
    }

    /// The days this budget's figures cover in the view of period `month`: that period for a
    /// monthly budget, its year up to the end of that period for a yearly one (year to date),
    /// the whole range for a once budget.
    public func days(viewing month: Month, in calendar: PeriodCalendar) -> DayInterval {
        switch period {
        case .monthly: return calendar.days(of: month)
        case .yearly:
            return DayInterval(first: calendar.days(ofYear: month.year).first, last: calendar.days(of: month).last)
        case .once: return range ?? calendar.days(of: month)
        }
    }

    /// The limit of the period with key `key`: the latest change from it or before, else the first limit.
    public func limit(forPeriod key: Month) -> Money {
        limitChanges.last { $0.from <= key }?.limit ?? limit
    }

    /// The key of the budget's first period: ``start`` when set, else the earlier of the
    /// period it was created in and that of its earliest expense.
    public func firstPeriod(in calendar: PeriodCalendar, earliestExpense: Day?) -> Month {
        if let start { return periodKey(of: start) }
        let created = periodKey(of: calendar.period(containing: Day(createdAt, in: .current)))
        guard let earliestExpense else { return created }
        return min(created, periodKey(of: calendar.period(containing: earliestExpense)))
    }

    /// What the budget carries into the period with key `key`: nothing without rollover, into its
    /// first period or before it; otherwise what each earlier period left of what it had
    /// available (never below zero with `surplus`), computed from `history` every time.
    public func carried(intoPeriod key: Month, in calendar: PeriodCalendar, history: BudgetHistory) throws(TallyError) -> Money {
        guard rollover != .none, period != .once else { return .zero }
        var current = firstPeriod(in: calendar, earliestExpense: history.earliestExpense)
        var carried = Money.zero
        while current < key {
            let available = try self.available(limit: limit(forPeriod: current), carried: carried)
            let left = try available - (history.spentByPeriod[current] ?? .zero)
            carried = rollover == .surplus ? max(left, .zero) : left
            current = nextPeriodKey(after: current)
        }
        return carried
    }

    /// What the budget may spend in the view of period `month`: its period's limit and what
    /// earlier periods carried in, at most the cap (``BudgetStatus/available``, without the spending).
    public func available(viewing month: Month, in calendar: PeriodCalendar, history: BudgetHistory) throws(TallyError) -> Money {
        let key = periodKey(of: month)
        return try available(limit: limit(forPeriod: key), carried: carried(intoPeriod: key, in: calendar, history: history))
    }

    /// `limit + carried`, at most ``cap``.
    func available(limit: Money, carried: Money) throws(TallyError) -> Money {
        let total = try limit + carried
        guard let cap else { return total }
        return min(total, cap)
    }

    /// The budget's figures in the view of period `month`: `spent` and `expenseCount` are what
    /// its expenses within ``days(viewing:in:)`` add up to; `history` is needed only when it
    /// rolls over.
    public func status(
        viewing month: Month, in calendar: PeriodCalendar, spent: Money, expenseCount: Int, history: BudgetHistory = BudgetHistory()
    ) throws(TallyError) -> BudgetStatus {
        let key = periodKey(of: month)
        let carried = try carried(intoPeriod: key, in: calendar, history: history)
        return try BudgetStatus(
            budget: self, month: month, days: days(viewing: month, in: calendar), limit: limit(forPeriod: key),
            carried: carried, available: available(limit: limit(forPeriod: key), carried: carried), spent: spent,
            expenseCount: expenseCount)
    }

    /// Sets the limit from period key `from` on, leaving earlier periods the limits they had;
    /// from the budget's `firstPeriod` on, it replaces the first limit. A period before the
    /// first is refused.
    public mutating func setLimit(_ newLimit: Money, from: Month, firstPeriod: Month) throws(TallyError) {
        guard period != .once else {
            limit = newLimit
            return
        }
        let from = periodKey(of: from)
        guard from >= firstPeriod else { throw .limitChangeBeforeStart(from: from, first: firstPeriod) }
        limitChanges.removeAll { $0.from >= from }
        if from == firstPeriod {
            limit = newLimit
            limitChanges.removeAll()
        } else {
            limitChanges.append(LimitChange(from: from, limit: newLimit))
        }
    }

    /// A once budget takes only expenses dated within its range.
    public func checkAccepts(_ day: Day) throws(TallyError) {
        guard !accepts(day), let range else { return }
        throw .expenseOutsideRange(budget: name, day: day, range: range)
    }

    /// Whether an expense of `day` may be in this budget (``checkAccepts(_:)``).
    public func accepts(_ day: Day) -> Bool {
        guard period == .once, let range else { return true }
        return range.contains(day)
    }
}

/// A budget's figures in the view of one period.
public struct BudgetStatus: Hashable, Sendable {
    public let budget: Budget
    /// The period viewed.
    public let month: Month
    /// The days the figures cover (see ``Budget/days(viewing:in:)``).
    public let days: DayInterval
    /// The limit of the period.
    public let limit: Money
    /// What earlier periods carried in, before the cap.
    public let carried: Money
    /// `limit + carried`, at most the cap.
    public let available: Money
    public let spent: Money
    /// `available − spent`; negative when over budget.
    public let remaining: Money
    public let expenseCount: Int
    /// For a budget in its own currency (whose other figures are in it, ``BudgetCurrency``): what
    /// it spent in the ledger's currency, the sum every ledger total counts. `nil` for the others.
    public var ledgerSpent: Money?

    public init(
        budget: Budget, month: Month, days: DayInterval, limit: Money, carried: Money, available: Money, spent: Money,
        expenseCount: Int
    ) throws(TallyError) {
        self.budget = budget
        self.month = month
        self.days = days
        self.limit = limit
        self.carried = carried
        self.available = available
        self.spent = spent
        self.remaining = try available - spent
        self.expenseCount = expenseCount
    }

    public var isOverBudget: Bool { spent > available }
}
