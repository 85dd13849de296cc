import Foundation
import GRDB
import TallyCore

// The figures: budget statuses, spending by day and by tag, a month's summary, spending per
// month, and one budget's figure for `tally add`. Each is a Core rule (`Budget.status(in:of:)`,
// `Budget.spent(in:of:)`, `Spending`) computed in SQL or read from `budgetMonth`, its cache; the
// contract suite proves them equal to `InMemoryStore`, which answers through the rules themselves.
extension SQLiteStore {
    // MARK: - Aggregates

    /// `Budget.status(in:of:)` for every budget, in SQL, proved equal by the contract suite.
    public func budgetStatuses(for month: Month) throws(TallyError) -> [BudgetStatus] {
        try read { db in
            let budgets = try Self.allBudgets(db)
            // Budgets of the same period share one aggregate query.
            var figures: [DayInterval: [Int64: (spent: Money, count: Int)]] = [:]
            for days in Set(budgets.map { $0.interval(for: month) }) {
                figures[days] = try Self.spentByBudget(in: days, db)
            }
            var statuses: [BudgetStatus] = []
            for budget in budgets {
                let figure = figures[budget.interval(for: month)]?[budget.id ?? 0] ?? (.zero, 0)
                statuses.append(
                    try BudgetStatus(budget: budget, month: month, spent: figure.spent, expenseCount: figure.count))
            }
            return statuses
        }
    }

    /// `Spending.byDay(in:of:)` in SQL, proved equal by the contract suite.
    public func spendingByDay(in days: DayInterval) throws(TallyError) -> [Day: Money] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT date, SUM(amountCents * quantity) AS spent FROM expense
                    WHERE date BETWEEN ? AND ? GROUP BY date
                    """,
                arguments: [days.first.storedNumber, days.last.storedNumber])
            var totals: [Day: Money] = [:]
            for row in rows {
                totals[try Self.day(row["date"])] = Money(cents: row["spent"])
            }
            return totals
        }
    }

    /// `Spending.byTag(in:of:)` in SQL, proved equal by the contract suite.
    public func spendingByTag(in days: DayInterval) throws(TallyError) -> [String: Money] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                // Summed in the covering index's order first (no sort), then per tag over few rows.
                sql: """
                    SELECT t.name AS tag, SUM(bySet.spent) AS spent
                    FROM (
                        SELECT tagSetId, SUM(amountCents * quantity) AS spent FROM expense
                        WHERE date BETWEEN ? AND ? AND tagSetId IS NOT NULL
                        GROUP BY date, budgetId, tagSetId
                    ) bySet
                    JOIN tagSetTag st ON st.tagSetId = bySet.tagSetId
                    JOIN tag t ON t.id = st.tagId
                    GROUP BY t.id
                    """,
                arguments: [days.first.storedNumber, days.last.storedNumber])
            var totals: [String: Money] = [:]
            for row in rows { totals[row["tag"]] = Money(cents: row["spent"]) }
            return totals
        }
    }

    // MARK: - Report Aggregates

    /// One grouped read of the covering index gives every figure of the month: each group holds
    /// one budget's expenses of one day with one tag set, 744 groups for a month of 41,667
    /// expenses. The groups follow the index's order, so SQLite streams them without sorting
    /// (4 ms; grouping by budget first made it sort the month, 12 ms). Its statuses, spending by
    /// day and by tag are `Budget.status(in:of:)`, `Spending.byDay(in:of:)` and
    /// `Spending.byTag(in:of:)` for the month, proved equal by the contract suite.
    public func monthSummary(for month: Month) throws(TallyError) -> MonthSummary {
        try read { db in
            let budgets = try Self.allBudgets(db)
            let intervals = budgets.map { $0.interval(for: month) }
            let span = Self.span(month.days, intervals)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT budgetId, date, tagSetId, SUM(amountCents * quantity) AS spent, COUNT(*) AS count
                    FROM expense WHERE date BETWEEN ? AND ?
                    GROUP BY date, budgetId, tagSetId
                    """,
                arguments: [span.first.storedNumber, span.last.storedNumber])
            var groups: [(budgetID: Int64, day: Day, tagSetID: Int64?, spent: Money, count: Int)] = []
            while let row = try rows.next() {
                groups.append((row[0], try Self.day(row[1]), row[2], Money(cents: row[3]), row[4]))
            }

            var groupsByBudget: [Int64: [Int]] = [:]
            for (index, group) in groups.enumerated() { groupsByBudget[group.budgetID, default: []].append(index) }
            var statuses: [BudgetStatus] = []
            statuses.reserveCapacity(budgets.count)
            for (budget, interval) in zip(budgets, intervals) {
                var spent = Money.zero
                var count = 0
                for index in groupsByBudget[budget.id ?? 0] ?? [] where interval.contains(groups[index].day) {
                    spent = try spent + groups[index].spent
                    count += groups[index].count
                }
                statuses.append(try BudgetStatus(budget: budget, month: month, spent: spent, expenseCount: count))
            }

            var spentByDay: [Day: Money] = [:]
            var spentBySet: [Int64: Money] = [:]
            for group in groups where month.days.contains(group.day) {
                spentByDay[group.day] = try (spentByDay[group.day] ?? .zero) + group.spent
                if let set = group.tagSetID { spentBySet[set] = try (spentBySet[set] ?? .zero) + group.spent }
            }
            var spentByTag: [String: Money] = [:]
            let tags = try Self.tags(ofSets: Array(spentBySet.keys), db)
            for (set, spent) in spentBySet {
                for tag in tags[set] ?? [] { spentByTag[tag] = try (spentByTag[tag] ?? .zero) + spent }
            }
            return MonthSummary(month: month, statuses: statuses, spentByDay: spentByDay, spentByTag: spentByTag)
        }
    }

    /// `Spending.byMonth(in:budgets:of:)` in SQL, proved equal by the contract suite. Each
    /// distinct period interval is summed once, from the covering index in its order.
    public func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        try read { db in
            let budgets = try Self.allBudgets(db)
            var byInterval: [DayInterval: [Int64: (spent: Money, count: Int)]] = [:]
            var spent: [Month: [Int64: Money]] = [:]
            for month in Spending.months(in: months) {
                var byBudget: [Int64: Money] = [:]
                for budget in budgets {
                    guard let id = budget.id else { continue }
                    let interval = budget.interval(for: month)
                    if byInterval[interval] == nil { byInterval[interval] = try Self.spentByBudget(in: interval, db) }
                    if let figure = byInterval[interval]?[id] { byBudget[id] = figure.spent }
                }
                spent[month] = byBudget
            }
            return spent
        }
    }

    /// What each budget spent in `days`, and on how many expenses (`Budget.spent(in:of:)` and the
    /// count of `Budget.status(in:of:)` for a budget whose period is `days`). Grouping by day then
    /// budget follows the covering index, so SQLite streams a month's few hundred groups without
    /// sorting its entries (3 ms against 8 ms for `GROUP BY budgetId` on a month of 41,667 expenses).
    private static func spentByBudget(in days: DayInterval, _ db: Database) throws -> [Int64: (spent: Money, count: Int)] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT budgetId, SUM(amountCents * quantity), COUNT(*) FROM expense
                WHERE date BETWEEN ? AND ? GROUP BY date, budgetId
                """),
            arguments: [days.first.storedNumber, days.last.storedNumber])
        var figures: [Int64: (spent: Money, count: Int)] = [:]
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let figure = figures[id] ?? (.zero, 0)
            figures[id] = (try figure.spent + Money(cents: row[1]), figure.count + row[2])
        }
        return figures
    }

    /// The smallest interval holding `first` and all of `others`.
    private static func span(_ first: DayInterval, _ others: [DayInterval]) -> DayInterval {
        var span = first
        for interval in others {
            span = DayInterval(first: min(span.first, interval.first), last: max(span.last, interval.last))
        }
        return span
    }

    // MARK: - One Budget's Figures

    public func status(of budget: Budget, in month: Month) throws(TallyError) -> BudgetStatus {
        try read { db in try Self.status(of: budget, in: month, db) }
    }

    static func status(of budget: Budget, in month: Month, _ db: Database) throws -> BudgetStatus {
        let (spent, count) = try figure(of: budget, in: month, db)
        return try BudgetStatus(budget: budget, month: month, spent: Money(cents: spent), expenseCount: count)
    }

    /// `budget`'s figures for `month`, as `tally add` shows them: one row of `budgetMonth` (see
    /// `Schema.v3`) instead of summing the month's expenses, which took a fifth of the command.
    /// That row is a cache of `Budget.status(in:of:)`'s spent and count for a monthly budget,
    /// proved equal by the contract suite and `budgetMonthMismatches()`.
    private static func figure(of budget: Budget, in month: Month, _ db: Database) throws -> (spent: Int64, count: Int) {
        switch budget.period {
        case .monthly:
            let stored = try Row.fetchOne(
                db, sql: "SELECT spentCents, expenseCount FROM budgetMonth WHERE budgetId = ? AND month = ?",
                arguments: [budget.id, Int64(month.year) * 100 + Int64(month.month)])
            guard let stored else { return (0, 0) }
            // A REAL marks a sum that overflowed; summing the expenses reports it.
            let spent: DatabaseValue = stored[0]
            if case .int64(let cents) = spent.storage { return (cents, stored[1]) }
            return try sumExpenses(of: budget, in: month, db)
        }
    }

    /// One budget's month summed from its expenses, one index probe per day: a date range would
    /// step over every other budget's entries (3 ms against 0.5 ms on a million expenses). This is
    /// `Budget.spent(in:of:)` and the count of `Budget.status(in:of:)` in SQL.
    private static func sumExpenses(of budget: Budget, in month: Month, _ db: Database) throws -> (spent: Int64, count: Int) {
        let days = Array(budget.interval(for: month))
        let placeholders = Array(repeating: "?", count: days.count).joined(separator: ", ")
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COALESCE(SUM(amountCents * quantity), 0), COUNT(*)
                FROM expense WHERE date IN (\(placeholders)) AND budgetId = ?
                """,
            arguments: StatementArguments(days.map(\.storedNumber)) + [budget.id])
        return row.map { ($0[0], $0[1]) } ?? (0, 0)
    }

    // MARK: - Aggregate Helpers

    /// The day of a stored `date`; the schema's CHECK allows a few that do not exist (`20260231`).
    private static func day(_ number: Int64) throws(TallyError) -> Day {
        guard let day = Day(storedNumber: number) else { throw .storage("an expense has an invalid date \(number)") }
        return day
    }
}
