import Foundation

extension DataAccess {
    /// What each budget had available in the view of each of `months`' periods (limit and what
    /// earlier periods carried in, at most the cap), by budget id:
    /// ``Spending/availableByMonth(in:budgets:of:calendar:)``, from what each budget spent in
    /// each period since the ledger's first expense (``spentByMonth(in:)``, a cached read) instead
    /// of from the expenses. Every month is a key, and every budget is in each.
    public func availableByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        let (budgets, calendar, first) = try reading { (rows: any LedgerRows) throws(TallyError) in
            (try rows.budgets(), try rows.settings().calendar, try rows.expenses(ExpenseQuery(sort: .date, limit: 1)).first?.date)
        }
        var histories: [Int64: BudgetHistory] = [:]
        let rolling = budgets.filter { $0.rollover != .none && $0.period != .once }
        if let first, !rolling.isEmpty, calendar.period(containing: first) <= months.upperBound {
            let spent = try spentByMonth(in: calendar.period(containing: first)...months.upperBound)
            for budget in rolling {
                guard let id = budget.id else { continue }
                var history = BudgetHistory()
                // Amounts are above zero: a period that spent something is one with expenses.
                for month in spent.keys.sorted() {
                    guard let amount = spent[month]?[id] else { continue }
                    let key = budget.periodKey(of: month)
                    history.spentByPeriod[key] = try (history.spentByPeriod[key] ?? .zero) + amount
                    if history.earliestExpense == nil { history.earliestExpense = calendar.days(of: month).first }
                }
                histories[id] = history
            }
        }
        var available: [Month: [Int64: Money]] = [:]
        for month in Spending.months(in: months) { available[month] = [:] }
        // A budget in its own currency has its available in that currency: not a ledger figure.
        for budget in budgets where budget.currency == nil {
            guard let id = budget.id else { continue }
            for month in Spending.months(in: months) {
                available[month]?[id] = try budget.available(viewing: month, in: calendar, history: histories[id] ?? BudgetHistory())
            }
        }
        return available
    }
}
