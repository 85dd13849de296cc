import TallyCore

/// `add` and `expense add`: a new expense in a budget named as the user typed it.
public struct AddExpense: Sendable {
    public var expense: Expense
    public var budget: String
    /// The account it was paid from; the ledger's default account when `nil`.
    public var account: String?
    /// The amount in another currency, converted into the ledger's (`expense.amount` is then ignored).
    public var original: CurrencyAmount?
    /// The rate charged for `original`, over the rate table's.
    public var rate: ExchangeRate?

    /// `expense.budgetID` is ignored: the budget is the one `budget` names.
    public init(_ expense: Expense, budget: String, account: String? = nil, original: CurrencyAmount? = nil, rate: ExchangeRate? = nil) {
        self.expense = expense
        self.budget = budget
        self.account = account
        self.original = original
        self.rate = rate
    }

    /// The saved expense with its budget's figures for the expense's month, one transaction. An
    /// amount in another currency without a rate on its day saves nothing (never 1:1).
    public func run(in ledger: Ledger) throws(TallyError) -> (expense: Expense, status: BudgetStatus) {
        let expense = try expense.validated()
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let converted = try original.map { (original: CurrencyAmount) throws(TallyError) in
                try store.converting(expense, from: original, given: rate).validated()
            } ?? expense
            return try store.addExpense(converted, toBudgetNamed: budget, accountNamed: account)
        }
    }
}

/// `expense edit`: changes the given fields of an expense.
public struct EditExpense: Sendable {
    public var id: Int64
    public var name: String?
    public var amount: Money?
    public var quantity: Int64?
    public var date: Day?
    /// Moves the expense to the budget of this name.
    public var budget: String?
    /// Replaces the tags; `[]` removes them all.
    public var tags: [String]?
    /// Pays it from the account of this name; `.some(nil)` from none.
    public var account: String??
    /// Changes it even where an account is reconciled.
    public var force: Bool
    /// A new amount in another currency (`amount` in the ledger's currency drops the original).
    public var original: CurrencyAmount?
    /// A new rate for the original amount: the one charged, or the table's on the expense's day.
    public var rate: RateChoice?

    public typealias RateChoice = TallyCore.RateChoice

    public init(
        id: Int64, name: String? = nil, amount: Money? = nil, quantity: Int64? = nil, date: Day? = nil,
        budget: String? = nil, tags: [String]? = nil, account: String?? = nil, force: Bool = false,
        original: CurrencyAmount? = nil, rate: RateChoice? = nil
    ) {
        self.original = original
        self.rate = rate
        self.id = id
        self.name = name
        self.amount = amount
        self.quantity = quantity
        self.date = date
        self.budget = budget
        self.tags = tags
        self.account = account
        self.force = force
    }

    /// The changed expense and the name of its budget.
    public func run(in ledger: Ledger) throws(TallyError) -> (expense: Expense, budgetName: String) {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var expense = try store.expense(id: id)
            if let name { expense.name = name }
            if let amount {
                expense.amount = amount
                expense.foreign = nil
            }
            if let quantity { expense.quantity = quantity }
            if let date { expense.date = date }
            expense = try reconverted(expense, in: store)
            // A split keeps its percentages and fixed lines; fixed lines the new total cannot hold refuse.
            expense = try expense.withLinesFitted()
            var owner: Budget?
            if let budget {
                guard expense.lines.isEmpty else { throw .split(.isSplit(id)) }
                owner = try store.budget(named: budget)
                expense.budgetID = owner?.id ?? 0
            }
            if let tags { expense.tags = tags }
            if let account {
                expense.accountID = try account.map { (name: String) throws(TallyError) in
                    try store.accountBook(withEntries: false).account(named: name).id
                } ?? nil
            }
            expense = try store.updateExpense(expense, force: force)
            if owner == nil { owner = try store.budgets().first { $0.id == expense.budgetID } }
            return (expense, owner?.name ?? "")
        }
    }

    /// The expense converted again when its original amount, its rate or (for a table rate) its
    /// day changed; a given rate is kept unless another is chosen.
    private func reconverted(_ expense: Expense, in store: any DataAccess) throws(TallyError) -> Expense {
        let conversion = try ForeignCharge.reconversion(of: expense.foreign, original: original, rate: rate, dayChanged: date != nil)
        guard let conversion else { return expense }
        return try store.converting(expense, from: conversion.original, given: conversion.given)
    }
}

/// `expense remove`.
public struct RemoveExpense: Sendable {
    public var id: Int64
    /// Removes it even where an account is reconciled.
    public var force: Bool

    public init(id: Int64, force: Bool = false) {
        self.id = id
        self.force = force
    }

    /// The expense as it was.
    public func run(in ledger: Ledger) throws(TallyError) -> Expense {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let expense = try store.expense(id: id)
            try store.removeExpense(id: id, force: force)
            return expense
        }
    }
}

/// `expense list`: one page of the expenses a filter matches.
public struct ListExpenses: Sendable {
    public static let maximumPageSize = 1000

    public var budget: String?
    /// Only this period's expenses; every expense when `nil`.
    public var period: PeriodChoice?
    public var search: String?
    public var tag: String?
    /// Only the expenses this person spent (``ExpenseQuery/by``).
    public var by: String?
    /// Only the expenses paid from the account of this name.
    public var account: String?
    public var sort: ExpenseSort
    public var descending: Bool
    /// Counting from 1.
    public var page: Int
    public var pageSize: Int

    public init(
        budget: String? = nil, month: Month? = nil, search: String? = nil, tag: String? = nil, sort: ExpenseSort = .date,
        descending: Bool = false, page: Int = 1, pageSize: Int = 50
    ) {
        self.budget = budget
        period = month.map(PeriodChoice.month)
        self.search = search
        self.tag = tag
        self.sort = sort
        self.descending = descending
        self.page = page
        self.pageSize = pageSize
    }

    public struct Page: Sendable {
        public var expenses: [Expense]
        /// How many expenses match, on every page.
        public var total: Int
        public var pageCount: Int
        /// The name of every budget, by id, for the rows.
        public var budgetNames: [Int64: String]
        /// The names of the accounts the rows name, by id.
        public var accountNames: [Int64: String] = [:]
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Page {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var query = ExpenseQuery(search: search, tag: tag, by: by, sort: sort, descending: descending)
            if let period {
                let calendar = try store.settings().calendar
                query.days = calendar.days(of: try period.resolved(in: calendar, today: Day.today()))
            }
            if let budget { query.budgetID = try store.budget(named: budget).id }
            if let account { query.accountID = try store.accountBook(withEntries: false).account(named: account).id }
            let total = try store.countExpenses(query)
            // Multiplying first could overflow on a huge page number; such a page is simply empty.
            let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: pageSize)
            query.offset = overflow ? Int.max : offset
            query.limit = pageSize
            let expenses = overflow || offset >= total ? [] : try store.expenses(query)
            var names: [Int64: String] = [:]
            for each in try store.budgets() { names[each.id ?? 0] = each.name }
            return Page(
                expenses: expenses, total: total, pageCount: max((total + pageSize - 1) / pageSize, 1), budgetNames: names,
                accountNames: try store.accountNames(of: expenses))
        }
    }
}

/// `add --split`: a new expense split into lines, each in a budget named as the user typed it.
public struct AddSplitExpense: Sendable {
    public var expense: Expense
    public var lines: [NamedLine]
    public var account: String?
    /// The amount in another currency, converted into the ledger's (`expense.amount` is then
    /// ignored); the lines' fixed amounts are in its currency (``NamedLine/converted(_:of:quantity:into:)``).
    public var original: CurrencyAmount?
    /// The rate charged for `original`, over the rate table's.
    public var rate: ExchangeRate?

    public init(_ expense: Expense, lines: [NamedLine], account: String? = nil, original: CurrencyAmount? = nil, rate: ExchangeRate? = nil) {
        self.expense = expense
        self.lines = lines
        self.account = account
        self.original = original
        self.rate = rate
    }

    /// The saved expense with the statuses of its lines' budgets. The shares are checked
    /// before the ledger opens, so a bad split creates nothing.
    public func run(in ledger: Ledger) throws(TallyError) -> (expense: Expense, statuses: [BudgetStatus]) {
        let expense = try expense.validated()
        guard let original else {
            try NamedLine.check(lines, total: try expense.total())
            return try ledger.perform { (store: any DataAccess) throws(TallyError) in
                try store.addSplitExpense(expense, lines: lines, accountNamed: account)
            }
        }
        try NamedLine.check(lines, total: try original.multiplied(by: expense.quantity))
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let converted = try store.converting(expense, from: original, given: rate).validated()
            guard let charge = converted.foreign else { throw .foreignMoney(.noLedgerCurrency) }
            let ledgerLines = try NamedLine.converted(lines, of: charge, quantity: converted.quantity, into: try store.ledgerCurrency())
            return try store.addSplitExpense(converted, lines: ledgerLines, accountNamed: account)
        }
    }
}

/// `expense split` and `expense unsplit`.
public struct SplitExpense: Sendable {
    public enum Change: Sendable {
        case split([NamedLine])
        case unsplit(budget: String)
    }

    public var id: Int64
    public var change: Change

    public init(id: Int64, _ change: Change) {
        self.id = id
        self.change = change
    }

    /// The expense as it is now, and every budget's name by id.
    public func run(in ledger: Ledger) throws(TallyError) -> (expense: Expense, budgetNames: [Int64: String]) {
        if case .split(let lines) = change {
            // Shares that cannot make a split are refused whatever the total.
            guard lines.count >= 2 else { throw .split(.tooFewLines) }
            guard lines.count(where: { $0.share == .rest }) <= 1 else { throw .split(.twoRests) }
        }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let expense = switch change {
            case .split(let lines): try store.splitExpense(id: id, lines: lines)
            case .unsplit(let budget): try store.unsplitExpense(id: id, budgetNamed: budget)
            }
            var names: [Int64: String] = [:]
            for budget in try store.budgets() { names[budget.id ?? 0] = budget.name }
            return (expense, names)
        }
    }
}

/// `refund`: money coming back into a budget.
public struct AddRefund: Sendable {
    public var refund: Expense
    public var budget: String
    /// The expense it returns, when named.
    public var of: Int64?
    public var account: String?
    /// The amount in another currency, converted into the ledger's as an expense's is.
    public var original: CurrencyAmount?
    /// The rate given for `original`, over the rate table's.
    public var rate: ExchangeRate?

    public init(
        _ refund: Expense, budget: String, of: Int64? = nil, account: String? = nil, original: CurrencyAmount? = nil, rate: ExchangeRate? = nil
    ) {
        self.refund = refund
        self.budget = budget
        self.of = of
        self.account = account
        self.original = original
        self.rate = rate
    }

    public func run(in ledger: Ledger) throws(TallyError) -> (expense: Expense, status: BudgetStatus) {
        var refund = refund
        refund.isRefund = true
        refund = try refund.validated()
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let converted = try original.map { (original: CurrencyAmount) throws(TallyError) in
                try store.converting(refund, from: original, given: rate).validated()
            } ?? refund
            return try store.addRefund(converted, toBudgetNamed: budget, of: of, accountNamed: account)
        }
    }
}
