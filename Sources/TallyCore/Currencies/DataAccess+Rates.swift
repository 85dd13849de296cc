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

/// What `rates reapply` did (or, dry, would do): each changed expense, and per budget id the
/// spending before and after.
public struct RateReapplication: Hashable, Sendable {
    public var changes: [RateChange]
    public var byBudget: [Int64: (before: Money, after: Money)]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changes == rhs.changes && lhs.byBudget.mapValues { [$0.before, $0.after] } == rhs.byBudget.mapValues { [$0.before, $0.after] }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(changes) }
}

extension Expense {
    /// This expense in `original`'s currency, converted into `ledger`: the one rule `add`, `edit`
    /// and imports share. At `given` (the rate the card charged, source `given`) or else
    /// `tableRate` for its currency and day (source `table`); an amount already in the ledger's
    /// currency stays as it is, with no foreign charge (and a given rate is refused).
    public func converted(
        from original: CurrencyAmount, given: ExchangeRate?, into ledger: Currency,
        tableRate: (Currency, Day) throws(TallyError) -> ExchangeRate
    ) throws(TallyError) -> Expense {
        var expense = self
        guard original.currency != ledger else {
            guard given == nil else { throw .foreignMoney(.rateWithoutCurrency) }
            expense.amount = try ExchangeRate(mantissa: 1, scale: 0).convert(original, into: ledger)
            expense.foreign = nil
            return expense
        }
        let rate: ExchangeRate
        if let given { rate = given } else { rate = try tableRate(original.currency, expense.date) }
        let charge = ForeignCharge(original: original, rate: rate, source: given == nil ? .table : .given)
        expense.amount = try charge.amount(in: ledger)
        expense.foreign = charge
        return expense
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

    /// `expense` in `original`'s currency: its ``Expense/foreign`` and its ledger-currency
    /// ``Expense/amount``, at `given` (the rate the card charged) or else the table's rate on its
    /// day (``Expense/converted(from:given:into:tableRate:)``); a missing rate throws.
    public func converting(_ expense: Expense, from original: CurrencyAmount, given: ExchangeRate?) throws(TallyError) -> Expense {
        let ledger = try ledgerCurrency()
        return try expense.converted(from: original, given: given, into: ledger) { (currency, day) throws(TallyError) in
            try tableRate(from: currency, to: ledger, on: day)
        }
    }

    /// What `rates reapply` does: every expense within `days` (all when `nil`) whose rate came
    /// from the table takes the table's rate on its day again; expenses given a rate are left.
    /// The changed expenses are saved as one write, so one change set (one undo) holds them.
    /// An expense changed since it was read is left as it now is.
    public func reapplyRates(in days: DayInterval?, dryRun: Bool) throws(TallyError) -> RateReapplication {
        let ledger = try ledgerCurrency()
        var tableExpenses: [Expense] = []
        try reading { (rows: any LedgerRows) throws(TallyError) in
            try rows.forEachExpense(ExpenseQuery(days: days)) { expense in
                if expense.foreign?.source == .table { tableExpenses.append(expense) }
            }
        }
        var latest: [Day: [DayRate]] = [:]
        var changes: [RateChange] = []
        for expense in tableExpenses {
            guard let charge = expense.foreign else { continue }
            let rows: [DayRate]
            if let known = latest[expense.date] { rows = known } else { rows = try rates(RateQuery(latestOnOrBefore: expense.date)) }
            latest[expense.date] = rows
            let rate = try RateLookup.rate(from: charge.original.currency, to: ledger, on: expense.date, in: rows)
            var after = expense
            after.foreign?.rate = rate
            after.amount = try ForeignCharge(original: charge.original, rate: rate, source: .table).amount(in: ledger)
            after = try after.withLinesFitted()
            if after != expense { changes.append(RateChange(before: expense, after: after)) }
        }
        guard !dryRun, !changes.isEmpty else { return RateReapplication(changes: changes, byBudget: try RateChange.byBudget(changes)) }
        let saved = try writing { (rows: any LedgerRows) throws(TallyError) -> [RateChange] in
            let current = try rows.expenses(ExpenseQuery(ids: changes.compactMap(\.before.id)))
            var byID: [Int64: Expense] = [:]
            for expense in current { byID[expense.id ?? 0] = expense }
            let kept = changes.filter { byID[$0.before.id ?? 0] == $0.before }
            _ = try rows.save(kept.map { change in
                var after = change.after
                after.updatedAt = rows.timestamp
                return after
            })
            return kept
        }
        return RateReapplication(changes: saved, byBudget: try RateChange.byBudget(saved))
    }
}
