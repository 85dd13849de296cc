import Foundation

/// A named spending limit. Validates itself and computes its own figures.
public struct Budget: Identifiable, Hashable, Sendable, Codable {
    public static let maximumNameLength = 100

    /// Assigned by the store; `nil` until the budget is saved.
    public var id: Int64?
    public var name: String
    /// The limit from the budget's first period on, until the first of ``limitChanges``.
    public var limit: Money
    public var period: BudgetPeriod
    public var rollover: RolloverPolicy
    /// The most a period may have available, carried amount included.
    public var cap: Money?
    /// The first period (its key, see ``periodKey(of:)``) when set explicitly; otherwise the
    /// budget begins in the earlier of the period it was created in and its earliest expense's.
    public var start: Month?
    /// The days a `once` budget covers; `nil` for the others.
    public var range: DayInterval?
    /// Later limits, each from its period on, ordered by period.
    public var limitChanges: [LimitChange]
    /// The percent of what is available from which the budget is `near` (1–100): given with
    /// `--warn`, else the ledger's default when the budget was added (``LedgerSettings/warn``).
    public var warn: Int
    /// What the budget saves toward, if anything (``BudgetTarget``).
    public var target: BudgetTarget?
    /// The budget's own currency (a trip budget in JPY): its limit, cap, later limits and target
    /// are in it, and its spending counts each expense in it (``BudgetCurrency``). `nil` is the
    /// ledger's currency; a store keeps `nil` for a currency equal to the ledger's.
    public var currency: Currency?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, limit: Money, period: BudgetPeriod = .monthly, rollover: RolloverPolicy = .none,
        cap: Money? = nil, start: Month? = nil, range: DayInterval? = nil, limitChanges: [LimitChange] = [],
        warn: Int = BudgetLevel.defaultWarnPercent, target: BudgetTarget? = nil, currency: Currency? = nil, createdAt: Date = Date(),
        updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.limit = limit
        self.period = period
        self.rollover = rollover
        self.cap = cap
        self.start = start
        self.range = range
        self.limitChanges = limitChanges
        self.warn = warn
        self.target = target
        self.currency = currency
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// The key under which names are unique: case, diacritics and width folded.
    public var nameKey: String { NameKey.make(name) }

    /// Returns the budget with its name trimmed, or throws the first broken rule.
    public func validated() throws(TallyError) -> Budget {
        var budget = self
        budget.name = try Budget.validatedName(name)
        try Budget.checkLimit(limit)
        if let cap { try Budget.checkCap(cap) }
        try BudgetLevel.checkWarn(warn)
        switch period {
        case .once:
            guard let range else { throw .onceBudgetNeedsRange }
            guard range.first <= range.last else { throw .rangeEndsBeforeItStarts(range) }
            guard rollover == .none else { throw .rolloverNeedsRenewingPeriod }
            budget.start = nil
            budget.limitChanges = []
        case .monthly, .yearly:
            guard range == nil else { throw .rangeNeedsOncePeriod }
            budget.start = start.map(periodKey)
            var previous = budget.start
            for change in limitChanges {
                try Budget.checkLimit(change.limit)
                let from = periodKey(of: change.from)
                if let previous, from <= previous { throw .limitChangesOutOfOrder(from) }
                previous = from
            }
            budget.limitChanges = limitChanges.map { LimitChange(from: periodKey(of: $0.from), limit: $0.limit) }
        }
        try budget.target?.check(for: budget)
        if let currency { try BudgetCurrency.checkAmounts(of: budget, in: currency) }
        return budget
    }

    /// A budget name trimmed, or the first rule it breaks.
    public static func validatedName(_ name: String) throws(TallyError) -> String {
        try NameKey.validated(name, kind: .budget, maximumLength: Budget.maximumNameLength)
    }

    /// A cap is above zero and at most ``Money/maximumInput``.
    public static func checkCap(_ cap: Money) throws(TallyError) {
        guard cap.cents > 0 else { throw .capNotPositive(cap) }
        guard cap <= Money.maximumInput else { throw .amountOutOfRange(cap.plainString) }
    }

    /// A limit is above zero and at most ``Money/maximumInput``.
    public static func checkLimit(_ limit: Money) throws(TallyError) {
        guard limit.cents > 0 else { throw .limitNotPositive(limit) }
        guard limit <= Money.maximumInput else { throw .amountOutOfRange(limit.plainString) }
    }

    public func validate() throws(TallyError) {
        _ = try validated()
    }

    /// Whether two names would clash as budget names.
    public func hasSameName(as other: String) -> Bool {
        nameKey == NameKey.lookup(other)
    }

    /// What this budget's expenses within `days` add up to.
    public func spent(in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> Money {
        var total = Money.zero
        for expense in expenses where days.contains(expense.date) && expense.counts(in: id) {
            for portion in try expense.portions where portion.budgetID == id { total = try total + portion.amount }
        }
        return total
    }

    /// A budget that has expenses is removed, with them, only when asked: throws
    /// ``TallyError/budgetNotEmpty(_:expenseCount:)`` when it has `expenseCount` expenses and
    /// `includingExpenses` is false.
    public func checkRemoval(expenseCount: Int, includingExpenses: Bool) throws(TallyError) {
        guard expenseCount == 0 || includingExpenses else { throw .budgetNotEmpty(name, expenseCount: expenseCount) }
    }

    /// Names are unique by ``nameKey``: throws ``TallyError/duplicateBudget(_:)`` when `holder`,
    /// the id of the budget a store already holds under this one's name key (`nil` for none), is
    /// another budget's.
    public func checkNameIsFree(heldBy holder: Int64?) throws(TallyError) {
        if let holder, holder != id { throw .duplicateBudget(name) }
    }

    /// The budget a user calls `name`, given `found`: the one a store holds under
    /// `NameKey.lookup(name)`, so case, diacritics, width and surrounding white space do not
    /// count. None is ``TallyError/budgetNotFound(_:)`` with the name as typed.
    @inlinable
    public static func named(_ name: String, found: Budget?) throws(TallyError) -> Budget {
        guard let found else { throw .budgetNotFound(name) }
        return found
    }
}
