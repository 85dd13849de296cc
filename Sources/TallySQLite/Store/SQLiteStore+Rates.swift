import Foundation
import GRDB
import GRDBSQLite
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

    /// Saves `rates` inside the caller's transaction, each replacing its day and pair's row, and
    /// adds what each replaced to `images` for the history (a row saved unchanged is skipped).
    /// A batch goes in ordered by the primary key, so the B-tree takes each pair's rows side by
    /// side instead of a row in every pair's pages in turn (the ECB's file is day by day), and
    /// bound straight to SQLite (``RawStatement``): a history is some 200,000 rows. The rows a
    /// row replaces are looked up only for pairs the table already holds in the batch's days:
    /// a first import of a history looks up none.
    static func insertRates(_ rates: [DayRate], recording images: inout RateImages, _ db: Database) throws {
        guard !rates.isEmpty else { return }
        // Sorted by integers (the two codes' bytes packed, the day, the position): comparing
        // the codes as Strings costs more than the B-tree saves. The position breaks ties: of
        // two rows for one day and pair, the file's later one stays.
        func packed(_ code: String) -> UInt64 { code.utf8.reduce(0) { $0 << 8 | UInt64($1) } }
        var order: [(pair: UInt64, day: Int64, offset: Int)] = []
        order.reserveCapacity(rates.count)
        var days: [UInt64: (first: Int64, last: Int64, offset: Int)] = [:]
        for (offset, rate) in rates.enumerated() {
            let pair = packed(rate.from.code) << 32 | packed(rate.to.code)
            let day = rate.day.storedNumber
            order.append((pair, day, offset))
            let known = days[pair] ?? (day, day, offset)
            days[pair] = (min(known.first, day), max(known.last, day), known.offset)
        }
        order.sort { a, b in a.pair != b.pair ? a.pair < b.pair : a.day != b.day ? a.day < b.day : a.offset < b.offset }
        var heldPairs = Set<UInt64>()
        let holds = try db.cachedStatement(
            sql: "SELECT EXISTS (SELECT 1 FROM rate WHERE fromCurrency = ? AND toCurrency = ? AND day BETWEEN ? AND ?)")
        for (pair, range) in days {
            let rate = rates[range.offset]
            if try Bool.fetchOne(holds, arguments: [rate.from.code, rate.to.code, range.first, range.last]) ?? false { heldPairs.insert(pair) }
        }
        let existing = try RawStatement(db, "SELECT rate FROM rate WHERE fromCurrency = ? AND toCurrency = ? AND day = ?")
        let statement = try RawStatement(db, "INSERT OR REPLACE INTO rate (fromCurrency, toCurrency, day, rate) VALUES (?, ?, ?, ?)")
        for entry in order {
            let rate = rates[entry.offset]
            var before: DayRate?
            if heldPairs.contains(entry.pair) {
                existing.bind(1, rate.from.code)
                existing.bind(2, rate.to.code)
                existing.bind(3, Int64(entry.day))
                var text: String?
                try existing.forEachRow { row in text = RawStatement.text(row, 0) }
                if let text {
                    var row = rate
                    row.rate = try ExchangeRate(parsing: text)
                    before = row
                }
            }
            guard before != rate else { continue }
            images.record(saving: rate, over: before)
            statement.bindTerminated(1, rate.from.code)
            statement.bindTerminated(2, rate.to.code)
            statement.bind(3, Int64(entry.day))
            statement.bindTerminated(4, rate.rate.plainString)
            try statement.step()
        }
    }

    /// Deletes the rows of `rates`' days and pairs inside the caller's transaction, adding each
    /// row deleted to `images.before` for the history.
    static func deleteRates(_ rates: [DayRate], recording images: inout RateImages, _ db: Database) throws {
        guard !rates.isEmpty else { return }
        let existing = try db.cachedStatement(sql: "SELECT rate FROM rate WHERE fromCurrency = ? AND toCurrency = ? AND day = ?")
        let delete = try db.cachedStatement(sql: "DELETE FROM rate WHERE fromCurrency = ? AND toCurrency = ? AND day = ?")
        for rate in rates {
            let arguments: StatementArguments = [rate.from.code, rate.to.code, rate.day.storedNumber]
            guard let text = try String.fetchOne(existing, arguments: arguments) else { continue }
            var row = rate
            row.rate = try ExchangeRate(parsing: text)
            images.before.append(row)
            try delete.execute(arguments: arguments)
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
