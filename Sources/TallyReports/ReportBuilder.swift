import TallyCore

/// Computes a ``MonthlyReport`` from any store.
///
/// Only the store's aggregate queries are used, each bounded to the report's period or one of the
/// five trend periods, so the cost does not grow with the length of the history. Periods follow
/// the ledger's calendar: the store's ``MonthSummary/days`` are the report's days. What came in
/// and what the accounts held come from ``LedgerRows/accountFigures(for:)`` alone, read in the
/// same transaction as the month's summary.
public struct ReportBuilder: Sendable {
    public static let topExpenseCount = 10
    public static let trendLength = 6

    private let store: any DataAccess

    public init(store: any DataAccess) {
        self.store = store
    }

    /// The report for period `month` under the ledger's calendar; `today` (when it falls inside
    /// the period) ends the spending line. `explain` adds each flagged budget's ``WhyOver``, from
    /// the stores' sums per period, name and tag set (the CLI shows it unless `--no-explain`).
    public func report(for month: Month, today: Day? = nil, explain: Bool = true) throws(TallyError) -> MonthlyReport {
        // Trend entries are periods named by month: `spentByMonth` reads each under the ledger's calendar.
        let months = (0..<Self.trendLength).reversed().map { month.adding(months: -$0) }
        let earlier = months.first.flatMap { first in months.dropLast().last.map { first...$0 } }
        // One read for the budgets' figures and the accounts' (the only way a report reads them).
        let (summary, accounts) = try store.reading { (rows: any LedgerRows) throws(TallyError) in
            let summary = try rows.monthSummary(for: month)
            let figures = try rows.accountFigures(for: [summary.days]).first
            return (summary, figures ?? AccountFigures(income: .zero, netWorth: nil, hasAccounts: false))
        }
        let statuses = summary.statuses
        var budgets = statuses.map(MonthlyReport.BudgetLine.init)
        var pace: MonthlyReport.TotalPace?
        if let today, summary.days.contains(today) {
            let paces = try store.paces(for: statuses, today: today, calendar: store.settings().calendar)
            for index in budgets.indices { budgets[index].pace = budgets[index].id.flatMap { paces[$0] } }
            let total = Int64(summary.days.last.ordinal - summary.days.first.ordinal + 1)
            let gone = Int64(today.ordinal - summary.days.first.ordinal + 1)
            pace = try MonthlyReport.TotalPace(budgets, elapsed: Share(basisPoints: gone * 10_000 / total))
        }
        // Why over reads ledger amounts: a budget in its own currency is left out (units differ).
        let explanations = explain ? try whyOver(statuses.filter { $0.budget.currency == nil && WhyOver.applies(to: $0) }, in: month) : [:]
        for (index, status) in statuses.enumerated() {
            if let id = status.budget.id { budgets[index].whyOver = explanations[id] }
        }
        // Totals are in the ledger's currency: a budget in its own counts only its ledger spending.
        let inLedger = budgets.filter { $0.currency == nil }
        let limit = try Money.sum(inLedger.map(\.limit))
        let carried = try Money.sum(inLedger.map(\.carried))
        let available = try Money.sum(inLedger.map(\.available))
        let spent = try Money.sum(budgets.map { $0.ledgerSpent ?? $0.spent })
        let totals = MonthlyReport.Totals(
            limit: limit, carried: carried, available: available, spent: spent, remaining: try available - spent,
            share: Share(spent: spent, of: available), expenseCount: budgets.reduce(0) { $0 + $1.expenseCount }
        )
        var report = MonthlyReport(
            month: month, periodDays: summary.days, budgets: budgets, totals: totals,
            days: try days(of: summary.days, spentByDay: summary.spentByDay),
            top: try top(in: summary.days, budgetNames: names(of: statuses)), tags: tags(summary.spentByTag),
            trend: try trend(months, current: statuses, earlierSpent: earlier.map { (range: ClosedRange<Month>) throws(TallyError) in try store.spentByMonth(in: range) } ?? [:]),
            through: today.flatMap { summary.days.contains($0) ? $0 : nil }
        )
        report.pace = pace
        report.moneyIn = try MoneyIn(income: accounts.income, spending: totals.spent, netWorth: accounts.netWorth)
        report.unbudgeted = try accounts.income - totals.available
        report.hasAccounts = accounts.hasAccounts
        report.byCurrency = summary.byCurrency
        if PersonSpending.worthShowing(summary.spentByPerson) { report.people = summary.spentByPerson }
        return report
    }

    /// Why each of `flagged` is over or near: its three largest expenses (the store sorts and
    /// pages), and its spending by name and tag set in the period and in the
    /// ``WhyOver/earlierPeriods`` before, which the stores keep summed per period.
    private func whyOver(_ flagged: [BudgetStatus], in month: Month) throws(TallyError) -> [Int64: WhyOver] {
        guard !flagged.isEmpty else { return [:] }
        let ids = Set(flagged.compactMap(\.budget.id))
        var now: [Int64: [SpendingGroup]] = [:]
        for group in try store.spendingGroups(ofBudgets: ids, in: month...month) { now[group.budgetID, default: []].append(group) }
        var before: [Int64: [SpendingGroup]] = [:]
        let earlier = month.adding(months: -WhyOver.earlierPeriods)...month.adding(months: -1)
        for group in try store.spendingGroups(ofBudgets: ids, in: earlier) { before[group.budgetID, default: []].append(group) }
        // Every budget's largest in one transaction.
        return try store.reading { (rows: any LedgerRows) throws(TallyError) in
            var explanations: [Int64: WhyOver] = [:]
            for status in flagged {
                guard let id = status.budget.id else { continue }
                // A refund is no expense, as in the period's top list.
                let largest = try rows.expenses(
                    ExpenseQuery(budgetID: id, days: status.days, sort: .total, descending: true, limit: WhyOver.largestCount))
                    .filter { !$0.isRefund }
                explanations[id] = try WhyOver(
                    largest: largest, groups: now[id] ?? [], earlier: before[id] ?? [], earlierPeriods: WhyOver.earlierPeriods)
            }
            return explanations
        }
    }

    private func names(of statuses: [BudgetStatus]) -> [Int64: String] {
        var names: [Int64: String] = [:]
        for status in statuses {
            if let id = status.budget.id { names[id] = status.budget.name }
        }
        return names
    }

    private func days(of period: DayInterval, spentByDay: [Day: Money]) throws(TallyError) -> [MonthlyReport.DaySpending] {
        var cumulative = Money.zero
        var days: [MonthlyReport.DaySpending] = []
        for day in period {
            let spent = spentByDay[day] ?? .zero
            cumulative = try cumulative + spent
            days.append(MonthlyReport.DaySpending(day: day, spent: spent, cumulative: cumulative))
        }
        return days
    }

    private func top(in period: DayInterval, budgetNames: [Int64: String]) throws(TallyError) -> [MonthlyReport.TopExpense] {
        let query = ExpenseQuery(days: period, sort: .total, descending: true, limit: Self.topExpenseCount)
        // A receipt shows once, whole, its split marked in the budget column; a refund is no expense.
        return try store.expenses(query).filter { !$0.isRefund }.map { (expense: Expense) throws(TallyError) in
            MonthlyReport.TopExpense(
                id: expense.id, name: expense.name,
                budgetName: expense.lines.isEmpty
                    ? budgetNames[expense.budgetID] ?? "" : "split: " + expense.lines.map { budgetNames[$0.budgetID] ?? "" }.joined(separator: ", "),
                date: expense.date, amount: expense.amount, quantity: expense.quantity, total: try expense.total(),
                tags: expense.tags
            )
        }
    }

    private func tags(_ spentByTag: [String: Money]) -> [MonthlyReport.TagTotal] {
        spentByTag
            .map { MonthlyReport.TagTotal(tag: $0.key, spent: $0.value) }
            .sorted { $0.spent != $1.spent ? $0.spent > $1.spent : $0.tag.utf8.lexicographicallyPrecedes($1.tag.utf8) }
    }

    /// Spent per current budget over six periods, each in that period's view (a yearly budget's
    /// year to date, a once budget's range); budgets created later simply show zero before.
    private func trend(
        _ months: [Month], current: [BudgetStatus], earlierSpent: [Month: [Int64: Money]]
    ) throws(TallyError) -> MonthlyReport.Trend {
        var series = current.map { MonthlyReport.Trend.Series(name: $0.budget.name, spent: []) }
        var index: [Int64: Int] = [:]
        for (position, status) in current.enumerated() {
            if let id = status.budget.id { index[id] = position }
        }
        var spentByMonth = earlierSpent
        var currentSpent: [Int64: Money] = [:]
        for status in current {
            if let id = status.budget.id { currentSpent[id] = status.ledgerSpent ?? status.spent }
        }
        if let month = months.last { spentByMonth[month] = currentSpent }
        var totals: [Money] = []
        for trendMonth in months {
            let spent = spentByMonth[trendMonth] ?? [:]
            var spentByPosition = [Money](repeating: .zero, count: series.count)
            for (id, amount) in spent {
                if let position = index[id] { spentByPosition[position] = amount }
            }
            for position in series.indices { series[position].spent.append(spentByPosition[position]) }
            totals.append(try Money.sum(Array(spent.values)))
        }
        return MonthlyReport.Trend(months: months, budgets: series, totals: totals)
    }
}
