import TallyCore

/// Computes a ``RangeReport`` from any store.
///
/// Budgets as rows, unfiltered, read only the stores' per-period figures (`spentByMonth`,
/// `availableByMonth`: a few hundred cached rows in SQLite, whatever the number of expenses).
/// A tag filter or tags as rows read the range's tagged spending per budget, day and tag set
/// (`taggedSpending`), which the builder adds up per period as `Spending.byPeriod` and
/// `Spending.byTagAndPeriod` would from the expenses. Income and net worth per period come from
/// ``LedgerRows/accountFigures(for:)`` alone.
public struct RangeReportBuilder: Sendable {
    /// What to report on besides the range.
    public struct Options: Hashable, Sendable {
        public var kind: RangeReport.RowKind
        /// Budget names as typed; empty means every budget.
        public var budgets: [String]
        public var tag: String?
        public var baseline: RangeReport.Baseline?

        public init(kind: RangeReport.RowKind = .budget, budgets: [String] = [], tag: String? = nil, baseline: RangeReport.Baseline? = nil) {
            self.kind = kind
            self.budgets = budgets
            self.tag = tag
            self.baseline = baseline
        }
    }

    private let store: any DataAccess

    public init(store: any DataAccess) {
        self.store = store
    }

    public func report(for range: PeriodRange, options: Options = Options()) throws(TallyError) -> RangeReport {
        // The calendar and the accounts' figures in one read (the only way a report reads accounts).
        let (calendar, accounts) = try store.reading { (rows: any LedgerRows) throws(TallyError) in
            let calendar = try rows.settings().calendar
            return (calendar, try rows.accountFigures(for: range.months.map { calendar.days(of: $0) }))
        }
        let budgets = try selectedBudgets(options.budgets)
        let tag = try options.tag.map { (text: String) throws(TallyError) in try Expense.normalizedTag(text) }
        let periods = range.months.map { RangeReport.Period(month: $0, days: calendar.days(of: $0)) }
        let baseRange = options.baseline.map { $0.range(before: range) }
        var rows: [RangeReport.Row]
        var total: RangeReport.Row
        switch options.kind {
        case .budget:
            let figures = try budgetFigures(range, tag: tag, calendar: calendar)
            let base = try baseRange.map { (base: PeriodRange) throws(TallyError) in try budgetFigures(base, tag: tag, calendar: calendar, available: false) }
            rows = try budgets.map { (budget: Budget) throws(TallyError) in
                let id = budget.id ?? 0
                // A budget in its own currency shows its ledger spending, with no available or share (units differ).
                let cells = range.months.map { month in
                    RangeReport.Cell(
                        spent: figures.spent[month]?[id] ?? .zero, available: budget.currency == nil ? figures.available[month]?[id] ?? .zero : nil)
                }
                return try row(budget.name, cells, base: base.map { (base: Figures) throws(TallyError) in try Money.sum(base.spent.values.compactMap { $0[id] }) })
            }
            var totalCells: [RangeReport.Cell] = []
            for (index, _) in range.months.enumerated() {
                let spent = try Money.sum(rows.map { $0.cells[index].spent })
                let available = try Money.sum(rows.compactMap { $0.cells[index].available })
                totalCells.append(RangeReport.Cell(spent: spent, available: available))
            }
            let ids = Set(budgets.compactMap(\.id))
            let baseTotal = try base.map { (base: Figures) throws(TallyError) in
                try Money.sum(base.spent.values.flatMap { $0.filter { ids.contains($0.key) }.values })
            }
            total = try row("Total", totalCells, base: baseTotal)
        case .tag:
            let figures = try tagFigures(range, budgets: budgets, tag: tag, calendar: calendar)
            let base = try baseRange.map { (base: PeriodRange) throws(TallyError) in try tagFigures(base, budgets: budgets, tag: tag, calendar: calendar) }
            var names = Set<String>()
            for byTag in figures.byTag.values { names.formUnion(byTag.keys) }
            rows = try names.map { (name: String) throws(TallyError) in
                let cells = range.months.map { RangeReport.Cell(spent: figures.byTag[$0]?[name] ?? .zero, available: nil) }
                return try row(name, cells, base: base.map { (base: TagFigures) throws(TallyError) in try Money.sum(base.byTag.values.compactMap { $0[name] }) })
            }
            rows.sort { $0.total != $1.total ? $0.total > $1.total : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            let totalCells = range.months.map { RangeReport.Cell(spent: figures.once[$0] ?? .zero, available: nil) }
            total = try row("Total", totalCells, base: base.map { (base: TagFigures) throws(TallyError) in try Money.sum(base.once.values) })
        }
        var report = RangeReport(
            kind: options.kind, range: range, periods: periods, rows: rows, total: total, tag: tag,
            comparison: both(options.baseline, baseRange).map { RangeReport.Comparison(baseline: $0, range: $1) })
        let unfiltered = options.kind == .budget && options.budgets.isEmpty && tag == nil
        let spending = try unfiltered ? total.cells.map(\.spent) : spentByEveryBudget(range)
        report.moneyIn = try zip(accounts, spending).map { (pair: (AccountFigures, Money)) throws(TallyError) in
            try MoneyIn(income: pair.0.income, spending: pair.1, netWorth: pair.0.netWorth)
        }
        report.hasAccounts = accounts.first?.hasAccounts ?? false
        if let first = periods.first?.days.first, let last = periods.last?.days.last {
            report.byCurrency = try store.spendingByCurrency(in: DayInterval(first: first, last: last))
        }
        return report
    }

    /// Every budget's spending per period, as the unfiltered total row shows it: what money in
    /// is set against when the rows are narrowed to some budgets, a tag, or are tags.
    private func spentByEveryBudget(_ range: PeriodRange) throws(TallyError) -> [Money] {
        let spent = try store.spentByMonth(in: range.closed)
        return try range.months.map { (month: Month) throws(TallyError) in try Money.sum((spent[month] ?? [:]).values) }
    }

    private func row(_ name: String, _ cells: [RangeReport.Cell], base: Money?) throws(TallyError) -> RangeReport.Row {
        let total = try Money.sum(cells.map(\.spent))
        let limits = cells.compactMap(\.available)
        let available = limits.count == cells.count && !cells.isEmpty ? try Money.sum(limits) : nil
        return RangeReport.Row(
            name: name, cells: cells, total: total, average: Money.average(of: total, over: cells.count), available: available,
            share: available.map { Share(spent: total, of: $0) },
            change: try base.map { (base: Money) throws(TallyError) in try Change(from: base, to: total) })
    }

    /// The budgets named, in the store's order, each once; every budget when none is named.
    private func selectedBudgets(_ names: [String]) throws(TallyError) -> [Budget] {
        let all = try store.budgets()
        guard !names.isEmpty else { return all }
        var ids = Set<Int64>()
        for name in names {
            if let id = try store.budget(named: name).id { ids.insert(id) }
        }
        return all.filter { $0.id.map(ids.contains) ?? false }
    }

    private struct Figures {
        var spent: [Month: [Int64: Money]]
        var available: [Month: [Int64: Money]]
    }

    /// Spent (narrowed to `tag` when given) and available per period and budget.
    private func budgetFigures(
        _ range: PeriodRange, tag: String?, calendar: PeriodCalendar, available: Bool = true
    ) throws(TallyError) -> Figures {
        var spent: [Month: [Int64: Money]] = [:]
        if let tag {
            for month in range.months { spent[month] = [:] }
            for group in try tagged(range, calendar: calendar) where group.tags.contains(tag) {
                let period = calendar.period(containing: group.day)
                var byBudget = spent[period] ?? [:]
                byBudget[group.budgetID] = try (byBudget[group.budgetID] ?? .zero) + group.spent
                spent[period] = byBudget
            }
        } else {
            spent = try store.spentByMonth(in: range.closed)
        }
        return Figures(spent: spent, available: available ? try store.availableByMonth(in: range.closed) : [:])
    }

    private typealias TagFigures = (byTag: [Month: [String: Money]], once: [Month: Money])

    /// Spent per period and tag (an expense in each of its tags), and per period once, of the
    /// tagged spending of `budgets` (narrowed to `tag` when given).
    private func tagFigures(_ range: PeriodRange, budgets: [Budget], tag: String?, calendar: PeriodCalendar) throws(TallyError) -> TagFigures {
        let ids = Set(budgets.compactMap(\.id))
        var byTag: [Month: [String: Money]] = [:]
        var once: [Month: Money] = [:]
        for month in range.months {
            byTag[month] = [:]
            once[month] = .zero
        }
        for group in try tagged(range, calendar: calendar) where ids.contains(group.budgetID) {
            if let tag, !group.tags.contains(tag) { continue }
            let period = calendar.period(containing: group.day)
            once[period] = try (once[period] ?? .zero) + group.spent
            // Narrowed to one tag, its row is the only one: an expense's other tags are not shown.
            var spent = byTag[period] ?? [:]
            for name in group.tags where tag == nil || name == tag {
                spent[name] = try (spent[name] ?? .zero) + group.spent
            }
            byTag[period] = spent
        }
        return (byTag, once)
    }

    /// The range's tagged spending per budget, day and tag set.
    private func tagged(_ range: PeriodRange, calendar: PeriodCalendar) throws(TallyError) -> [TaggedSpending] {
        try store.taggedSpending(in: DayInterval(first: calendar.days(of: range.first).first, last: calendar.days(of: range.last).last))
    }
}

/// Both values, or `nil` when either is missing.
private func both<A, B>(_ first: A?, _ second: B?) -> (A, B)? {
    guard let first, let second else { return nil }
    return (first, second)
}
