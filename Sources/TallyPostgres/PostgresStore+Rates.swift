import Foundation
import PostgresNIO
import TallyCore

// MARK: - The rate table (`v13-foreign-amounts`)

extension PostgresStore {
    public func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let currency = query.currency {
            binds.append(.text(currency.code))
            conditions.append("(fromCurrency = $\(binds.count) OR toCurrency = $\(binds.count))")
        }
        if let days = query.days {
            binds += [.int(days.first.stored), .int(days.last.stored)]
            conditions.append("day BETWEEN $\(binds.count - 1) AND $\(binds.count)")
        }
        if let latest = query.latestOnOrBefore {
            binds.append(.int(latest.stored))
            conditions.append("day <= $\(binds.count)")
        }
        let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql =
            query.latestOnOrBefore == nil
            ? "SELECT day, fromCurrency, toCurrency, rate FROM rate \(condition) ORDER BY day, fromCurrency COLLATE \"C\", toCurrency COLLATE \"C\""
            : "SELECT DISTINCT ON (fromCurrency, toCurrency) day, fromCurrency, toCurrency, rate FROM rate \(condition) ORDER BY fromCurrency, toCurrency, day DESC"
        return try read { () throws(TallyError) in try rateRows(sql, binds) }
    }

    public func saveRates(_ produce: (_ save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Void) throws(TallyError) {
        try write { () throws(TallyError) in try produce { (rates: [DayRate]) throws(TallyError) in try insertRates(rates) } }
    }

    func insertRates(_ rates: [DayRate]) throws(TallyError) {
        let perStatement = 1_000
        for start in stride(from: 0, to: rates.count, by: perStatement) {
            var binds: [SQLValue] = []
            var values: [String] = []
            for rate in rates[start..<min(start + perStatement, rates.count)] {
                let base = binds.count
                values.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4))")
                binds += [.text(rate.from.code), .text(rate.to.code), .int(rate.day.stored), .text(rate.rate.plainString)]
            }
            try session.query(
                "INSERT INTO rate (fromCurrency, toCurrency, day, rate) VALUES \(values.joined(separator: ", ")) "
                    + "ON CONFLICT (fromCurrency, toCurrency, day) DO UPDATE SET rate = excluded.rate",
                binds)
        }
    }

    private func rateRows(_ sql: String, _ binds: [SQLValue]) throws(TallyError) -> [DayRate] {
        var result: [DayRate] = []
        for row in try session.query(sql, binds) {
            result.append(
                DayRate(
                    day: try Day(stored: try row.int(0)), from: Currency(storedCode: try row.string(1)), to: Currency(storedCode: try row.string(2)),
                    rate: try ExchangeRate(parsing: try row.string(3))))
        }
        return result
    }
}
