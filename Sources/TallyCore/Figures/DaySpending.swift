import Foundation

/// What one budget's expenses of one day, with one tag set and by one person, spent: the grain a
/// store keeps in its day cache (SQLite's `expenseDay`), from which a period's spending by day,
/// by tag and by person, and a range's tagged spending, are summed in Core.
public struct DaySpending: Hashable, Sendable {
    public var day: Day
    public var budgetID: Int64
    /// Sorted; empty for expenses without tags.
    public var tags: [String]
    /// Who spent it (``Expense/by``); empty when no one is recorded.
    public var by: String
    public var spent: Money
    public var count: Int

    public init(day: Day, budgetID: Int64, tags: [String], by: String, spent: Money, count: Int) {
        self.day = day
        self.budgetID = budgetID
        self.tags = tags
        self.by = by
        self.spent = spent
        self.count = count
    }

    /// The groups of the expenses within `days`, from the expenses themselves: what a store's
    /// ``LedgerRows/daySpending(in:)`` answers, in no particular order.
    public static func grouping(_ expenses: some Sequence<Expense>, in days: DayInterval) throws(TallyError) -> [DaySpending] {
        var groups: [Key: DaySpending] = [:]
        for expense in expenses where days.contains(expense.date) {
            for portion in try expense.portions {
                let key = Key(day: expense.date, budgetID: portion.budgetID, tags: portion.tags.sorted(), by: expense.by)
                var group = groups[key] ?? DaySpending(day: key.day, budgetID: key.budgetID, tags: key.tags, by: key.by, spent: .zero, count: 0)
                group.spent = try group.spent + portion.amount
                group.count += 1
                groups[key] = group
            }
        }
        return Array(groups.values)
    }

    private struct Key: Hashable {
        var day: Day
        var budgetID: Int64
        var tags: [String]
        var by: String
    }
}

/// What ``LedgerRows/daySpending(in:)`` answers for a period: its ``DaySpending`` groups (the
/// sequence) and its spending in other currencies, which reports show as "by currency".
public struct PeriodSpending: Hashable, Sendable, Sequence {
    public var groups: [DaySpending]
    /// ``CurrencySpending/totals(_:)`` of the period's expenses, ordered by currency code.
    public var byCurrency: [CurrencySpending]

    public init(groups: [DaySpending], byCurrency: [CurrencySpending] = []) {
        self.groups = groups
        self.byCurrency = byCurrency
    }

    public func makeIterator() -> IndexingIterator<[DaySpending]> { groups.makeIterator() }

    /// The rule a store's answer copies: the groups and currency totals of the expenses within
    /// `days`, from the expenses themselves.
    public static func of(_ expenses: some Sequence<Expense>, in days: DayInterval) throws(TallyError) -> PeriodSpending {
        let within = expenses.filter { days.contains($0.date) }
        return PeriodSpending(groups: try DaySpending.grouping(within, in: days), byCurrency: try CurrencySpending.totals(within))
    }
}

/// A period's spending by day, by tag and by person, and in other currencies: what a
/// ``MonthSummary`` shows beside the statuses (``PeriodSpending/totals()``).
public struct PeriodTotals: Hashable, Sendable {
    /// Spent per day; days without expenses are absent.
    public var byDay: [Day: Money]
    /// Spent per tag; an expense with several tags counts in each.
    public var byTag: [String: Money]
    /// Spent and counted per person, in ``PersonSpending/ordered(_:)``'s order.
    public var byPerson: [PersonSpending]
    /// ``CurrencySpending/totals(_:)``, ordered by currency code.
    public var byCurrency: [CurrencySpending]

    public init(byDay: [Day: Money], byTag: [String: Money], byPerson: [PersonSpending], byCurrency: [CurrencySpending]) {
        self.byDay = byDay
        self.byTag = byTag
        self.byPerson = byPerson
        self.byCurrency = byCurrency
    }
}

extension PeriodSpending {
    /// The groups summed by day, tag and person (``Sequence/byDay()``, ``Sequence/byTag()``,
    /// ``Sequence/byPerson()``), with the spending by currency beside them, in one pass: a run of
    /// one day's groups (a store hands them together) is summed before the day is looked up, and
    /// one person's before the name is hashed (a split ledger's month is thousands of groups).
    public func totals() throws(TallyError) -> PeriodTotals {
        var byDay: [Day: Money] = [:]
        var byTag: [String: Money] = [:]
        var people: [PersonSpending] = []
        var positions: [String: Int] = [:]
        var last = 0
        var run: (day: Day, spent: Money)?
        for index in groups.indices {
            let spent = groups[index].spent
            if let current = run, current.day == groups[index].day {
                run?.spent = try current.spent + spent
            } else {
                if let current = run { try add(current.spent, to: &byDay[current.day, default: .zero]) }
                run = (groups[index].day, spent)
            }
            for tag in groups[index].tags { try add(spent, to: &byTag[tag, default: .zero]) }
            let by = groups[index].by
            if last < people.count, people[last].by == by {
                try add(groups[index], to: &people[last])
            } else if let known = positions[by] {
                try add(groups[index], to: &people[known])
                last = known
            } else {
                positions[by] = people.count
                last = people.count
                people.append(PersonSpending(by: by, spent: spent, expenses: groups[index].count))
            }
        }
        if let current = run { try add(current.spent, to: &byDay[current.day, default: .zero]) }
        return PeriodTotals(byDay: byDay, byTag: byTag, byPerson: PersonSpending.ordered(people), byCurrency: byCurrency)
    }
}

extension Sequence<DaySpending> {
    /// Spent per day; days without expenses are absent (``Spending/byDay(in:of:)``).
    public func byDay() throws(TallyError) -> [Day: Money] {
        var spent: [Day: Money] = [:]
        for group in self { try add(group.spent, to: &spent[group.day, default: .zero]) }
        return spent
    }

    /// Spent per tag; a group with several tags counts in each (``Spending/byTag(in:of:)``).
    public func byTag() throws(TallyError) -> [String: Money] {
        var spent: [String: Money] = [:]
        for group in self {
            for tag in group.tags { try add(group.spent, to: &spent[tag, default: .zero]) }
        }
        return spent
    }

    /// Spent and counted per person, in ``PersonSpending/ordered(_:)``'s order
    /// (``Spending/byPerson(in:of:)``).
    public func byPerson() throws(TallyError) -> [PersonSpending] {
        var totals: [String: PersonSpending] = [:]
        for group in self {
            try add(group, to: &totals[group.by, default: PersonSpending(by: group.by, spent: .zero, expenses: 0)])
        }
        return PersonSpending.ordered(Array(totals.values))
    }

    /// The tagged groups per budget, day and tag set (``TaggedSpending/grouping(_:in:)``), in no
    /// particular order.
    public func tagged() throws(TallyError) -> [TaggedSpending] {
        var spent: [TaggedSpending.GroupKey: Money] = [:]
        for group in self where !group.tags.isEmpty {
            let key = TaggedSpending.GroupKey(budgetID: group.budgetID, day: group.day, tags: group.tags)
            try add(group.spent, to: &spent[key, default: .zero])
        }
        return spent.map { TaggedSpending(budgetID: $0.key.budgetID, day: $0.key.day, tags: $0.key.tags, spent: $0.value) }
    }
}

extension LedgerRows {
    /// ``DataAccess/monthSummary(for:)`` inside a read the caller holds, so a report can read
    /// other figures (``accountFigures(for:)``) in the same transaction.
    public func monthSummary(for month: Month) throws(TallyError) -> MonthSummary {
        let days = try settings().calendar.days(of: month)
        let statuses = try statuses(for: month, of: nil)
        let totals = try daySpending(in: days).totals()
        return MonthSummary(
            month: month, days: days, statuses: statuses, spentByDay: totals.byDay, spentByTag: totals.byTag,
            spentByPerson: totals.byPerson, byCurrency: totals.byCurrency)
    }
}

extension DataAccess {
    /// The period's budget statuses and spending by day, tag, person and currency, from one read:
    /// the statuses (``LedgerRows/budgetStatuses(for:of:)``) and the period's ``PeriodSpending``.
    /// Throws ``TallyError/arithmeticOverflow`` when any of its figures would.
    public func monthSummary(for month: Month) throws(TallyError) -> MonthSummary {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.monthSummary(for: month) }
    }

    /// Total spent and number of expenses per person (``Expense/by``) within `days`:
    /// ``Spending/byPerson(in:of:)``, in its order.
    public func spendingByPerson(in days: DayInterval) throws(TallyError) -> [PersonSpending] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.daySpending(in: days).byPerson() }
    }

    /// What the tagged expenses within `days` spent per budget, day and tag set:
    /// ``TaggedSpending/grouping(_:in:)``, in no particular order.
    public func taggedSpending(in days: DayInterval) throws(TallyError) -> [TaggedSpending] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.daySpending(in: days).tagged() }
    }
}

// Sums in place: a dictionary's entry is looked up once, not read and then written (the month
// report sums a few thousand groups this way).
private func add(_ amount: Money, to total: inout Money) throws(TallyError) {
    total = try total + amount
}

private func add(_ group: DaySpending, to line: inout PersonSpending) throws(TallyError) {
    line.spent = try line.spent + group.spent
    line.expenses += group.count
}
