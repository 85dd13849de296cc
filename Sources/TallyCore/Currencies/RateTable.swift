/// The rate table held in memory, for converting many expenses at once (an import): each pair's
/// rows ordered by day, so the rows ``RateLookup`` reads for a day are found by binary search
/// rather than a scan or a query per day. The rule itself stays ``RateLookup``'s.
public struct RateTable: Sendable {
    private var byPair: [RateLookup.Pair: [DayRate]] = [:]

    public init(_ rows: [DayRate]) {
        for row in rows { byPair[RateLookup.Pair(from: row.from.code, to: row.to.code), default: []].append(row) }
        for key in byPair.keys { byPair[key]?.sort { $0.day < $1.day } }
    }

    /// Each pair's latest row on or before `day`: what `RateQuery(latestOnOrBefore:)` reads.
    public func latest(onOrBefore day: Day) -> [DayRate] {
        var result: [DayRate] = []
        result.reserveCapacity(byPair.count)
        for rows in byPair.values {
            var low = 0
            var high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if rows[middle].day <= day { low = middle + 1 } else { high = middle }
            }
            if low > 0 { result.append(rows[low - 1]) }
        }
        return result
    }

    /// ``RateLookup/rate(from:to:on:in:)`` over this table.
    public func rate(from: Currency, to: Currency, on day: Day) throws(TallyError) -> ExchangeRate {
        try RateLookup.rate(from: from, to: to, on: day, in: latest(onOrBefore: day))
    }
}

/// Pairs a conversion of many expenses found no rate for, each with its days, so an import can
/// list them all at once (``ForeignMoneyProblem/missingRates(_:)``) instead of failing at the first.
public struct MissingRates: Hashable, Sendable {
    public struct Pair: Hashable, Sendable {
        public var from: String
        public var to: String
        /// Ascending, each once.
        public var days: [Day]
    }

    private var days: [RateLookup.Pair: Set<Day>] = [:]

    public init() {}

    public var isEmpty: Bool { days.isEmpty }

    public mutating func add(from: String, to: String, on day: Day) {
        days[RateLookup.Pair(from: from, to: to), default: []].insert(day)
    }

    /// The pairs by code, their days ascending.
    public var pairs: [Pair] {
        days.map { Pair(from: $0.key.from, to: $0.key.to, days: $0.value.sorted()) }.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }
}

extension MissingRates {
    /// Pairs and day runs shown before the rest is counted: the message stays one bounded line.
    static let shownPairs = 5
    static let shownRuns = 3

    /// `missing rates: JPY→EUR on 2026-03-01 to 2026-03-03, 2026-03-07; USD→EUR on 2026-03-04`,
    /// consecutive days as one run, at most ``shownRuns`` runs a pair and ``shownPairs`` pairs.
    static func describe(_ pairs: [Pair]) -> String {
        var parts: [String] = []
        for pair in pairs.prefix(shownPairs) {
            var runs: [(first: Day, last: Day)] = []
            for day in pair.days {
                if let last = runs.last?.last, day.ordinal == last.ordinal + 1 { runs[runs.count - 1].last = day } else { runs.append((day, day)) }
            }
            var shown = runs.prefix(shownRuns).map { $0.first == $0.last ? $0.first.isoString : "\($0.first.isoString) to \($0.last.isoString)" }
            let hiddenDays = runs.dropFirst(shownRuns).reduce(0) { $0 + $1.last.ordinal - $1.first.ordinal + 1 }
            if hiddenDays > 0 { shown.append("and \(hiddenDays) more day\(hiddenDays == 1 ? "" : "s")") }
            parts.append("\(pair.from)→\(pair.to) on \(shown.joined(separator: ", "))")
        }
        if pairs.count > shownPairs { parts.append("and \(pairs.count - shownPairs) more pair\(pairs.count - shownPairs == 1 ? "" : "s")") }
        return "missing rates: " + parts.joined(separator: "; ")
    }
}
