import GRDB
import TallyCore

// The figures of a report over time: each budget's spending and what it had available per
// period, read from `budgetMonth` (the cache of `Budget.spent(in:of:)` per period that the
// triggers and bulk writers keep) and handed to Core's rules; proved equal to `InMemoryStore`,
// which computes them from the expenses, by the contract suite.
extension SQLiteStore {
    /// `UnitPriceFigures.byDay(matching:in:of:)` in SQL: the name matched on `nameKey` as
    /// `ExpenseQuery.search` is, summed per day without reading any expense into Swift.
    ///
    /// No index holds `nameKey`, so each expense the date index finds is looked up in the table,
    /// a B-tree descent each; over many days, reading the whole table in order costs less. Days
    /// covering a quarter or more of the ledger's dates read the table, in two halves by rowid on
    /// two cores at once (as a report reads its trend), the days of each half added together after.
    public func unitPrices(matching search: String, in days: DayInterval) throws(TallyError) -> [Day: UnitPriceFigures] {
        let key = NameKey.make(search)
        let rowids = try read { db -> ClosedRange<Int64>? in
            // One MIN or MAX per query reads one end of an index; several in one read it all.
            let bounds = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT MIN(date) FROM expense), (SELECT MAX(date) FROM expense),
                        (SELECT MIN(rowid) FROM expense), (SELECT MAX(rowid) FROM expense)
                    """)
            guard let bounds, let first = Day(storedNumber: bounds[0] ?? 0), let last = Day(storedNumber: bounds[1] ?? 0) else { return nil }
            let asked = min(days.last, last).ordinal - max(days.first, first).ordinal + 1
            guard asked * 4 >= last.ordinal - first.ordinal + 1, let low: Int64 = bounds[2], let high: Int64 = bounds[3] else { return nil }
            return low...high
        }
        guard let rowids else { return try read { db in try Self.unitPrices(key, in: days, rowids: nil, db) } }
        let middle = rowids.lowerBound + (rowids.upperBound - rowids.lowerBound) / 2
        let secondHalf = BackgroundRead { () throws(TallyError) in
            try self.read { db in try Self.unitPrices(key, in: days, rowids: (middle + 1)...rowids.upperBound, db) }
        }
        var figures = try read { db in try Self.unitPrices(key, in: days, rowids: rowids.lowerBound...middle, db) }
        for (day, more) in try secondHalf.value() {
            figures[day] = try figures[day].map { (own: UnitPriceFigures) throws(TallyError) in try own.adding(more) } ?? more
        }
        return figures
    }

    /// The figures per day of expenses whose name key contains `key`; through the date index,
    /// or reading the table's `rowids`.
    private static func unitPrices(_ key: String, in days: DayInterval, rowids: ClosedRange<Int64>?, _ db: Database) throws -> [Day: UnitPriceFigures] {
        var arguments: StatementArguments = [days.first.storedNumber, days.last.storedNumber, key]
        if let rowids { arguments += [rowids.lowerBound, rowids.upperBound] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT date, SUM(amountCents * quantity), SUM(quantity), MIN(amountCents), MAX(amountCents), COUNT(*)
                FROM expense \(rowids == nil ? "" : "NOT INDEXED") WHERE date BETWEEN ? AND ? AND instr(nameKey, ?) > 0
                \(rowids == nil ? "" : "AND rowid BETWEEN ? AND ?") GROUP BY date
                """,
            arguments: arguments)
        var figures: [Day: UnitPriceFigures] = [:]
        while let row = try rows.next() {
            let number: Int64 = row[0]
            guard let day = Day(storedNumber: number) else { throw TallyError.storage("an expense has an invalid date \(number)") }
            figures[day] = UnitPriceFigures(
                total: Money(cents: row[1]), quantity: row[2], lowest: Money(cents: row[3]), highest: Money(cents: row[4]),
                expenseCount: row[5])
        }
        return figures
    }

    /// `Spending.byMonth(in:budgets:of:calendar:)` from `budgetMonth`, whose rows are each
    /// budget's spending within a period's own days; `nil` when a row holds a REAL, the mark of
    /// a sum that overflowed (see `Schema.v3`), so the caller sums the expenses and reports it.
    static func cachedSpentByPeriod(in months: ClosedRange<Month>, budgets: [Budget], _ db: Database) throws -> [Month: [Int64: Money]]? {
        let known = Set(budgets.compactMap(\.id))
        var spent: [Month: [Int64: Money]] = [:]
        for month in Spending.months(in: months) { spent[month] = [:] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT budgetId, month, spentCents FROM budgetMonth
                WHERE expenseCount > 0 AND month BETWEEN ? AND ?
                """),
            arguments: [months.lowerBound.storedNumber, months.upperBound.storedNumber])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            guard known.contains(id) else { continue }
            let stored: DatabaseValue = row[2]
            guard case .int64(let cents) = stored.storage else { return nil }
            spent[try Month(storedNumber: row[1])]?[id] = Money(cents: cents)
        }
        return spent
    }
}
