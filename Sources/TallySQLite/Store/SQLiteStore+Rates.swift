import Foundation
import GRDB
import GRDBSQLite
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
    /// A batch goes in ordered by the primary key, so the B-tree takes each pair's rows side by
    /// side instead of a row in every pair's pages in turn (the ECB's file is day by day), and
    /// bound straight to SQLite (``RawStatement``): a history is some 200,000 rows.
    static func insertRates(_ rates: [DayRate], _ db: Database) throws {
        guard !rates.isEmpty else { return }
        // Sorted by integers (the two codes' bytes packed, the day, the position): comparing
        // the codes as Strings costs more than the B-tree saves. The position breaks ties: of
        // two rows for one day and pair, the file's later one stays.
        func packed(_ code: String) -> UInt64 { code.utf8.reduce(0) { $0 << 8 | UInt64($1) } }
        var order: [(pair: UInt64, day: Int64, offset: Int)] = []
        order.reserveCapacity(rates.count)
        for (offset, rate) in rates.enumerated() {
            order.append((packed(rate.from.code) << 32 | packed(rate.to.code), rate.day.storedNumber, offset))
        }
        order.sort { a, b in a.pair != b.pair ? a.pair < b.pair : a.day != b.day ? a.day < b.day : a.offset < b.offset }
        let statement = try RawStatement(db, "INSERT OR REPLACE INTO rate (fromCurrency, toCurrency, day, rate) VALUES (?, ?, ?, ?)")
        for entry in order {
            let rate = rates[entry.offset]
            statement.bind(1, rate.from.code)
            statement.bind(2, rate.to.code)
            statement.bind(3, Int64(rate.day.storedNumber))
            statement.bind(4, rate.rate.plainString)
            try statement.step()
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
