import Foundation

extension LedgerRows {
    /// Every account with its assertions and days; with its incomes and transfers too when
    /// `withEntries`, which reads every one of them.
    public func accountBook(withEntries: Bool = true) throws(TallyError) -> AccountBook {
        var accounts: [Account] = []
        var incomes: [Income] = []
        var transfers: [Transfer] = []
        var assertions: [BalanceAssertion] = []
        for row in try rowImages(withEntries ? [.accounts, .entries, .assertions] : [.accounts, .assertions]) {
            switch row {
            case .account(let account): accounts.append(account)
            case .income(let income): incomes.append(income)
            case .transfer(let transfer): transfers.append(transfer)
            case .balanceAssertion(let assertion): assertions.append(assertion)
            default: continue
            }
        }
        accounts.sort { ($0.nameKey, $0.id ?? 0) < ($1.nameKey, $1.id ?? 0) }
        return AccountBook(
            accounts: accounts, incomes: withEntries ? incomes : [], transfers: withEntries ? transfers : [], assertions: assertions,
            days: try accountDays())
    }

    /// The account's incomes, transfers and expenses within `days` (every one when `nil`), ordered
    /// by day, kind, then id: what `account show` and `reconcile` list.
    public func entries(of account: Account, in days: DayInterval?, book: AccountBook) throws(TallyError) -> [AccountEntry] {
        var entries = book.entries(of: account, in: days)
        try forEachExpense(ExpenseQuery(days: days, accountID: account.id ?? 0)) { (expense: Expense) throws(TallyError) in
            let total = try expense.spending()
            entries.append(AccountEntry(
                kind: .expense, id: expense.id ?? 0, date: expense.date, name: expense.name, amount: total,
                change: account.kind.isLiability ? total : Money(cents: -total.cents)))
        }
        return entries.sorted { ($0.date, $0.kind.rank, $0.id) < ($1.date, $1.kind.rank, $1.id) }
    }

    /// The id of the account called `name`, or the ledger's default account's when `name` is
    /// `nil` (`nil` when it has none).
    public func accountID(named name: String?) throws(TallyError) -> Int64? {
        guard let name else { return try settings().defaultAccountID }
        // The accounts alone: their days are for balances.
        var accounts: [Account] = []
        for case .account(let account) in try rowImages(.accounts) { accounts.append(account) }
        return try Account.named(name, in: accounts).id
    }

    /// What an expense paid from an account must respect, as it is saved over `existing` (`nil`
    /// for a new one): the account exists and takes its day, and a change on a day the account
    /// is reconciled through needs `force`, before and after. Reads nothing for expenses that
    /// name no account.
    public func checkAccount(of expense: Expense?, replacing existing: Expense?, force: Bool) throws(TallyError) {
        guard expense?.accountID != nil || existing?.accountID != nil else { return }
        let book = try accountBook(withEntries: false)
        if let existing, let id = existing.accountID {
            try book.checkUnreconciled(try book.account(id: id), on: existing.date, force: force)
        }
        if let expense, let id = expense.accountID {
            let account = try book.account(id: id)
            try account.checkAccepts(expense.date)
            try book.checkUnreconciled(account, on: expense.date, force: force)
        }
    }

    /// Saves a row that gets its id from the store and returns it as saved.
    fileprivate func saved<T>(_ row: RowImage, as kind: (RowImage) -> T?) throws(TallyError) -> T {
        guard let saved = kind(try save(row)) else { throw .storage("a row was saved as another kind") }
        return saved
    }
}

// What the account commands do, written once for every store over its ``LedgerRows``.
extension DataAccess {
    /// Every account with what moves its balance (``LedgerRows/accountBook()``).
    public func accountBook(withEntries: Bool = true) throws(TallyError) -> AccountBook {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountBook(withEntries: withEntries) }
    }

    /// The accounts `budgets`' targets name, by id, each with its balance at the end of `day`
    /// (the balance `account list` shows); reads nothing when no target names one.
    public func goalAccounts(of budgets: [Budget], through day: Day) throws(TallyError) -> [Int64: GoalAccount] {
        try goalAccounts(of: budgets.compactMap(\.target), through: day)
    }

    /// The accounts `targets` name, by id, with their balance at the end of `day`.
    public func goalAccounts(of targets: [BudgetTarget], through day: Day) throws(TallyError) -> [Int64: GoalAccount] {
        let ids = Set(targets.compactMap(\.accountID))
        guard !ids.isEmpty else { return [:] }
        let book = try accountBook(withEntries: false)
        var accounts: [Int64: GoalAccount] = [:]
        for account in book.accounts where ids.contains(account.id ?? 0) {
            accounts[account.id ?? 0] = GoalAccount(name: account.name, balance: try book.balance(of: account, through: day))
        }
        return accounts
    }

    /// The names of the accounts `expenses` name, by id; reads nothing when none does.
    public func accountNames(of expenses: [Expense]) throws(TallyError) -> [Int64: String] {
        guard expenses.contains(where: { $0.accountID != nil }) else { return [:] }
        var names: [Int64: String] = [:]
        for account in try accountBook(withEntries: false).accounts { names[account.id ?? 0] = account.name }
        return names
    }

    /// Makes the account called `name` the one expenses are paid from when they name none
    /// (`nil`: none); returns it.
    @discardableResult
    public func setDefaultAccount(named name: String?) throws(TallyError) -> Account? {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            var settings = try rows.settings()
            let account = try name.map { (name: String) throws(TallyError) in try rows.accountBook(withEntries: false).account(named: name) }
            settings.defaultAccountID = account?.id
            try rows.save(.settings(settings))
            return account
        }
    }

    /// The ledger's default account, if it has one.
    public func defaultAccount() throws(TallyError) -> Account? {
        try reading { (rows: any LedgerRows) throws(TallyError) in
            guard let id = try rows.settings().defaultAccountID else { return nil }
            return try rows.accountBook(withEntries: false).account(id: id)
        }
    }

    // MARK: - Accounts

    /// Validates and saves a new account; names clash ignoring case and diacritics.
    public func addAccount(_ account: Account) throws(TallyError) -> Account {
        var account = try account.validated()
        account.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let accounts = try rows.accountBook(withEntries: false).accounts
            try account.checkNameIsFree(heldBy: accounts.first { $0.nameKey == account.nameKey }?.id)
            try account.checkNumberIsFree(among: accounts)
            account.createdAt = rows.timestamp
            account.updatedAt = rows.timestamp
            return try rows.saved(.account(account)) { if case .account(let saved) = $0 { saved } else { nil } }
        }
    }

    /// Saves a changed account: its name stays unique, and an opening day moved later must not
    /// leave entries before it.
    public func updateAccount(_ account: Account) throws(TallyError) -> Account {
        var account = try account.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook(withEntries: false)
            guard let id = account.id, let existing = book.accounts.first(where: { $0.id == id }) else {
                throw .accountNotFound(account.name)
            }
            try account.checkNameIsFree(heldBy: book.accounts.first { $0.nameKey == account.nameKey }?.id)
            try account.checkNumberIsFree(among: book.accounts)
            if let first = book.firstEntryDay(of: existing) { try account.checkAccepts(first) }
            account.createdAt = existing.createdAt
            account.updatedAt = rows.timestamp
            try rows.save(.account(account))
            return account
        }
    }

    /// Removes the account called `name`. One with incomes, transfers, assertions or expenses
    /// is removed only with `includingEntries`: its incomes, transfers and assertions go with
    /// it, and its expenses stay in their budgets, paid from no account. Returns the account,
    /// how many incomes and transfers went and how many expenses it let go. A budget target that
    /// names the account loses the link and keeps its amount and date.
    public func removeAccount(
        named name: String, includingEntries: Bool
    ) throws(TallyError) -> (account: Account, entries: Int, expenses: Int) {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let account = try book.account(named: name)
            let dependents = book.rows(naming: account)
            let entries = dependents.filter { if case .balanceAssertion = $0 { false } else { true } }.count
            let expenses = try rows.expenses(ExpenseQuery(accountID: account.id ?? 0))
            if !(dependents.isEmpty && expenses.isEmpty) && !includingEntries {
                throw .accountInUse(account.name, entries: entries, assertions: dependents.count - entries, expenses: expenses.count)
            }
            if !expenses.isEmpty {
                try rows.save(expenses.map { expense in
                    var expense = expense
                    expense.accountID = nil
                    expense.updatedAt = rows.timestamp
                    return expense
                })
            }
            for row in dependents { try rows.delete(row) }
            // A goal that shows where its money sits lets go of the account, in this change set
            // so that undo brings the link back with the account.
            for var budget in try rows.budgets() where budget.target?.accountID != nil && budget.target?.accountID == account.id {
                budget.target?.accountID = nil
                budget.updatedAt = rows.timestamp
                _ = try rows.save(.budget(budget))
            }
            // Its transfer rules go with it, as a budget's rules go with the budget.
            for rule in try rows.importRules() where rule.transferAccountID == account.id { try rows.delete(.importRule(rule, budgetID: 0)) }
            try rows.delete(.account(account))
            return (account, entries, expenses.count)
        }
    }

    // MARK: - Incomes

    /// Validates and saves a new income to the account called `account`, on or after its
    /// opening day; returns it with that account.
    public func addIncome(_ income: Income, toAccountNamed account: String) throws(TallyError) -> (income: Income, account: Account) {
        var income = try income.validated()
        income.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let account = try rows.accountBook(withEntries: false).account(named: account)
            try account.checkAccepts(income.date)
            income.accountID = account.id ?? 0
            income.createdAt = rows.timestamp
            income.updatedAt = rows.timestamp
            return (try rows.saved(.income(income)) { if case .income(let saved) = $0 { saved } else { nil } }, account)
        }
    }

    /// Saves a changed income (`change` applied to the saved one, whose account is given as
    /// the book has it). An income reconciled before or after the change needs `force`.
    public func updateIncome(
        id: Int64, force: Bool, _ change: (inout Income, AccountBook) throws(TallyError) -> Void
    ) throws(TallyError) -> Income {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let existing = try book.income(id: id)
            var income = existing
            try change(&income, book)
            income = try income.validated()
            for (accountID, day) in [(existing.accountID, existing.date), (income.accountID, income.date)] {
                let account = try book.account(id: accountID)
                try account.checkAccepts(day)
                try book.checkUnreconciled(account, on: day, force: force)
            }
            income.updatedAt = rows.timestamp
            try rows.save(.income(income))
            return income
        }
    }

    /// Removes an income; one reconciled needs `force`. Returns it as it was.
    public func removeIncome(id: Int64, force: Bool) throws(TallyError) -> Income {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let income = try book.income(id: id)
            try book.checkUnreconciled(try book.account(id: income.accountID), on: income.date, force: force)
            try rows.delete(.income(income))
            return income
        }
    }

    /// Validates and saves many new incomes and transfers between existing accounts (by the ids
    /// they carry) as one transaction: all are saved or none. Returns how many were saved.
    @discardableResult
    public func addEntries(incomes: [Income], transfers: [Transfer]) throws(TallyError) -> Int {
        var checkedIncomes: [Income] = []
        for income in incomes { checkedIncomes.append(try income.validated()) }
        var checkedTransfers: [Transfer] = []
        for transfer in transfers { checkedTransfers.append(try transfer.validated()) }
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook(withEntries: false)
            for var income in checkedIncomes {
                try book.account(id: income.accountID).checkAccepts(income.date)
                (income.id, income.createdAt, income.updatedAt) = (nil, rows.timestamp, rows.timestamp)
                try rows.save(.income(income))
            }
            for var transfer in checkedTransfers {
                try book.account(id: transfer.fromAccountID).checkAccepts(transfer.date)
                try book.account(id: transfer.toAccountID).checkAccepts(transfer.date)
                (transfer.id, transfer.createdAt, transfer.updatedAt) = (nil, rows.timestamp, rows.timestamp)
                try rows.save(.transfer(transfer))
            }
            return checkedIncomes.count + checkedTransfers.count
        }
    }

    /// Every income, oldest first, with ids breaking ties.
    public func incomes() throws(TallyError) -> [Income] { try accountBook().incomes }

    // MARK: - Transfers

    /// Validates and saves a transfer between the accounts called `from` and `to`; returns it
    /// with the two accounts.
    public func addTransfer(_ transfer: Transfer, from: String, to: String) throws(TallyError) -> (transfer: Transfer, from: Account, to: Account) {
        var transfer = transfer
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook(withEntries: false)
            let source = try book.account(named: from)
            let target = try book.account(named: to)
            transfer.fromAccountID = source.id ?? 0
            transfer.toAccountID = target.id ?? 0
            transfer = try transfer.validated()
            try source.checkAccepts(transfer.date)
            try target.checkAccepts(transfer.date)
            transfer.id = nil
            transfer.createdAt = rows.timestamp
            transfer.updatedAt = rows.timestamp
            return (try rows.saved(.transfer(transfer)) { if case .transfer(let saved) = $0 { saved } else { nil } }, source, target)
        }
    }

    /// Removes a transfer; one that either account reconciled needs `force`. Returns it as it was.
    public func removeTransfer(id: Int64, force: Bool) throws(TallyError) -> Transfer {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let transfer = try book.transfer(id: id)
            for account in book.accounts where account.id == transfer.fromAccountID || account.id == transfer.toAccountID {
                try book.checkUnreconciled(account, on: transfer.date, force: force)
            }
            try rows.delete(.transfer(transfer))
            return transfer
        }
    }

    /// Every transfer, oldest first, with ids breaking ties.
    public func transfers() throws(TallyError) -> [Transfer] { try accountBook().transfers }

    // MARK: - Reconciliation

    /// What `reconcile` does, as one transaction: compares `balance` with the account's balance
    /// at the end of `day`. When they match, records the assertion (replacing one of the same
    /// day); when not, records nothing.
    public func reconcile(accountNamed name: String, balance: Money, on day: Day) throws(TallyError) -> Reconciliation {
        let asserted = try BalanceAssertion(accountID: 0, date: day, balance: balance).validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let account = try book.account(named: name)
            try account.checkAccepts(day)
            let actual = try book.balance(of: account, through: day) ?? account.opening
            let previous = book.assertions(of: account).last { $0.date < day }
            let first = previous?.date.following ?? account.openingDate ?? book.firstEntryDay(of: account) ?? day
            let since = first <= day ? try rows.entries(of: account, in: DayInterval(first: first, last: day), book: book) : []
            let result = Reconciliation(
                account: account, day: day, asserted: asserted.balance, actual: actual, previous: previous, entriesSince: since)
            if result.matches {
                var assertion = asserted
                assertion.accountID = account.id ?? 0
                assertion.createdAt = rows.timestamp
                try rows.save(.balanceAssertion(assertion))
            }
            return result
        }
    }
}

/// What `reconcile` found.
public struct Reconciliation: Sendable {
    public var account: Account
    public var day: Day
    public var asserted: Money
    /// The balance the entries give at the end of ``day``.
    public var actual: Money
    /// The last assertion before ``day``, if any.
    public var previous: BalanceAssertion?
    /// The entries since ``previous`` (every entry without one), to help find a gap.
    public var entriesSince: [AccountEntry]

    public var matches: Bool { asserted == actual }

    /// Asserted minus actual: what the ledger lacks.
    public func difference() throws(TallyError) -> Money { try asserted - actual }
}
