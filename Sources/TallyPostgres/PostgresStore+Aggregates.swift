import Foundation
import PostgresNIO
import TallyCore

// The figures a report and `budget list` show, summed on the server: a month of a million-row
// ledger is 41,667 expenses, which cost 0.9 s to send and decode as rows, and a few hundred
// groups as sums. Each is a Core rule (`Budget.status(viewing:in:of:)`, `Spending`) computed in
// SQL and finished by the rule itself; the contract suite and the differential test prove them
// equal to `InMemoryStore`, which applies the rules to the expenses. A sum beyond Int64 fails
// the cast to BIGINT, which `PostgresSession` reports as `arithmeticOverflow`, as Money does.
extension PostgresStore {
    struct Figure {
        var spent = Money.zero
        var count = 0
    }

    /// What each budget spent in `days`, and on how many expenses: `Budget.spent(in:of:)` and the
    /// count of `Budget.status(viewing:in:of:)` for a budget whose view is `days`.
    func spentByBudget(in days: DayInterval) throws(TallyError) -> [Int64: Figure] {
        var figures: [Int64: Figure] = [:]
        for row in try session.query(
            "SELECT budgetId, SUM(amountCents * quantity)::bigint, count(*) FROM expense WHERE date BETWEEN $1 AND $2 GROUP BY budgetId",
            [.int(days.first.stored), .int(days.last.stored)])
        {
            figures[try row.int(0)] = Figure(spent: Money(cents: try row.int(1)), count: Int(try row.int(2)))
        }
        return figures
    }

    /// `Budget.history(in:of:)` of every budget that rolls over: what it spent per day of its
    /// whole history, folded into its periods here, where the month-start setting is known.
    func histories(of budgets: [Budget], _ calendar: PeriodCalendar) throws(TallyError) -> [Int64: BudgetHistory] {
        var rolling: [Int64: Budget] = [:]
        for budget in budgets where budget.rollover != .none && budget.period != .once { rolling[budget.id ?? 0] = budget }
        guard !rolling.isEmpty else { return [:] }
        var histories: [Int64: BudgetHistory] = [:]
        for row in try session.query(
            "SELECT budgetId, date, SUM(amountCents * quantity)::bigint FROM expense WHERE budgetId = ANY($1) GROUP BY budgetId, date",
            [.ints(Array(rolling.keys))])
        {
            let id = try row.int(0)
            guard let budget = rolling[id] else { continue }
            var history = histories[id] ?? BudgetHistory()
            try history.add(Money(cents: try row.int(2)), on: try Day(stored: try row.int(1)), of: budget, in: calendar)
            histories[id] = history
        }
        return histories
    }

    /// `Budget.status(viewing:in:of:)` of each of `budgets`; budgets that view the same days
    /// share one grouped read.
    func statuses(for month: Month, budgets: [Budget], calendar: PeriodCalendar) throws(TallyError) -> [BudgetStatus] {
        var figures: [DayInterval: [Int64: Figure]] = [:]
        for days in Set(budgets.map { $0.days(viewing: month, in: calendar) }) { figures[days] = try spentByBudget(in: days) }
        let histories = try histories(of: budgets, calendar)
        var statuses: [BudgetStatus] = []
        statuses.reserveCapacity(budgets.count)
        for budget in budgets {
            let figure = figures[budget.days(viewing: month, in: calendar)]?[budget.id ?? 0] ?? Figure()
            statuses.append(
                try budget.status(
                    viewing: month, in: calendar, spent: figure.spent, expenseCount: figure.count, history: histories[budget.id ?? 0] ?? BudgetHistory()))
        }
        return statuses
    }

    // MARK: - DataAccess

    public func budgetStatuses(for month: Month) throws(TallyError) -> [BudgetStatus] {
        try read { () throws(TallyError) in try statuses(for: month, budgets: try loadBudgets(), calendar: try loadSettings().calendar) }
    }

    public func status(of budget: Budget, in month: Month) throws(TallyError) -> BudgetStatus {
        try read { () throws(TallyError) in try statuses(for: month, budgets: [budget], calendar: try loadSettings().calendar)[0] }
    }

    public func spendingByDay(in days: DayInterval) throws(TallyError) -> [Day: Money] {
        try read { () throws(TallyError) in
            var totals: [Day: Money] = [:]
            for row in try session.query(
                "SELECT date, SUM(amountCents * quantity)::bigint FROM expense WHERE date BETWEEN $1 AND $2 GROUP BY date",
                [.int(days.first.stored), .int(days.last.stored)])
            {
                totals[try Day(stored: try row.int(0))] = Money(cents: try row.int(1))
            }
            return totals
        }
    }

    public func spendingByTag(in days: DayInterval) throws(TallyError) -> [String: Money] {
        try read { () throws(TallyError) in
            var totals: [String: Money] = [:]
            for row in try session.query(
                """
                SELECT tag, SUM(amountCents * quantity)::bigint FROM expense, unnest(tags) AS tag
                WHERE date BETWEEN $1 AND $2 AND cardinality(tags) > 0 GROUP BY tag
                """, [.int(days.first.stored), .int(days.last.stored)])
            {
                totals[try row.string(0)] = Money(cents: try row.int(1))
            }
            return totals
        }
    }

    public func spendingByPerson(in days: DayInterval) throws(TallyError) -> [PersonSpending] {
        try read { () throws(TallyError) in
            var people: [PersonSpending] = []
            for row in try session.query(
                "SELECT spentBy, SUM(amountCents * quantity)::bigint, count(*) FROM expense WHERE date BETWEEN $1 AND $2 GROUP BY spentBy",
                [.int(days.first.stored), .int(days.last.stored)])
            {
                people.append(PersonSpending(by: try row.string(0), spent: Money(cents: try row.int(1)), expenses: Int(try row.int(2))))
            }
            return PersonSpending.ordered(people)
        }
    }

    /// One grouped read gives every figure of the month: a group per day, budget and tag set,
    /// about 750 for a month of 41,667 expenses, from which each budget's status, the spending
    /// by day and by tag are summed as `SQLiteStore.monthSummary` sums them.
    public func monthSummary(for month: Month) throws(TallyError) -> MonthSummary {
        try read { () throws(TallyError) in
            let budgets = try loadBudgets()
            let calendar = try loadSettings().calendar
            let periodDays = calendar.days(of: month)
            let intervals = budgets.map { $0.days(viewing: month, in: calendar) }
            let span = periodDays.spanning(intervals)
            var groups: [(budgetID: Int64, day: Day, tags: [String], figure: Figure)] = []
            for row in try session.query(
                """
                SELECT budgetId, date, tags, SUM(amountCents * quantity)::bigint, count(*) FROM expense
                WHERE date BETWEEN $1 AND $2 GROUP BY date, budgetId, tags
                """, [.int(span.first.stored), .int(span.last.stored)])
            {
                groups.append(
                    (try row.int(0), try Day(stored: try row.int(1)), try row.strings(2), Figure(spent: Money(cents: try row.int(3)), count: Int(try row.int(4)))))
            }
            let histories = try histories(of: budgets, calendar)
            var groupsByBudget: [Int64: [Int]] = [:]
            for (index, group) in groups.enumerated() { groupsByBudget[group.budgetID, default: []].append(index) }
            var statuses: [BudgetStatus] = []
            for (budget, interval) in zip(budgets, intervals) {
                var figure = Figure()
                for index in groupsByBudget[budget.id ?? 0] ?? [] where interval.contains(groups[index].day) {
                    figure.spent = try figure.spent + groups[index].figure.spent
                    figure.count += groups[index].figure.count
                }
                statuses.append(
                    try budget.status(
                        viewing: month, in: calendar, spent: figure.spent, expenseCount: figure.count, history: histories[budget.id ?? 0] ?? BudgetHistory()))
            }
            var spentByDay: [Day: Money] = [:]
            var spentByTag: [String: Money] = [:]
            for group in groups where periodDays.contains(group.day) {
                spentByDay[group.day] = try (spentByDay[group.day] ?? .zero) + group.figure.spent
                for tag in group.tags { spentByTag[tag] = try (spentByTag[tag] ?? .zero) + group.figure.spent }
            }
            return MonthSummary(month: month, days: periodDays, statuses: statuses, spentByDay: spentByDay, spentByTag: spentByTag)
        }
    }

    /// `Spending.byMonth(in:budgets:of:)`: one grouped read per day and budget over the months,
    /// folded into each month's days.
    public func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        try read { () throws(TallyError) in
            let calendar = try loadSettings().calendar
            let budgetIDs = Set(try loadBudgets().compactMap(\.id))
            let all = Spending.months(in: months)
            var spent: [Month: [Int64: Money]] = [:]
            for month in all { spent[month] = [:] }
            let days = DayInterval(first: calendar.days(of: months.lowerBound).first, last: calendar.days(of: months.upperBound).last)
            for row in try session.query(
                "SELECT budgetId, date, SUM(amountCents * quantity)::bigint FROM expense WHERE date BETWEEN $1 AND $2 GROUP BY date, budgetId",
                [.int(days.first.stored), .int(days.last.stored)])
            {
                let id = try row.int(0)
                guard budgetIDs.contains(id) else { continue }
                let month = calendar.period(containing: try Day(stored: try row.int(1)))
                guard spent[month] != nil else { continue }
                let sum = try (spent[month]?[id] ?? .zero) + Money(cents: try row.int(2))
                spent[month]?[id] = sum
            }
            return spent
        }
    }
}
