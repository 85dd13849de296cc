import TallyCore
import TallyImportExport

/// `export`: expenses (with incomes and transfers) as CSV, or as a JSON backup that holds the
/// budgets (every field), the ledger's settings, its recurring rules and its accounts too.
public struct ExportLedger: Sendable {
    public var format: ImportFormat
    /// Only this budget's expenses (and, in JSON, only this budget).
    public var budget: String?
    /// Only this period's expenses; every expense when `nil`.
    public var period: PeriodChoice?

    public init(format: ImportFormat, budget: String? = nil, month: Month? = nil) {
        self.format = format
        self.budget = budget
        period = month.map(PeriodChoice.month)
    }

    /// Writes the export to `sink`, one expense at a time, ordered by date then id; returns how
    /// many expenses it wrote.
    public func run(in ledger: Ledger, to sink: any ByteSink) throws(TallyError) -> Int {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let settings = try store.settings()
            var query = ExpenseQuery(sort: .date)
            if let period { query.days = settings.calendar.days(of: try period.resolved(in: settings.calendar, today: Day.today())) }
            var budgets = try store.budgets()
            var rules = format == .json ? try store.rules() : []
            let profiles = format == .json && budget == nil ? try store.profiles() : []
            if let budget {
                let chosen = try store.budget(named: budget)
                budgets = [chosen]
                query.budgetID = chosen.id
                rules = rules.filter { $0.budget == chosen.name }
            }
            var names: [Int64: String] = [:]
            for each in budgets { names[each.id ?? 0] = each.name }
            var allNames: [Int64: String] = [:]
            for each in try store.budgets() { allNames[each.id ?? 0] = each.name }
            var exported = 0
            let writer = format.exportWriter(to: sink)
            // A document names who spent its expenses only when one of them records someone.
            var anonymous = query
            anonymous.by = ""
            var recordsPeople = false
            if format == .json { recordsPeople = try store.countExpenses(anonymous) < store.countExpenses(query) }
            let declared = try accounts(store, days: query.days)
            // Expenses name their accounts only where the document declares them.
            var accountNames: [Int64: String] = [:]
            for account in declared.accounts { accountNames[account.id ?? 0] = account.name }
            var abroad = query
            abroad.inOtherCurrency = true
            var split = query
            split.splitOrRefund = true
            if let json = writer as? JSONExportWriter {
                // A backup carries the rate table and the expenses' original amounts (version 9).
                json.rates = budget == nil && period == nil ? try store.rates(RateQuery()) : []
                json.hasForeignAmounts = try store.countExpenses(abroad) > 0
                json.hasSplits = try store.countExpenses(split) > 0
            } else if let csv = writer as? CSVExportWriter {
                // Rows per line, refunds and original amounts, so the file imports back whole.
                csv.writesLedgerColumns = try store.countExpenses(split) > 0
                if !csv.writesLedgerColumns { csv.writesLedgerColumns = try store.countExpenses(abroad) > 0 }
                if !csv.writesLedgerColumns { csv.writesLedgerColumns = declared.incomes.contains { $0.income.foreign != nil } }
            }
            try writer.begin(
                budgets: budgets, settings: settings, recurring: try recurring(store, names: names), rules: rules, profiles: profiles,
                recordsPeople: recordsPeople, accounts: declared)
            try store.forEachExpense(query) { (expense: Expense) throws(TallyError) in
                // A split names each line's budget, as the document's reader resolves them.
                let budgetName = expense.lines.isEmpty
                    ? names[expense.budgetID] ?? ""
                    : expense.lines.map { allNames[$0.budgetID] ?? "" }.joined(separator: String(ImportResolution.lineSeparator))
                try writer.write(expense, budgetName: budgetName, accountName: expense.accountID.flatMap { accountNames[$0] })
                exported += 1
            }
            try writer.finish()
            return exported
        }
    }

    /// The accounts with their incomes, transfers and assertions (those of the period when one
    /// is asked); none for one budget's export, as accounts belong to no budget.
    private func accounts(_ store: any DataAccess, days: DayInterval?) throws(TallyError) -> DeclaredAccounts {
        guard budget == nil else { return DeclaredAccounts() }
        var declared = DeclaredAccounts(try store.accountBook(), defaultAccountID: try store.settings().defaultAccountID)
        if let days {
            declared.incomes.removeAll { !days.contains($0.income.date) }
            declared.transfers.removeAll { !days.contains($0.transfer.date) }
            declared.assertions.removeAll { !days.contains($0.assertion.date) }
        }
        return declared
    }

    /// The rules of the exported budgets with the occurrences they have paid; none for CSV, or
    /// for one period's export, which is not a backup.
    private func recurring(_ store: any DataAccess, names: [Int64: String]) throws(TallyError) -> [DeclaredRecurringRule] {
        guard format == .json, period == nil else { return [] }
        let (rules, payments) = try store.recurring()
        return DeclaredRecurringRule.declaring(rules, payments: payments, names: names)
    }
}
