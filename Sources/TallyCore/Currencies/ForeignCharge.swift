/// Where an expense's rate came from: the ledger's rate table (recomputed by `rates reapply`)
/// or given with the expense, as the card charged it (never recomputed).
public enum RateSource: String, Hashable, Sendable, Codable, CaseIterable {
    case table, given
}

/// What an expense in another currency keeps beside its ``Expense/amount`` (the ledger-currency
/// figure every budget sum uses): the original amount, the rate used (ledger units per one
/// foreign unit) and where the rate came from.
public struct ForeignCharge: Hashable, Sendable, Codable {
    public var original: CurrencyAmount
    public var rate: ExchangeRate
    public var source: RateSource

    public init(original: CurrencyAmount, rate: ExchangeRate, source: RateSource) {
        self.original = original
        self.rate = rate
        self.source = source
    }

    /// The ledger-currency amount: ``ExchangeRate/convert(_:into:)``, rounded half-even.
    public func amount(in ledger: Currency) throws(TallyError) -> Money {
        try rate.convert(original, into: ledger)
    }
}

/// One row of the rate table: on `day`, one unit of `from` was worth `rate` units of `to`.
public struct DayRate: Hashable, Sendable, Codable {
    public var day: Day
    public var from: Currency
    public var to: Currency
    public var rate: ExchangeRate

    public init(day: Day, from: Currency, to: Currency, rate: ExchangeRate) {
        self.day = day
        self.from = from
        self.to = to
        self.rate = rate
    }

    /// Refuses rows the table cannot hold: a rate from a currency to itself. Every store checks
    /// the rows it is handed to save with it, so none ends in a storage error or, in memory, is kept.
    public static func check(_ rates: [DayRate]) throws(TallyError) {
        if let same = rates.first(where: { $0.from == $0.to }) { throw .foreignMoney(.ratePairOfOne(same.from.code)) }
    }
}

/// Which rates to read: a currency on either side, days from … to (what `rates list` shows),
/// or for each pair only its latest row on or before a day (what ``RateLookup`` needs).
public struct RateQuery: Hashable, Sendable {
    public var currency: Currency?
    public var days: DayInterval?
    /// Each pair's latest row on or before this day, instead of every row.
    public var latestOnOrBefore: Day?

    public init(currency: Currency? = nil, days: DayInterval? = nil, latestOnOrBefore: Day? = nil) {
        self.currency = currency
        self.days = days
        self.latestOnOrBefore = latestOnOrBefore
    }
}
