import Foundation

/// What to list of the expenses, in which order, and which page.
public struct ExpenseQuery: Hashable, Sendable {
    /// Only expenses with these ids.
    public var ids: [Int64]?
    public var budgetID: Int64?
    public var days: DayInterval?
    /// Matched anywhere in the name, ignoring case and diacritics.
    public var search: String?
    /// Matched exactly after normalization.
    public var tag: String?
    /// Who spent it (``Expense/by``), matched exactly after ``Expense/validatedBy(_:)``; an
    /// empty text matches expenses that record no one.
    public var by: String?
    /// Only expenses paid from this account.
    public var accountID: Int64?
    /// Only expenses in another currency than the ledger's (``Expense/foreign``).
    public var inOtherCurrency = false
    /// Only split expenses and refunds (``Expense/lines``, ``Expense/isRefund``).
    public var splitOrRefund = false
    public var sort: ExpenseSort
    public var descending: Bool
    /// `nil` lists every match.
    public var limit: Int?
    public var offset: Int

    public init(
        ids: [Int64]? = nil, budgetID: Int64? = nil, days: DayInterval? = nil, search: String? = nil, tag: String? = nil,
        by: String? = nil, accountID: Int64? = nil, sort: ExpenseSort = .date, descending: Bool = false, limit: Int? = nil,
        offset: Int = 0
    ) {
        self.ids = ids
        self.budgetID = budgetID
        self.days = days
        self.search = search
        self.tag = tag
        self.by = by
        self.accountID = accountID
        self.sort = sort
        self.descending = descending
        self.limit = limit
        self.offset = offset
    }
}

/// Expense orderings; ties are always broken by id in the same direction, so pages are stable.
public enum ExpenseSort: String, Hashable, Sendable, CaseIterable {
    case date, amount, total, name
}

/// The persistence boundary. Speaks only Tally's plain value types; every method is one
/// transaction. What the commands do is written once over it, in Core, through ``reading(_:)``
/// and ``writing(_:)`` and a store's ``LedgerRows``; its other requirements are the reads
/// whose fast form is each store's own.
///
/// `SQLiteStore`, `InMemoryStore` and `PostgresStore` implement it; the contract suite proves
/// them equal.
public protocol DataAccess: AnyObject, Sendable {
    /// Runs `body` over the ledger's rows in one read transaction: one consistent view.
    func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T
    /// Runs `body` over the ledger's rows in one write transaction, recorded as one change set:
    /// all of its writes are saved or, when it throws, none.
    func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T

    /// Ends the store's use now (an SQLite file folds its WAL back in); every later call throws.
    func close() throws(TallyError)

    // MARK: Reads with a store's own fast form

    /// What each budget spent within each of `months`' periods, by budget id, from one read:
    /// ``Spending/byMonth(in:budgets:of:calendar:)``. Every month of `months` is a key; a budget
    /// that spent nothing in a period is absent from it.
    func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]]
    /// What the expenses within `days` whose name contains `search` (ignoring case and
    /// diacritics, as ``ExpenseQuery/search``) paid per unit, per day, from one read:
    /// ``UnitPriceFigures/byDay(matching:in:of:)``.
    func unitPrices(matching search: String, in days: DayInterval) throws(TallyError) -> [Day: UnitPriceFigures]
    /// What the budgets `ids` spent within the periods `months` (under the ledger's calendar)
    /// per budget, name key and tag set, summed over those periods, from one read:
    /// ``SpendingGroup/groups(ofBudgets:in:of:)`` of their days, in no particular order.
    func spendingGroups(ofBudgets ids: Set<Int64>, in months: ClosedRange<Month>) throws(TallyError) -> [SpendingGroup]
}

extension DataAccess {
    /// Every tag an expense of the ledger has or has had, sorted: what completion offers. Reads
    /// no expense.
    public func tags() throws(TallyError) -> [String] {
        try reading { (rows: any LedgerRows) throws(TallyError) in
            var tags: [String] = []
            for case .tags(let names) in try rows.rowImages(.tags) { tags += names }
            return tags.sorted()
        }
    }

    /// The keys of every row imported from a CSV file so far (``ImportRowKey``), for a dry run;
    /// an import reads them inside its own transaction.
    public func importedRowKeys() throws(TallyError) -> Set<Int64> {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.importedRowKeys() }
    }

    /// What `check --new-only` does with its memory, as one transaction: saves each budget's
    /// level (by budget id) for `period` and returns the levels the last such check saved for it.
    /// A budget removed meanwhile has none.
    public func exchangeAlertLevels(_ levels: [Int64: AlertLevel], for period: Month) throws(TallyError) -> [Int64: AlertLevel] {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            var previous: [Int64: AlertLevel] = [:]
            for case .alertLevel(let budgetID, period, let level) in try rows.rowImages(.alertLevels) {
                previous[budgetID] = level
                try rows.delete(.alertLevel(budgetID: budgetID, period: period, level: level))
            }
            for (budgetID, level) in levels.sorted(by: { $0.key < $1.key }) {
                try rows.save(.alertLevel(budgetID: budgetID, period: period, level: level))
            }
            return previous
        }
    }

    /// The figures of `budgets` (every budget when `nil`, ordered like ``budgets()``) in the view
    /// of period `month` (``LedgerRows/budgetStatuses(for:of:)``).
    public func budgetStatuses(for month: Month, of budgets: [Budget]? = nil) throws(TallyError) -> [BudgetStatus] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.statuses(for: month, of: budgets) }
    }

    /// One budget's line of ``budgetStatuses(for:)``, reading only that budget's expenses.
    public func status(of budget: Budget, in month: Month) throws(TallyError) -> BudgetStatus {
        guard let status = try budgetStatuses(for: month, of: [budget]).first else { throw .budgetNotFound(budget.name) }
        return status
    }

    /// One budget's figures for `month`.
    public func status(ofBudgetNamed name: String, in month: Month) throws(TallyError) -> BudgetStatus {
        try status(of: budget(named: name), in: month)
    }
}

extension Date {
    /// Both stores keep timestamps to the millisecond so that they compare equal.
    public var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
