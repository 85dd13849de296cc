import Foundation
import PostgresNIO
import TallyCore

// MARK: - The rate table (`v13-foreign-amounts`)

extension PostgresStore {
    /// ``LedgerRows/rates(_:)`` inside the caller's transaction.
    func loadRates(_ query: RateQuery) throws(TallyError) -> [DayRate] {
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
        return try rateRows(sql, binds)
    }

    /// Saves `rates`, each replacing its day and pair's row, and adds what each replaced to
    /// `images` for the history: the rows of a batch's keys are read in one query before it.
    func insertRates(_ rates: [DayRate], recording images: inout RateImages) throws(TallyError) {
        let perStatement = 1_000
        for start in stride(from: 0, to: rates.count, by: perStatement) {
            let batch = rates[start..<min(start + perStatement, rates.count)]
            var existing: [RowKey: DayRate] = [:]
            for rate in try rateRows(
                """
                SELECT r.day, r.fromCurrency, r.toCurrency, r.rate FROM rate r
                JOIN unnest($1::TEXT[], $2::TEXT[], $3::BIGINT[]) AS k(f, t, d) ON r.fromCurrency = k.f AND r.toCurrency = k.t AND r.day = k.d
                """, [.texts(batch.map(\.from.code)), .texts(batch.map(\.to.code)), .ints(batch.map(\.day.stored))])
            {
                existing[rate.key] = rate
            }
            var binds: [SQLValue] = []
            var values: [String] = []
            for rate in batch where existing[rate.key] != rate {
                images.record(saving: rate, over: existing[rate.key])
                let base = binds.count
                values.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4))")
                binds += [.text(rate.from.code), .text(rate.to.code), .int(rate.day.stored), .text(rate.rate.plainString)]
            }
            guard !values.isEmpty else { continue }
            try session.query(
                "INSERT INTO rate (fromCurrency, toCurrency, day, rate) VALUES \(values.joined(separator: ", ")) "
                    + "ON CONFLICT (fromCurrency, toCurrency, day) DO UPDATE SET rate = excluded.rate",
                binds)
        }
    }

    /// Deletes the rows of `rates`' days and pairs, adding each row deleted to `images.before`
    /// for the history.
    func deleteRates(_ rates: [DayRate], recording images: inout RateImages) throws(TallyError) {
        guard !rates.isEmpty else { return }
        images.before += try rateRows(
            """
            DELETE FROM rate r USING unnest($1::TEXT[], $2::TEXT[], $3::BIGINT[]) AS k(f, t, d)
            WHERE r.fromCurrency = k.f AND r.toCurrency = k.t AND r.day = k.d RETURNING r.day, r.fromCurrency, r.toCurrency, r.rate
            """, [.texts(rates.map(\.from.code)), .texts(rates.map(\.to.code)), .ints(rates.map(\.day.stored))])
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
