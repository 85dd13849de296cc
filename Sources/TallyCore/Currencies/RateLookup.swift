/// The rule for which rate an expense takes, written once over the rows a store hands in.
///
/// The latest row on or before the expense's day (a weekend takes Friday's), for the pair:
/// 1. `from → to` as recorded;
/// 2. else `to → from` inverted (1 / rate, rounded half-even to 12 decimals);
/// 3. else through a third currency recorded against both (the ECB file's EUR): each leg its own
///    latest row on or before the day, the legs combined exactly and rounded once, half-even to 12
///    decimals. The third currency is EUR when it can serve, else the first by code.
/// No rate is ``ForeignMoneyProblem/missingRate(from:to:day:)``, never 1:1.
public enum RateLookup {
    /// The rate for `from → to` on `day` among `rows` (any order; rows after `day` are ignored).
    public static func rate(from: Currency, to: Currency, on day: Day, in rows: [DayRate]) throws(TallyError) -> ExchangeRate {
        if from == to { return try ExchangeRate(mantissa: 1, scale: 0) }
        var latest: [Pair: DayRate] = [:]
        for row in rows where row.day <= day {
            let pair = Pair(from: row.from.code, to: row.to.code)
            if let known = latest[pair], known.day >= row.day { continue }
            latest[pair] = row
        }
        if let direct = latest[Pair(from: from.code, to: to.code)] { return direct.rate }
        if let inverse = latest[Pair(from: to.code, to: from.code)] { return try inverse.rate.inverted() }
        var bases = Set<String>()
        for pair in latest.keys { bases.insert(pair.from); bases.insert(pair.to) }
        bases.remove(from.code)
        bases.remove(to.code)
        for base in bases.sorted(by: { ($0 == "EUR" ? "" : $0) < ($1 == "EUR" ? "" : $1) }) {
            if let rate = try cross(from: from.code, to: to.code, through: base, latest) { return rate }
        }
        throw .foreignMoney(.missingRate(from: from.code, to: to.code, day: day))
    }

    /// `from → base → to` for the three shapes that combine with one rounding.
    static func cross(from: String, to: String, through base: String, _ latest: [Pair: DayRate]) throws(TallyError) -> ExchangeRate? {
        // base → from and base → to (the ECB's "units per EUR"): to/from.
        if let a = latest[Pair(from: base, to: from)], let b = latest[Pair(from: base, to: to)] {
            return try ExchangeRate.quotient(b.rate, by: a.rate)
        }
        // from → base and to → base: from/to.
        if let a = latest[Pair(from: from, to: base)], let b = latest[Pair(from: to, to: base)] {
            return try ExchangeRate.quotient(a.rate, by: b.rate)
        }
        // from → base → to.
        if let a = latest[Pair(from: from, to: base)], let b = latest[Pair(from: base, to: to)] {
            return try ExchangeRate.product(a.rate, b.rate)
        }
        return nil
    }

    struct Pair: Hashable, Sendable {
        var from: String
        var to: String
    }
}

extension DayInterval {
    /// From `first` (the year 1 when `nil`) to `last` (the year 9999 when `nil`): a range open on a side.
    public static func from(_ first: Day?, to last: Day?) -> DayInterval {
        DayInterval(first: first ?? Day(unchecked: 1, 1, 1), last: last ?? Day(unchecked: 9999, 12, 31))
    }
}
