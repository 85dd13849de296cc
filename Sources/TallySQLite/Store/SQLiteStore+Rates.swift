import Foundation
import GRDB
import TallyCore

// MARK: - The rate table (`Schema.v20ForeignAmounts`)

extension SQLiteStore {
    public func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] {
        var clauses: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let currency = query.currency {
            clauses.append("(fromCurrency = ? OR toCurrency = ?)")
            arguments += [currency.code, currency.code]
        }
        if let days = query.days {
            clauses.append("day BETWEEN ? AND ?")
            arguments += [days.first.storedNumber, days.last.storedNumber]
        }
        if let latest = query.latestOnOrBefore {
            clauses.append("day <= ?")
            arguments.append(latest.storedNumber)
        }
        let condition = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        // SQLite gives the bare columns of the row holding MAX(day) in each group.
        let sql =
            query.latestOnOrBefore == nil
            ? "SELECT day, fromCurrency, toCurrency, rate FROM rate \(condition) ORDER BY day, fromCurrency, toCurrency"
            : "SELECT MAX(day), fromCurrency, toCurrency, rate FROM rate \(condition) GROUP BY fromCurrency, toCurrency"
        return try read { db in try Self.rateRows(db, sql, StatementArguments(arguments)) }
    }

    public func saveRates(_ produce: (_ save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Void) throws(TallyError) {
        try write { db in
            try produce { (rates: [DayRate]) throws(TallyError) in
                do {
                    try Self.insertRates(rates, db)
                } catch {
                    throw Self.storageError(error)
                }
            }
        }
    }

    /// Saves `rates` inside the caller's transaction, each replacing its day and pair's row.
    static func insertRates(_ rates: [DayRate], _ db: Database) throws {
        guard !rates.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO rate (fromCurrency, toCurrency, day, rate) VALUES (?, ?, ?, ?)")
        for rate in rates {
            try statement.execute(arguments: [rate.from.code, rate.to.code, rate.day.storedNumber, rate.rate.plainString])
        }
    }

    private static func rateRows(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [DayRate] {
        var result: [DayRate] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            let number: Int64 = row[0]
            let text: String = row[3]
            guard let day = Day(storedNumber: number), let rate = try? ExchangeRate(parsing: text) else {
                throw TallyError.storage("the rate table has an invalid row on \(number): \(text)")
            }
            result.append(DayRate(day: day, from: Currency(storedCode: row[1]), to: Currency(storedCode: row[2]), rate: rate))
        }
        return result
    }
}
