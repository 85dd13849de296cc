import Foundation
import PostgresNIO
import TallyCore

// The figures a report and `budget list` show, summed on the server: a month of a million-row
// ledger is 41,667 expenses, which cost 0.9 s to send and decode as rows, and a few hundred
// groups as sums. Each budget's spending per period comes from `budgetMonth`, and each day's
// groups from `expenseDay`, the caches `PostgresCaches` alone writes: a few rows a budget or a
// day instead of every expense of the periods.
// Each is a Core rule (`Budget.status(viewing:in:of:)`, `Spending`) computed in SQL and finished
// by the rule itself; the contract suite and the differential test prove them equal to
// `InMemoryStore`, which applies the rules to the expenses. A sum beyond Int64 fails the cast to
// BIGINT, which `PostgresSession` reports as `arithmeticOverflow`, as Money does.
extension PostgresStore {
    struct Figure {
        var spent = Money.zero
        var count = 0
    }

    /// What each budget spent in `days`, and on how many expenses: `Budget.spent(in:of:)` and the
    /// count of `Budget.status(viewing:in:of:)` for a budget whose view is `days`, from
    /// `expenseDay`, which counts each line of a split in its budget and a refund below zero.
    func spentByBudget(in days: DayInterval) throws(TallyError) -> [Int64: Figure] {
        var figures: [Int64: Figure] = [:]
        for row in try session.query(
            "SELECT budgetId, SUM(spentCents)::bigint, SUM(expenseCount)::bigint FROM expenseDay WHERE date BETWEEN $1 AND $2 GROUP BY budgetId",
            [.int(days.first.stored), .int(days.last.stored)])
        {
            figures[try row.int(0)] = Figure(spent: Money(cents: try row.int(1)), count: Int(try row.int(2)))
        }
        return figures
    }

    /// `Budget.history(in:of:)` of every budget that rolls over, from `budgetMonth`: what it spent
    /// in each period, and where its history begins (the first day of its first period with an
    /// expense, which is all the rule asks of it), as `SQLiteStore.histories` reads it.
    func histories(of budgets: [Budget], _ calendar: PeriodCalendar) throws(TallyError) -> [Int64: BudgetHistory] {
        var rolling: [Int64: Budget] = [:]
        for budget in budgets where budget.rollover != .none && budget.period != .once { rolling[budget.id ?? 0] = budget }
        guard !rolling.isEmpty else { return [:] }
        var histories: [Int64: BudgetHistory] = [:]
        var firstPeriods: [Int64: Month] = [:]
        for row in try session.query(
            "SELECT budgetId, month, spentCents::bigint FROM budgetMonth WHERE expenseCount > 0 AND budgetId = ANY($1)", [.ints(Array(rolling.keys))])
        {
            let id = try row.int(0)
            guard let budget = rolling[id] else { continue }
            let period = try Month(stored: try row.int(1))
            let key = budget.periodKey(of: period)
            var history = histories[id] ?? BudgetHistory()
            history.spentByPeriod[key] = try (history.spentByPeriod[key] ?? .zero) + Money(cents: try row.int(2))
            histories[id] = history
            if firstPeriods[id].map({ period < $0 }) ?? true { firstPeriods[id] = period }
        }
        for (id, first) in firstPeriods { histories[id]?.earliestExpense = calendar.days(of: first).first }
        return histories
    }

    /// What each budget spent in the days it views in `month`, and on how many expenses: the
    /// spent and count of `Budget.status(viewing:in:of:)`. A monthly budget's view is one period
    /// of `budgetMonth`, a yearly one's the year's periods up to `month`; a once budget's range
    /// is summed from its expenses, one grouped read per range.
    func figures(of budgets: [Budget], viewing month: Month, _ calendar: PeriodCalendar) throws(TallyError) -> [Int64: Figure] {
        var figures: [Int64: Figure] = [:]
        let monthly = budgets.filter { $0.period == .monthly }.compactMap(\.id)
        let yearly = budgets.filter { $0.period == .yearly }.compactMap(\.id)
        if !monthly.isEmpty || !yearly.isEmpty {
            for row in try session.query(
                """
                SELECT budgetId, spentCents::bigint, expenseCount FROM budgetMonth
                WHERE expenseCount > 0 AND (budgetId = ANY($1) AND month = $3 OR budgetId = ANY($2) AND month BETWEEN $4 AND $3)
                """, [.ints(monthly), .ints(yearly), .int(month.stored), .int(Int64(month.year) * 100 + 1)])
            {
                let id = try row.int(0)
                var figure = figures[id] ?? Figure()
                figure.spent = try figure.spent + Money(cents: try row.int(1))
                figure.count += Int(try row.int(2))
                figures[id] = figure
            }
        }
        let once = budgets.filter { $0.period == .once }
        for days in Set(once.map { $0.days(viewing: month, in: calendar) }) {
            let sums = try spentByBudget(in: days)
            for budget in once where budget.days(viewing: month, in: calendar) == days {
                if let id = budget.id, let figure = sums[id] { figures[id] = figure }
            }
        }
        return figures
    }

    /// `Budget.status(viewing:in:of:)` of each of `budgets`.
    func statuses(for month: Month, budgets: [Budget], calendar: PeriodCalendar) throws(TallyError) -> [BudgetStatus] {
        let figures = try figures(of: budgets, viewing: month, calendar)
        let histories = try histories(of: budgets, calendar)
        var statuses: [BudgetStatus] = []
        statuses.reserveCapacity(budgets.count)
        for budget in budgets {
            let figure = figures[budget.id ?? 0] ?? Figure()
            statuses.append(
                try budget.status(
                    viewing: month, in: calendar, spent: figure.spent, expenseCount: figure.count, history: histories[budget.id ?? 0] ?? BudgetHistory()))
        }
        return statuses
    }

    /// `DaySpending.grouping(_:in:)` read from `expenseDay` (`PostgresCaches`), inside the
    /// caller's transaction: a month of a million-row ledger is about 750 of its rows.
    func daySpending(in days: DayInterval) throws(TallyError) -> PeriodSpending {
        var groups: [DaySpending] = []
        for row in try session.query(
            "SELECT date, budgetId, tags, spentBy, spentCents::bigint, expenseCount FROM expenseDay WHERE date BETWEEN $1 AND $2",
            [.int(days.first.stored), .int(days.last.stored)])
        {
            groups.append(
                DaySpending(
                    day: try Day(stored: try row.int(0)), budgetID: try row.int(1), tags: try row.strings(2).sorted(), by: try row.string(3),
                    spent: Money(cents: try row.int(4)), count: Int(try row.int(5))))
        }
        // `CurrencySpending.totals` in SQL over the partial index `expense_foreign`: NUMERIC
        // products and sums cast to BIGINT, so one past Int64 fails as every figure does.
        var byCurrency: [CurrencySpending] = []
        for row in try session.query(
            """
            SELECT originalCurrency, SUM(originalMinor::numeric * quantity)::bigint, SUM(amountCents::numeric * quantity)::bigint, COUNT(*)
            FROM expense WHERE date BETWEEN $1 AND $2 AND originalCurrency IS NOT NULL
            GROUP BY originalCurrency ORDER BY originalCurrency COLLATE "C"
            """,
            [.int(days.first.stored), .int(days.last.stored)])
        {
            byCurrency.append(
                CurrencySpending(
                    original: CurrencyAmount(minorUnits: try row.int(1), currency: Currency(storedCode: try row.string(0))),
                    converted: Money(cents: try row.int(2)), expenseCount: Int(try row.int(3))))
        }
        return PeriodSpending(groups: groups, byCurrency: byCurrency)
    }

    /// The `limit` largest expenses by total (ties by the highest id) within `days`, of one budget
    /// (an expense with a portion in it) or all, when `query` asks for exactly that; `nil` when it
    /// asks for more, or the cache does not bound them. Each group's largest in `expenseDay` is
    /// the largest total of the expenses with a portion in it (`v18-report-bounds`), so every
    /// expense whose total reaches the `limit`-th largest of them, `bound`, is a plain row of a
    /// group that reaches it, or a split or refunded row on the day of one: a month's ten largest
    /// come from a few groups instead of sorting the month's expenses (`SQLiteStore.largestExpenseIDs`
    /// bounds SQLite's the same way). Fewer than `limit` of them leave it to the plain sort.
    /// Only the `limit` first of what reaches the bound (ties can be hundreds) are read whole.
    func largestExpenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense]? {
        guard query.sort == .total, query.descending, query.offset == 0, let limit = query.limit, limit > 0, let days = query.days,
            query.search.map(NameKey.make)?.isEmpty ?? true, query.tag == nil, query.by == nil, query.ids == nil
        else { return nil }
        var groups = "g.date BETWEEN $1 AND $2"
        var inBudget = ""
        var binds: [SQLValue] = [.int(days.first.stored), .int(days.last.stored), .int(Int64(limit))]
        if let budgetID = query.budgetID {
            groups += " AND g.budgetId = $4"
            // As `Filter`: a split is in the budgets of its lines, a refund in its own.
            inBudget = "AND (s.budgetId = $4 OR position(chr(30) || $4::text || chr(29) IN chr(30) || s.detail) > 0)"
            binds.append(.int(budgetID))
        }
        // A group's rows are one budget's on one day, stored near each other (rows go in by date),
        // so reading them through `expenseByBudget` costs about what a sequential read does. At
        // the default random page cost the planner reads every row of the day through
        // `expenseByDate` instead: 1,300 rows a group on the 1M bench ledger, 20 ms a month. The
        // setting ends with the transaction (1.1 is the usual value for data on SSD or cached).
        try session.query("SET LOCAL random_page_cost = 1.1")
        let expenses = try session.query(
            """
            WITH top AS (SELECT g.largestCents FROM expenseDay g WHERE \(groups) ORDER BY g.largestCents DESC LIMIT $3),
                bound AS (SELECT min(largestCents) AS cents FROM top HAVING count(*) = $3),
                reached AS (SELECT g.* FROM bound, expenseDay g WHERE \(groups) AND g.largestCents >= bound.cents),
                found AS (
                    SELECT e.id, e.amountCents::numeric * e.quantity AS total FROM bound, reached g
                    JOIN expense e ON e.date = g.date AND e.budgetId = g.budgetId AND e.tags = g.tags AND e.spentBy = g.spentBy
                    WHERE e.amountCents::numeric * e.quantity >= bound.cents
                    UNION
                    SELECT s.id, s.amountCents::numeric * s.quantity FROM bound, expense s
                    WHERE s.detail <> '' AND s.date IN (SELECT date FROM reached) AND s.amountCents::numeric * s.quantity >= bound.cents \(inBudget)),
                first AS (SELECT id, total FROM found ORDER BY total DESC, id DESC LIMIT $3)
            SELECT \(Columns.qualified(Columns.expense, as: "e")) FROM first f JOIN expense e ON e.id = f.id
            ORDER BY f.total DESC, f.id DESC
            """, binds
        ).map { row throws(TallyError) in try Expense(row: row) }
        return expenses.count == limit ? expenses : nil
    }

    // MARK: - DataAccess

    /// `Spending.byMonth(in:budgets:of:)` from `budgetMonth`, whose rows are each budget's
    /// spending within a period's own days.
    public func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        try read { () throws(TallyError) in
            let budgetIDs = Set(try loadBudgets().compactMap(\.id))
            var spent: [Month: [Int64: Money]] = [:]
            for month in Spending.months(in: months) { spent[month] = [:] }
            for row in try session.query(
                "SELECT budgetId, month, spentCents::bigint FROM budgetMonth WHERE expenseCount > 0 AND month BETWEEN $1 AND $2",
                [.int(months.lowerBound.stored), .int(months.upperBound.stored)])
            {
                let id = try row.int(0)
                guard budgetIDs.contains(id) else { continue }
                spent[try Month(stored: try row.int(1))]?[id] = Money(cents: try row.int(2))
            }
            return spent
        }
    }
}
