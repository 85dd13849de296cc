import TallyCore

/// An account with its balance at the end of a day and the day it was reconciled through.
public struct AccountStatus: Sendable {
    public var account: Account
    /// `nil` before the account's opening day.
    public var balance: Money?
    public var reconciledThrough: Day?
}

/// `account add`.
public struct AddAccount: Sendable {
    public var account: Account

    public init(_ account: Account) {
        self.account = account
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Account {
        let account = try account.validated()
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.addAccount(account) }
    }
}

/// `account edit` and `account archive`: changes the given fields of the account called `name`.
public struct EditAccount: Sendable {
    public var name: String
    public var newName: String?
    public var kind: AccountKind?
    public var opening: Money?
    /// `.some(nil)` removes the opening day.
    public var openingDate: Day??
    public var archived: Bool?
    /// `.some(nil)` removes the IBAN or account number.
    public var number: String??

    public init(
        name: String, newName: String? = nil, kind: AccountKind? = nil, opening: Money? = nil, openingDate: Day?? = nil,
        archived: Bool? = nil
    ) {
        self.name = name
        self.newName = newName
        self.kind = kind
        self.opening = opening
        self.openingDate = openingDate
        self.archived = archived
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Account {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var account = try store.accountBook(withEntries: false).account(named: name)
            if let newName { account.name = newName }
            if let kind { account.kind = kind }
            if let opening { account.opening = opening }
            if let openingDate { account.openingDate = openingDate }
            if let archived { account.archived = archived }
            if let number { account.number = number }
            return try store.updateAccount(account)
        }
    }
}

/// `account remove`: an account that entries name goes, with them, only when confirmed.
public struct RemoveAccount: Sendable {
    public var name: String
    public var includingEntries: Bool

    public init(name: String, includingEntries: Bool) {
        self.name = name
        self.includingEntries = includingEntries
    }

    /// `confirm` is asked, with what names the account (``TallyError/accountInUse(_:entries:assertions:expenses:)``),
    /// when something does and `includingEntries` is off; it answers whether to go on.
    /// `unlinkedGoals` names the budgets whose target named the account and now names none.
    public func run(
        in ledger: Ledger, confirm: (TallyError) -> Bool
    ) throws(TallyError) -> (account: Account, entries: Int, expenses: Int, unlinkedGoals: [String]) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let linked = try store.budgets().filter { $0.target?.accountID != nil }
            let removed: (account: Account, entries: Int, expenses: Int)
            do throws(TallyError) {
                removed = try store.removeAccount(named: name, includingEntries: includingEntries)
            } catch let error where error.isAccountInUse && confirm(error) {
                removed = try store.removeAccount(named: name, includingEntries: true)
            }
            let unlinked = linked.filter { $0.target?.accountID == removed.account.id }.map(\.name)
            return (removed.account, removed.entries, removed.expenses, unlinked)
        }
    }
}

/// `account list`: every account (the archived ones too when asked) with its balance at the end
/// of `day`.
public struct ListAccounts: Sendable {
    public var day: Day
    public var includingArchived: Bool

    public init(on day: Day, includingArchived: Bool = false) {
        self.day = day
        self.includingArchived = includingArchived
    }

    public func run(in ledger: Ledger) throws(TallyError) -> [AccountStatus] {
        let book = try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.accountBook(withEntries: false) }
        var statuses: [AccountStatus] = []
        for account in book.accounts where includingArchived || !account.archived {
            statuses.append(AccountStatus(
                account: account, balance: try book.balance(of: account, through: day), reconciledThrough: book.reconciledThrough(account)))
        }
        return statuses
    }
}

/// `account show`: an account's balance at the end of each period from its first to `period`,
/// and that period's entries.
public struct ShowAccount: Sendable {
    public var name: String
    public var period: PeriodChoice
    public var today: Day

    public init(name: String, period: PeriodChoice, today: Day) {
        self.name = name
        self.period = period
        self.today = today
    }

    public struct Detail: Sendable {
        public var status: AccountStatus
        public var period: Month
        public var days: DayInterval
        /// Each period's closing balance, oldest first, from the period the account opened (or
        /// its first entry) on; periods before the opening day are left out.
        public var closings: [(period: Month, balance: Money)]
        public var entries: [AccountEntry]
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Detail {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            try store.reading { (rows: any LedgerRows) throws(TallyError) in try detail(rows) }
        }
    }

    private func detail(_ rows: any LedgerRows) throws(TallyError) -> Detail {
        let book = try rows.accountBook()
        let calendar = try rows.settings().calendar
        let account = try book.account(named: name)
        let month = try period.resolved(in: calendar, today: today)
        let days = calendar.days(of: month)
        let first = account.openingDate ?? book.firstEntryDay(of: account) ?? days.first
        var closings: [(period: Month, balance: Money)] = []
        var current = min(calendar.period(containing: first), month)
        while current <= month {
            if let balance = try book.balance(of: account, through: calendar.days(of: current).last) { closings.append((current, balance)) }
            current = current.adding(months: 1)
        }
        let status = AccountStatus(
            account: account, balance: try book.balance(of: account, through: min(days.last, today)),
            reconciledThrough: book.reconciledThrough(account))
        return Detail(
            status: status, period: month, days: days, closings: closings, entries: try rows.entries(of: account, in: days, book: book))
    }
}

/// `income add`.
public struct AddIncome: Sendable {
    public var income: Income
    public var account: String
    /// The amount in another currency, converted at `rate` or the table's rate on the income's day.
    public var original: CurrencyAmount?
    /// The rate the bank credited `original` at, over the rate table's.
    public var rate: ExchangeRate?

    public init(_ income: Income, account: String, original: CurrencyAmount? = nil, rate: ExchangeRate? = nil) {
        self.income = income
        self.account = account
        self.original = original
        self.rate = rate
    }

    /// The saved income and its account's name as the ledger spells it. An amount in another
    /// currency without a rate on its day saves nothing (never 1:1).
    public func run(in ledger: Ledger) throws(TallyError) -> (income: Income, account: String) {
        _ = try income.validated()
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var income = income
            if let original { income = try store.converting(income, from: original, given: rate) }
            let (saved, account) = try store.addIncome(try income.validated(), toAccountNamed: account)
            return (saved, account.name)
        }
    }
}

/// `income edit`: changes the given fields of an income.
public struct EditIncome: Sendable {
    public var id: Int64
    public var name: String?
    public var amount: Money?
    public var date: Day?
    public var account: String?
    public var tags: [String]?
    public var by: String?
    public var force: Bool
    /// A new amount in another currency (`amount` in the ledger's currency drops the original).
    public var original: CurrencyAmount?
    /// A new rate for the original amount: the one credited, or the table's on the income's day.
    public var rate: RateChoice?

    public init(
        id: Int64, name: String? = nil, amount: Money? = nil, date: Day? = nil, account: String? = nil, tags: [String]? = nil,
        by: String? = nil, force: Bool = false, original: CurrencyAmount? = nil, rate: RateChoice? = nil
    ) {
        self.id = id
        self.name = name
        self.amount = amount
        self.date = date
        self.account = account
        self.tags = tags
        self.by = by
        self.force = force
        self.original = original
        self.rate = rate
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Income {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            // Converted again, before the write, when its original amount, its rate or (for a
            // table rate) its day changed; a plain --amount drops the original.
            var converted: Income?
            if original != nil || rate != nil || date != nil,
                case let existing = try store.accountBook().income(id: id),
                let conversion = try ForeignCharge.reconversion(
                    of: amount == nil ? existing.foreign : nil, original: original, rate: rate, dayChanged: date != nil)
            {
                var moved = existing
                moved.date = date ?? existing.date
                converted = try store.converting(moved, from: conversion.original, given: conversion.given)
            }
            return try store.updateIncome(id: id, force: force) { (income: inout Income, book: AccountBook) throws(TallyError) in
                if let name { income.name = name }
                if let amount {
                    income.amount = amount
                    income.foreign = nil
                }
                if let converted { (income.amount, income.foreign) = (converted.amount, converted.foreign) }
                if let date { income.date = date }
                if let account { income.accountID = try book.account(named: account).id ?? 0 }
                if let tags { income.tags = tags }
                if let by { income.by = by }
            }
        }
    }
}

/// `income list` and `transfer list`: the entries within a period (every one when `nil`),
/// optionally of one account and matching a search.
public struct ListEntries: Sendable {
    public var period: PeriodChoice?
    public var account: String?
    /// Matched anywhere in the name, ignoring case and diacritics.
    public var search: String?
    public var today: Day

    public init(period: PeriodChoice? = nil, account: String? = nil, search: String? = nil, today: Day) {
        self.period = period
        self.account = account
        self.search = search
        self.today = today
    }

    public struct Result: Sendable {
        public var incomes: [Income]
        public var transfers: [Transfer]
        /// Account names by id.
        public var accountNames: [Int64: String]
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Result {
        let (book, settings) = try ledger.accountBookAndSettings()
        let days = try period.map { (choice: PeriodChoice) throws(TallyError) in
            settings.calendar.days(of: try choice.resolved(in: settings.calendar, today: today))
        }
        let accountID = try account.map { (name: String) throws(TallyError) in try book.account(named: name).id ?? 0 }
        let key = search.map(NameKey.lookup)
        func keep(_ date: Day, _ name: String, _ accounts: [Int64]) -> Bool {
            (days?.contains(date) ?? true) && (accountID.map(accounts.contains) ?? true)
                && (key.map { $0.isEmpty || NameKey.make(name).contains($0) } ?? true)
        }
        var names: [Int64: String] = [:]
        for account in book.accounts { names[account.id ?? 0] = account.name }
        return Result(
            incomes: book.incomes.filter { keep($0.date, $0.name, [$0.accountID]) },
            transfers: book.transfers.filter { keep($0.date, $0.name, [$0.fromAccountID, $0.toAccountID]) }, accountNames: names)
    }
}

/// `reconcile --list`: the assertions, of one account or all, with each account's name.
public struct ListAssertions: Sendable {
    public var account: String?

    public init(account: String?) {
        self.account = account
    }

    public func run(in ledger: Ledger) throws(TallyError) -> [(account: Account, assertion: BalanceAssertion)] {
        let book = try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.accountBook(withEntries: false) }
        let only = try account.map { (name: String) throws(TallyError) in try book.account(named: name) }
        var result: [(account: Account, assertion: BalanceAssertion)] = []
        for account in book.accounts where only.map({ $0.id == account.id }) ?? true {
            for assertion in book.assertions(of: account) { result.append((account, assertion)) }
        }
        return result
    }
}

extension Ledger {
    /// The account book and the settings whose periods it is shown in, from one read.
    fileprivate func accountBookAndSettings() throws(TallyError) -> (AccountBook, LedgerSettings) {
        try perform { (store: any DataAccess) throws(TallyError) in
            try store.reading { (rows: any LedgerRows) throws(TallyError) in (try rows.accountBook(), try rows.settings()) }
        }
    }
}
