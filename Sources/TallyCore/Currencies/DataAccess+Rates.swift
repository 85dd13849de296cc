import Foundation

/// One expense whose table rate changed, as `rates reapply` shows it.
public struct RateChange: Hashable, Sendable {
    public var before: Expense
    public var after: Expense

    /// What `changes` spent per budget before and after: each line of a split in its own budget,
    /// a refund below zero (``Expense/portions``), as every budget figure counts them.
    static func byBudget(_ changes: [RateChange]) throws(TallyError) -> [Int64: (before: Money, after: Money)] {
        var figures: [Int64: (before: Money, after: Money)] = [:]
        for change in changes {
            for portion in try change.before.portions {
                let sums = figures[portion.budgetID] ?? (.zero, .zero)
                figures[portion.budgetID] = (try sums.before + portion.amount, sums.after)
            }
            for portion in try change.after.portions {
                let sums = figures[portion.budgetID] ?? (.zero, .zero)
                figures[portion.budgetID] = (sums.before, try sums.after + portion.amount)
            }
        }
        return figures
    }
}

/// One income whose table rate changed, as `rates reapply` shows it.
public struct IncomeRateChange: Hashable, Sendable {
    public var before: Income
    public var after: Income
}

/// What `rates reapply` did (or, dry, would do): each changed expense, and per budget id the
/// spending before and after; and each changed income.
public struct RateReapplication: Hashable, Sendable {
    public var changes: [RateChange]
    public var byBudget: [Int64: (before: Money, after: Money)]
    public var incomes: [IncomeRateChange] = []

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changes == rhs.changes && lhs.incomes == rhs.incomes
            && lhs.byBudget.mapValues { [$0.before, $0.after] } == rhs.byBudget.mapValues { [$0.before, $0.after] }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(changes) }
}

extension ForeignCharge {
    /// `original` in `ledger` on `day`: the one rule that `add`, `edit` and imports share for
    /// every entry (an expense, an income). At `given` (the rate the card or bank charged, source
    /// `given`) or else `tableRate` for its currency and day (source `table`); an amount already in
    /// the ledger's currency is that amount, with no foreign charge (and a given rate is refused).
    public static func converting(
        _ original: CurrencyAmount, on day: Day, given: ExchangeRate?, into ledger: Currency,
        tableRate: (Currency, Day) throws(TallyError) -> ExchangeRate
    ) throws(TallyError) -> (amount: Money, foreign: ForeignCharge?) {
        guard original.currency != ledger else {
            guard given == nil else { throw .foreignMoney(.rateWithoutCurrency) }
            return (try ExchangeRate(mantissa: 1, scale: 0).convert(original, into: ledger), nil)
        }
        let rate: ExchangeRate
        if let given { rate = given } else { rate = try tableRate(original.currency, day) }
        let charge = ForeignCharge(original: original, rate: rate, source: given == nil ? .table : .given)
        return (try charge.amount(in: ledger), charge)
    }
}

/// The rate an edit asks for: one given (as charged), or the table's on the entry's day again.
public enum RateChoice: Hashable, Sendable {
    case given(ExchangeRate)
    case table
}

extension ForeignCharge {
    /// What an edit converts an entry whose charge is `current` again from: the new `original`
    /// or the kept one, at the rate chosen, else the kept given rate, else the table's. `nil`
    /// when nothing asks for a conversion: no new original, no rate, and no new day under a
    /// table rate. A rate for an entry in the ledger's currency is refused.
    public static func reconversion(
        of current: ForeignCharge?, original: CurrencyAmount?, rate: RateChoice?, dayChanged: Bool
    ) throws(TallyError) -> (original: CurrencyAmount, given: ExchangeRate?)? {
        let tableRateMoved = dayChanged && current?.source == .table
        guard original != nil || rate != nil || tableRateMoved else { return nil }
        guard let amount = original ?? current?.original else { throw .foreignMoney(.rateWithoutCurrency) }
        switch rate {
        case .given(let charged): return (amount, charged)
        case .table: return (amount, nil)
        case nil: return (amount, current?.source == .given ? current?.rate : nil)
        }
    }
}

/// An entry kept in the ledger's currency and, when it was in another, with its
/// ``ForeignCharge``: an expense, an income.
public protocol ForeignEntry {
    var date: Day { get }
    var amount: Money { get set }
    var foreign: ForeignCharge? { get set }
}

extension Expense: ForeignEntry {}
extension Income: ForeignEntry {}

extension ForeignEntry {
    /// This entry in `original`'s currency, converted into `ledger` on its day
    /// (``ForeignCharge/converting(_:on:given:into:tableRate:)``).
    public func converted(
        from original: CurrencyAmount, given: ExchangeRate?, into ledger: Currency,
        tableRate: (Currency, Day) throws(TallyError) -> ExchangeRate
    ) throws(TallyError) -> Self {
        var entry = self
        (entry.amount, entry.foreign) = try ForeignCharge.converting(original, on: date, given: given, into: ledger, tableRate: tableRate)
        return entry
    }
}

extension DataAccess {
    /// The rate table's rows matching `query` (``LedgerRows/rates(_:)``).
    public func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.rates(query) }
    }

    /// Saves the rows `produce` hands to `save`, batch by batch, in one transaction (a file of any
    /// length in bounded memory; an error from `produce` saves none), each replacing the row of its
    /// day and pair. The change set records the rows it replaced and saved (``RateImages``); no
    /// recorded expense changes (``reapplyRates(in:dryRun:)`` does that).
    public func saveRates(_ produce: (_ save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Void) throws(TallyError) {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            try produce { (rates: [DayRate]) throws(TallyError) in
                try DayRate.check(rates)
                try rows.writeRates(removing: [], saving: rates)
            }
        }
    }

    /// Saves `rates` in one transaction (``saveRates(_:)-(produce)``).
    public func saveRates(_ rates: [DayRate]) throws(TallyError) {
        try saveRates { (save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) in try save(rates) }
    }

    /// The ledger's currency, which every foreign amount converts into.
    public func ledgerCurrency() throws(TallyError) -> Currency {
        guard let currency = try reading({ (rows: any LedgerRows) throws(TallyError) in try rows.settings().currency }) else {
            throw .foreignMoney(.noLedgerCurrency)
        }
        return currency
    }

    /// The rate an amount in `currency` takes on `day`: ``RateLookup`` over the rate table.
    public func tableRate(from currency: Currency, to ledger: Currency, on day: Day) throws(TallyError) -> ExchangeRate {
        try RateLookup.rate(from: currency, to: ledger, on: day, in: try rates(RateQuery(latestOnOrBefore: day)))
    }

    /// `entry` (an expense, an income) in `original`'s currency: its ``ForeignEntry/foreign`` and
    /// its ledger-currency amount, at `given` (the rate the card or bank charged) or else the
    /// table's rate on its day (``ForeignEntry/converted(from:given:into:tableRate:)``); a
    /// missing rate throws.
    public func converting<Entry: ForeignEntry>(_ entry: Entry, from original: CurrencyAmount, given: ExchangeRate?) throws(TallyError) -> Entry {
        let ledger = try ledgerCurrency()
        return try entry.converted(from: original, given: given, into: ledger) { (currency, day) throws(TallyError) in
            try tableRate(from: currency, to: ledger, on: day)
        }
    }

    /// What `rates reapply` does: every expense and income within `days` (all when `nil`) whose
    /// rate came from the table takes the table's rate on its day again; those given a rate are
    /// left. The changed entries are saved as one write, so one change set (one undo) holds them.
    /// An entry changed since it was read is left as it now is.
    public func reapplyRates(in days: DayInterval?, dryRun: Bool) throws(TallyError) -> RateReapplication {
        let ledger = try ledgerCurrency()
        var tableExpenses: [Expense] = []
        var tableIncomes: [Income] = []
        try reading { (rows: any LedgerRows) throws(TallyError) in
            try rows.forEachExpense(ExpenseQuery(days: days)) { expense in
                if expense.foreign?.source == .table { tableExpenses.append(expense) }
            }
            for case .income(let income) in try rows.rowImages(.entries) where income.foreign?.source == .table {
                if days?.contains(income.date) ?? true { tableIncomes.append(income) }
            }
        }
        var latest: [Day: [DayRate]] = [:]
        // The table's rate on `day` for `charge`, and the ledger amount it gives.
        func reapplied(_ charge: ForeignCharge, on day: Day) throws(TallyError) -> (charge: ForeignCharge, amount: Money) {
            let rows: [DayRate]
            if let known = latest[day] { rows = known } else { rows = try rates(RateQuery(latestOnOrBefore: day)) }
            latest[day] = rows
            let rate = try RateLookup.rate(from: charge.original.currency, to: ledger, on: day, in: rows)
            let again = ForeignCharge(original: charge.original, rate: rate, source: .table)
            return (again, try again.amount(in: ledger))
        }
        var changes: [RateChange] = []
        for expense in tableExpenses {
            guard let charge = expense.foreign else { continue }
            var after = expense
            (after.foreign, after.amount) = try reapplied(charge, on: expense.date)
            after = try after.withLinesFitted()
            if after != expense { changes.append(RateChange(before: expense, after: after)) }
        }
        var incomeChanges: [IncomeRateChange] = []
        for income in tableIncomes {
            guard let charge = income.foreign else { continue }
            var after = income
            (after.foreign, after.amount) = try reapplied(charge, on: income.date)
            if after != income { incomeChanges.append(IncomeRateChange(before: income, after: after)) }
        }
        guard !dryRun, !changes.isEmpty || !incomeChanges.isEmpty else {
            return RateReapplication(changes: changes, byBudget: try RateChange.byBudget(changes), incomes: incomeChanges)
        }
        let saved = try writing { (rows: any LedgerRows) throws(TallyError) -> ([RateChange], [IncomeRateChange]) in
            let current = try rows.expenses(ExpenseQuery(ids: changes.compactMap(\.before.id)))
            var byID: [Int64: Expense] = [:]
            for expense in current { byID[expense.id ?? 0] = expense }
            let kept = changes.filter { byID[$0.before.id ?? 0] == $0.before }
            _ = try rows.save(kept.map { change in
                var after = change.after
                after.updatedAt = rows.timestamp
                return after
            })
            var incomes: [Int64: Income] = [:]
            for case .income(let income) in try incomeChanges.isEmpty ? [] : rows.rowImages(.entries) { incomes[income.id ?? 0] = income }
            let keptIncomes = incomeChanges.filter { incomes[$0.before.id ?? 0] == $0.before }
            for change in keptIncomes {
                var after = change.after
                after.updatedAt = rows.timestamp
                try rows.save(.income(after))
            }
            return (kept, keptIncomes)
        }
        return RateReapplication(changes: saved.0, byBudget: try RateChange.byBudget(saved.0), incomes: saved.1)
    }
}
