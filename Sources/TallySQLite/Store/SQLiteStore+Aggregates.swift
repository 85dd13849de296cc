import Foundation
import GRDB
import TallyCore

// The figures: budget statuses, spending by day and by tag, a month's summary, spending per
// month, and one budget's figure for `tally add`. Each is a Core rule (`Budget.status(in:of:)`,
// `Budget.spent(in:of:)`, `Spending`) computed in SQL or read from `budgetMonth`, its cache; the
// contract suite proves them equal to `InMemoryStore`, which answers through the rules themselves.
extension SQLiteStore {
    // MARK: - Aggregates

    /// `Budget.status(viewing:in:of:)` of `budgets` (every budget when `nil`), proved equal by
    /// the contract suite: each budget's spent and count from its own rows of `budgetMonth`
    /// (`figure(of:in:_:_:)`), a few rows a budget however its expenses are split, and the
    /// histories of those that roll over from one read.
    static func statuses(for month: Month, of budgets: [Budget]?, _ db: Database) throws -> [BudgetStatus] {
        let calendar = try Self.calendar(db)
        let budgets = try budgets ?? Self.allBudgets(db)
        let histories = try Self.histories(of: budgets, calendar, db)
        return try budgets.map { budget in
            let (spent, count) = try figure(of: budget, in: month, calendar, db)
            return try budget.status(
                viewing: month, in: calendar, spent: Money(cents: spent), expenseCount: count, history: histories[budget.id ?? 0] ?? BudgetHistory())
        }
    }

    /// What each budget that rolls over spent in each of its periods, and where its history
    /// begins: `Budget.history(in:of:)` read from `budgetMonth`, its cache, one row per budget
    /// and period (24 rows a budget for two years of monthly history, 240 for twenty).
    static func histories(of budgets: [Budget], _ calendar: PeriodCalendar, _ db: Database) throws -> [Int64: BudgetHistory] {
        var rolling: [Int64: Budget] = [:]
        for budget in budgets where budget.rollover != .none && budget.period != .once { rolling[budget.id ?? 0] = budget }
        guard !rolling.isEmpty else { return [:] }
        let ids = "[" + rolling.keys.map(String.init).joined(separator: ",") + "]"
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT budgetId, month, spentCents FROM budgetMonth
                WHERE expenseCount > 0 AND budgetId IN (SELECT value FROM json_each(?))
                """,
            arguments: [ids])
        var histories: [Int64: BudgetHistory] = [:]
        var firstPeriods: [Int64: Month] = [:]
        while let row = try rows.next() {
            let id: Int64 = row[0]
            guard let budget = rolling[id] else { continue }
            let period = try Month(storedNumber: row[1])
            // A REAL marks a sum that overflowed (see `Schema.v3`).
            let stored: DatabaseValue = row[2]
            guard case .int64(let cents) = stored.storage else { throw TallyError.arithmeticOverflow }
            let key = budget.periodKey(of: period)
            var history = histories[id] ?? BudgetHistory()
            history.spentByPeriod[key] = try (history.spentByPeriod[key] ?? .zero) + Money(cents: cents)
            histories[id] = history
            if firstPeriods[id].map({ period < $0 }) ?? true { firstPeriods[id] = period }
        }
        for (id, first) in firstPeriods { histories[id]?.earliestExpense = calendar.days(of: first).first }
        return histories
    }

    // MARK: - Report Aggregates

    /// `Spending.byMonth(in:budgets:of:)` read from `budgetMonth`, its cache of each budget's
    /// spending per period (a few hundred rows instead of a month of expenses a period); proved
    /// equal by the contract suite. Only when a cached sum overflowed does it sum the expenses,
    /// each distinct period interval once, from the covering index in its order.
    public func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        try read { db in
            let budgets = try Self.allBudgets(db)
            if let cached = try Self.cachedSpentByPeriod(in: months, budgets: budgets, db) { return cached }
            let calendar = try Self.calendar(db)
            var byInterval: [DayInterval: [Int64: (spent: Money, count: Int)]] = [:]
            var spent: [Month: [Int64: Money]] = [:]
            for month in Spending.months(in: months) {
                var byBudget: [Int64: Money] = [:]
                for budget in budgets {
                    guard let id = budget.id else { continue }
                    let interval = calendar.days(of: month)
                    if byInterval[interval] == nil { byInterval[interval] = try Self.spentByBudget(in: interval, db) }
                    if let figure = byInterval[interval]?[id] { byBudget[id] = figure.spent }
                }
                spent[month] = byBudget
            }
            return spent
        }
    }

    /// What each budget spent in `days`, and on how many expenses (`Budget.spent(in:of:)` and the
    /// count of `Budget.status(in:of:)` for a budget whose period is `days`): summed from
    /// `expenseDay`, a few hundred rows a month. Only when a cached sum overflowed (a REAL) does it
    /// read the expenses (`portionSums`).
    private static func spentByBudget(in days: DayInterval, _ db: Database) throws -> [Int64: (spent: Money, count: Int)] {
        let cached = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT budgetId, SUM(spentCents), SUM(expenseCount), MAX(typeof(spentCents) <> 'integer') FROM expenseDay
                WHERE date BETWEEN ? AND ? GROUP BY budgetId
                """),
            arguments: [days.first.storedNumber, days.last.storedNumber])
        guard cached.contains(where: { $0[3] == true }) else {
            var figures: [Int64: (spent: Money, count: Int)] = [:]
            for row in cached { figures[row[0]] = (Money(cents: row[1]), row[2]) }
            return figures
        }
        return try portionSums(in: days, budgetID: nil, db)
    }

    // MARK: - One Budget's Figures

    /// `budget`'s spent and count in the view of `month`, as `tally add`, `budget list` and the
    /// month report show them: the rows of `budgetMonth` (see `Schema.v3` and `v4`) instead of
    /// summing the period's expenses or day groups (which a split's lines multiply): one row for
    /// a monthly budget, the year's rows to date for a yearly one. Those rows are a cache of `Budget.status(viewing:in:of:)`'s spent and count,
    /// proved equal by the contract suite and `cacheMismatches()`. A once budget's range is
    /// summed from `expenseDay` (`spentInDays`).
    private static func figure(of budget: Budget, in month: Month, _ calendar: PeriodCalendar, _ db: Database) throws -> (spent: Int64, count: Int) {
        let days = budget.days(viewing: month, in: calendar)
        let first: Int64
        switch budget.period {
        case .monthly: first = month.storedNumber
        case .yearly: first = Int64(month.year) * 100 + 1
        case .once: return try spentInDays(of: budget, in: days, db)
        }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT spentCents, expenseCount FROM budgetMonth WHERE budgetId = ? AND month BETWEEN ? AND ?"),
            arguments: [budget.id, first, month.storedNumber])
        var (spent, count): (Int64, Int) = (0, 0)
        while let row = try rows.next() {
            // A REAL marks a sum that overflowed; summing the expenses reports it.
            let stored: DatabaseValue = row[0]
            guard case .int64(let cents) = stored.storage else { return try spentInDays(of: budget, in: days, db) }
            let (sum, overflow) = spent.addingReportingOverflow(cents)
            if overflow { return try spentInDays(of: budget, in: days, db) }
            spent = sum
            count += row[1]
        }
        return (spent, count)
    }

    /// One budget's spent and count within `days` (a once budget's range) from `expenseDay`, which
    /// counts each line of a split in its budget and a refund below zero; by Core's rule from the
    /// expenses when a cached sum overflowed (a REAL).
    private static func spentInDays(of budget: Budget, in days: DayInterval, _ db: Database) throws -> (spent: Int64, count: Int) {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT COALESCE(SUM(spentCents), 0), COALESCE(SUM(expenseCount), 0), MAX(typeof(spentCents) <> 'integer')
                FROM expenseDay WHERE budgetId = ? AND date BETWEEN ? AND ?
                """),
            arguments: [budget.id, days.first.storedNumber, days.last.storedNumber])
        // No group at all sums to NULL flags, hence the optional.
        let overflowed: Bool? = row?[2]
        if let row, overflowed != true, case .int64(let cents) = (row[0] as DatabaseValue).storage { return (cents, row[1]) }
        let figure = try portionSums(in: days, budgetID: budget.id, db)[budget.id ?? 0]
        return (figure?.spent.cents ?? 0, figure?.count ?? 0)
    }

    /// Each budget's spent and count within `days` (one budget's when `budgetID` is given) by
    /// Core's rule (``Expense/portions``), from the expenses: the answer when a cached sum
    /// overflowed, which throws ``TallyError/arithmeticOverflow`` if the true sum does too.
    private static func portionSums(in days: DayInterval, budgetID: Int64?, _ db: Database) throws -> [Int64: (spent: Money, count: Int)] {
        var figures: [Int64: (spent: Money, count: Int)] = [:]
        try forEachExpense(ExpenseQuery(budgetID: budgetID, days: days), db) { (expense: Expense) throws(TallyError) in
            for portion in try expense.portions where budgetID == nil || portion.budgetID == budgetID {
                let figure = figures[portion.budgetID] ?? (.zero, 0)
                figures[portion.budgetID] = (try figure.spent + portion.amount, figure.count + 1)
            }
        }
        return figures
    }

    // MARK: - Aggregate Helpers

    /// The day of a stored `date`; the schema's CHECK allows a few that do not exist (`20260231`).
    static func day(_ number: Int64) throws(TallyError) -> Day {
        guard let day = Day(storedNumber: number) else { throw .storage("an expense has an invalid date \(number)") }
        return day
    }
}
