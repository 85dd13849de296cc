import Foundation
import GRDB
import TallyCore

// MARK: - The rate table (`Schema.v20ForeignAmounts`)

extension SQLiteStore {
    /// ``LedgerRows/rates(_:)`` inside the caller's transaction.
    static func rates(_ query: RateQuery, _ db: Database) throws -> [DayRate] {
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
        return try rateRows(db, sql, StatementArguments(arguments))
    }

    public func saveRates(_ produce: (_ save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Void) throws(TallyError) {
        try recordedWrite { db, content in
            var images = RateImages()
            try produce { (rates: [DayRate]) throws(TallyError) in
                do {
                    try Self.insertRates(rates, recording: &images, db)
                } catch {
                    throw Self.storageError(error)
                }
            }
            if !images.isEmpty { content.rates = images }
        }
    }

    /// Saves `rates` inside the caller's transaction, each replacing its day and pair's row, and
    /// adds what each replaced to `images` for the history.
    static func insertRates(_ rates: [DayRate], recording images: inout RateImages, _ db: Database) throws {
        guard !rates.isEmpty else { return }
        let existing = try db.cachedStatement(sql: "SELECT rate FROM rate WHERE fromCurrency = ? AND toCurrency = ? AND day = ?")
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO rate (fromCurrency, toCurrency, day, rate) VALUES (?, ?, ?, ?)")
        for rate in rates {
            let arguments: StatementArguments = [rate.from.code, rate.to.code, rate.day.storedNumber]
            let before = try String.fetchOne(existing, arguments: arguments).map { text in
                var row = rate
                row.rate = try ExchangeRate(parsing: text)
                return row
            }
            guard before != rate else { continue }
            images.record(saving: rate, over: before)
            try statement.execute(arguments: arguments + [rate.rate.plainString])
        }
    }

    /// Undo's and redo's step: deletes every row `images` touched, then saves its `after` rows.
    static func applyRates(_ images: RateImages, _ db: Database) throws {
        let delete = try db.cachedStatement(sql: "DELETE FROM rate WHERE fromCurrency = ? AND toCurrency = ? AND day = ?")
        for rate in images.removals { try delete.execute(arguments: [rate.from.code, rate.to.code, rate.day.storedNumber]) }
        var ignored = RateImages()
        try insertRates(images.after, recording: &ignored, db)
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
