import TallyCore
import TallyStores

/// `db copy`: a whole ledger from one location to another (file → server to move a household
/// onto it, server → file for a backup), into an empty destination, as one import transaction
/// on the destination: settings, every budget field, recurring rules with their paid
/// occurrences, accounts with their incomes, transfers and balance assertions (by account
/// name: the destination may number them anew), and every expense. Before reporting success it
/// reads both back and compares counts, what each budget spent in each period and each
/// account's balance on each day it has an entry or an assertion.
public struct CopyLedger: Sendable {
    public var source: StoreLocation
    public var destination: StoreLocation

    public init(source: StoreLocation, destination: StoreLocation) {
        self.source = source
        self.destination = destination
    }

    public struct Result: Sendable, Equatable {
        public var budgets: Int
        public var expenses: Int
        public var recurringRules: Int
        public var accounts: Int = 0
    }

    public func run() throws(TallyError) -> Result {
        guard source.exists else { throw .storage("no ledger at \(quoted(source.description))") }
        return try Ledger(location: source).perform { (from: any DataAccess) throws(TallyError) in
            try Ledger(location: destination).perform { (to: any DataAccess) throws(TallyError) in try copy(from, to) }
        }
    }

    private func copy(_ from: any DataAccess, _ to: any DataAccess) throws(TallyError) -> Result {
        guard try to.budgets().isEmpty, try to.countExpenses(ExpenseQuery()) == 0, try to.recurringRules().isEmpty,
            try to.accountBook().accounts.isEmpty
        else {
            throw .storage("\(quoted(destination.description)) is not empty: db copy only fills an empty ledger")
        }
        let settings = try from.settings()
        let budgets = try from.budgets()
        var names: [Int64: String] = [:]
        for budget in budgets { names[budget.id ?? 0] = budget.name }
        let (allRules, payments) = try from.recurring()
        let rules = DeclaredRecurringRule.declaring(allRules, payments: payments, names: names)
        // The destination is empty of budgets and expenses, but an existing file may hold settings
        // and import profiles the copy's settings replace: keep them (a new file has nothing).
        try to.snapshotBefore(.copy)
        var request = ImportRequest(source: "db copy", force: true, newBudgets: budgets, settings: settings, keepsCreationDates: true)
        request.recurringRules = rules
        let book = try from.accountBook()
        let accounts = DeclaredAccounts(book, defaultAccountID: settings.defaultAccountID)
        request.accounts = accounts
        request.rates = try from.rates(RateQuery())
        // Expenses name their accounts by place among the declared ones: ids may differ there.
        var placeholders: [Int64: Int64] = [:]
        for account in book.accounts { placeholders[account.id ?? 0] = accounts.placeholder(forAccountNamed: account.name) }
        // So do budget targets.
        request.newBudgets = budgets.map { budget in
            var budget = budget
            let id = budget.target?.accountID
            budget.target?.accountID = id.flatMap { placeholders[$0] }
            return budget
        }
        var first: Day?
        var last: Day?
        _ = try to.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
            try from.forEachExpense(ExpenseQuery(sort: .date)) { (expense: Expense) throws(TallyError) in
                first = first ?? expense.date
                last = expense.date
                var expense = expense
                expense.accountID = expense.accountID.flatMap { placeholders[$0] }
                try insert(expense, names[expense.budgetID] ?? "")
            }
            return nil
        }
        try verify(from, to, first: first, last: last, calendar: settings.calendar)
        return Result(
            budgets: budgets.count, expenses: try to.countExpenses(ExpenseQuery()), recurringRules: rules.count,
            accounts: accounts.accounts.count)
    }

    /// Counts, and each budget's spending in each period, by budget name, must agree.
    private func verify(_ from: any DataAccess, _ to: any DataAccess, first: Day?, last: Day?, calendar: PeriodCalendar) throws(TallyError) {
        let counts = { (store: any DataAccess) throws(TallyError) -> [Int] in
            [try store.budgets().count, try store.countExpenses(ExpenseQuery()), try store.recurringRules().count, try store.recurringPayments().count]
                + DeclaredAccounts(try store.accountBook()).counts
        }
        guard try counts(from) == counts(to) else { throw .storage("db copy: the copy's counts differ from the source's") }
        guard try balances(from) == balances(to) else { throw .storage("db copy: the copy's account balances differ from the source's") }
        guard let first, let last else { return }
        let months = calendar.period(containing: first)...calendar.period(containing: last)
        let byName = { (store: any DataAccess) throws(TallyError) -> [Month: [String: Money]] in
            var names: [Int64: String] = [:]
            for budget in try store.budgets() { names[budget.id ?? 0] = budget.name }
            return try store.spentByMonth(in: months).mapValues { spent in
                Dictionary(uniqueKeysWithValues: spent.map { (names[$0.key] ?? "#\($0.key)", $0.value) })
            }
        }
        guard try byName(from) == byName(to) else { throw .storage("db copy: the copy's per-period totals differ from the source's") }
    }

    /// Each account's balance, by name, at the end of every day it has an entry or an assertion,
    /// and the day it is reconciled through.
    private func balances(_ store: any DataAccess) throws(TallyError) -> [String: [String]] {
        let book = try store.accountBook()
        var result: [String: [String]] = [:]
        for account in book.accounts {
            let days = Set((book.days[account.id ?? 0] ?? []).map(\.date) + book.assertions(of: account).map(\.date)).sorted()
            var figures = [account.kind.rawValue, account.opening.plainString, book.reconciledThrough(account)?.isoString ?? "-"]
            for day in days {
                let balance = try book.balance(of: account, through: day)
                figures.append("\(day.isoString) \(balance?.plainString ?? "-")")
            }
            result[account.name] = figures
        }
        return result
    }
}
