import GRDB
import GRDBSQLite
import TallyCore

// The month report's figures read from `expenseDay` (`Schema.v12ExpenseDays`), the cache of each
// day's spending per budget, tag set and person: a month is a few hundred of its rows instead of
// every expense of the month in the covering index. Each reader falls back to the expenses when a
// cached sum overflowed (a REAL) or a bound does not answer, and the contract suite proves both
// equal to Core's rules.
extension SQLiteStore {
    /// `DaySpending.grouping(_:in:)` read from the cache: its rows within `days`, stepped through
    /// SQLite's C API (a month of a split ledger is thousands of them), each tag set's tags read
    /// and sorted once, each person's name made once. When a cached sum overflowed (a REAL) it
    /// groups the covering index in its order instead, whose `SUM` reports the overflow.
    static func daySpending(in days: DayInterval, _ db: Database) throws -> PeriodSpending {
        let statement = try RawStatement(db, """
            SELECT budgetId, date, tagSetId, spentBy, spentCents, expenseCount FROM expenseDay WHERE date BETWEEN ?1 AND ?2
            """)
        statement.bind(1, days.first.storedNumber)
        statement.bind(2, days.last.storedNumber)
        var groups: [DaySpending] = []
        var tagSetIDs: [Int64] = []
        var people: [String] = []
        var last: (number: Int64, day: Day)?
        var failure: (any Error)?
        try statement.forEachRow { row in
            guard failure == nil else { return }
            guard sqlite3_column_type(row, 4) == SQLITE_INTEGER else {
                failure = TallyError.arithmeticOverflow
                return
            }
            let number = sqlite3_column_int64(row, 1)
            let day: Day
            if let last, last.number == number {
                day = last.day
            } else {
                do { day = try Self.day(number) } catch {
                    failure = error
                    return
                }
                last = (number, day)
            }
            groups.append(DaySpending(
                day: day, budgetID: sqlite3_column_int64(row, 0), tags: [], by: person(row, 3, &people),
                spent: Money(cents: sqlite3_column_int64(row, 4)), count: Int(sqlite3_column_int64(row, 5))))
            tagSetIDs.append(sqlite3_column_int64(row, 2))
        }
        if let failure {
            guard case TallyError.arithmeticOverflow = failure else { throw failure }
            return try summedDaySpending(in: days, db)
        }
        try Self.setTags(of: &groups, tagSetIDs: tagSetIDs, db)
        return PeriodSpending(groups: groups, byCurrency: try spendingByCurrency(in: days, db))
    }

    /// Who spent it, as text: one of `people` when its bytes are (a ledger has a handful).
    private static func person(_ row: OpaquePointer, _ column: Int32, _ people: inout [String]) -> String {
        let count = Int(sqlite3_column_bytes(row, column))
        guard count > 0, let bytes = sqlite3_column_text(row, column) else { return "" }
        let text = UnsafeBufferPointer(start: bytes, count: count)
        if let known = people.first(where: { $0.utf8.elementsEqual(text) }) { return known }
        let made = String(decoding: text, as: UTF8.self)
        people.append(made)
        return made
    }

    /// Gives each group the sorted tags of its tag set (`expenseDay` keeps 0 for none), each set
    /// read and sorted once.
    private static func setTags(of groups: inout [DaySpending], tagSetIDs: [Int64], _ db: Database) throws {
        var sorted = try Self.tags(ofSets: Array(Set(tagSetIDs.filter { $0 != 0 })), db).mapValues { $0.sorted() }
        sorted[0] = []
        for index in groups.indices where tagSetIDs[index] != 0 {
            groups[index].tags = sorted[tagSetIDs[index]] ?? []
        }
    }

    /// `daySpending(in:_:)` from the covering index in its order, whose `SUM` reports an overflow.
    private static func summedDaySpending(in days: DayInterval, _ db: Database) throws -> PeriodSpending {
        var groups: [DaySpending] = []
        var tagSetIDs: [Int64] = []
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT budgetId, date, ifnull(tagSetId, 0), spentBy, SUM(amountCents * quantity), COUNT(*)
                FROM expense WHERE date BETWEEN ? AND ? GROUP BY date, budgetId, tagSetId, spentBy
                """,
            arguments: [days.first.storedNumber, days.last.storedNumber])
        while let row = try rows.next() {
            groups.append(DaySpending(day: try day(row[1]), budgetID: row[0], tags: [], by: row[3], spent: Money(cents: row[4]), count: row[5]))
            tagSetIDs.append(row[2])
        }
        try Self.setTags(of: &groups, tagSetIDs: tagSetIDs, db)
        return PeriodSpending(groups: groups, byCurrency: try spendingByCurrency(in: days, db))
    }

    /// `CurrencySpending.totals(_:)` of the expenses in other currencies within `days`, found
    /// through the partial index `expense_foreign`, which covers what is summed (a few thousand
    /// rows a month of a million-row ledger, instead of reading each as an `Expense`). They are
    /// summed as they are stepped, through SQLite's C API, per currency (a handful): a `GROUP BY`
    /// sorted them first, which was most of the read. A product or sum past Int64 (a REAL, or an
    /// overflow here) is ``TallyError/arithmeticOverflow``.
    static func spendingByCurrency(in days: DayInterval, _ db: Database) throws -> [CurrencySpending] {
        let statement = try RawStatement(db, """
            SELECT originalCurrency, originalMinor * quantity, amountCents * quantity
            FROM expense INDEXED BY expense_foreign WHERE date BETWEEN ?1 AND ?2 AND originalCurrency IS NOT NULL
            """)
        statement.bind(1, days.first.storedNumber)
        statement.bind(2, days.last.storedNumber)
        var totals: [(code: String, minor: Int64, cents: Int64, count: Int)] = []
        var overflowed = false
        try statement.forEachRow { row in
            guard !overflowed else { return }
            guard sqlite3_column_type(row, 1) == SQLITE_INTEGER, sqlite3_column_type(row, 2) == SQLITE_INTEGER else {
                overflowed = true
                return
            }
            let code = RawStatement.text(row, 0)
            let index: Int
            if let known = totals.firstIndex(where: { $0.code.utf8.elementsEqual(code.utf8) }) {
                index = known
            } else {
                index = totals.count
                totals.append((code, 0, 0, 0))
            }
            let (minor, overflow1) = totals[index].minor.addingReportingOverflow(sqlite3_column_int64(row, 1))
            let (cents, overflow2) = totals[index].cents.addingReportingOverflow(sqlite3_column_int64(row, 2))
            totals[index].minor = minor
            totals[index].cents = cents
            totals[index].count += 1
            if overflow1 || overflow2 { overflowed = true }
        }
        guard !overflowed else { throw TallyError.arithmeticOverflow }
        // By their bytes, as `ORDER BY originalCurrency` had them.
        return totals.sorted { $0.code.utf8.lexicographicallyPrecedes($1.code.utf8) }.map { total in
            CurrencySpending(
                original: CurrencyAmount(minorUnits: total.minor, currency: Currency(storedCode: total.code)), converted: Money(cents: total.cents),
                expenseCount: total.count)
        }
    }

    /// The ids of the `limit` largest expenses by total (ties by the highest id), within `days`
    /// and one budget or all (an expense with a portion in it: its own, a split's line, a
    /// refund), or `nil` when the cache cannot bound them. Each group's largest is at least the
    /// total of every expense with a portion in it (`Schema.v25ReportBounds`), so every expense
    /// whose total reaches the `limit`-th largest of them, `bound`, is a plain row of a group that
    /// reaches it, or a split or refunded row (`expense_detail`, from `bound` on) on the day of
    /// one. When `limit` of them reach it, they hold the answer; fewer (after removals of a
    /// group's largest, whose bound stays) leave it to the plain read. A month's ten largest then
    /// come from a few groups instead of every expense of the month.
    static func largestExpenseIDs(in days: DayInterval, budgetID: Int64?, limit: Int, _ db: Database) throws -> [Int64]? {
        guard limit > 0 else { return nil }
        var groupFilter = "g.date BETWEEN ? AND ?"
        var arguments: StatementArguments = [days.first.storedNumber, days.last.storedNumber]
        // A split row is in a budget when one of its lines is (as `Filter` and `Expense.counts(in:)`
        // have it; its `budgetId` is its first line's), a refund by its own `budgetId`.
        var inBudget = ""
        var budgetArguments: StatementArguments = []
        if let budgetID {
            groupFilter += " AND g.budgetId = ?"
            arguments += [budgetID]
            inBudget = "AND (s.budgetId = ? OR instr(char(30) || s.detail, char(30) || ? || char(29)) > 0)"
            budgetArguments = [budgetID, String(budgetID)]
        }
        // Cached: why over asks for each flagged budget's largest in turn.
        let bounds = try DatabaseValue.fetchAll(
            db.cachedStatement(sql: "SELECT g.largestCents FROM expenseDay g WHERE \(groupFilter) ORDER BY g.largestCents DESC LIMIT ?"),
            arguments: arguments + [limit])
        // Fewer groups than asked for bound nothing; a REAL marks a total that overflowed.
        guard bounds.count == limit, let last = bounds.last, case .int64(let bound) = last.storage else { return nil }
        // The groups that reach the bound, found once for both halves.
        let ids = try Int64.fetchAll(
            db.cachedStatement(sql: """
                WITH reached AS MATERIALIZED (SELECT g.date, g.budgetId, g.tagSetId, g.spentBy FROM expenseDay g WHERE \(groupFilter) AND g.largestCents >= ?)
                SELECT e.id, e.amountCents * e.quantity FROM reached g
                JOIN expense e ON e.date = g.date AND e.budgetId = g.budgetId AND e.tagSetId IS nullif(g.tagSetId, 0)
                    AND e.spentBy = g.spentBy
                WHERE e.amountCents * e.quantity >= ?
                UNION
                SELECT s.id, s.amountCents * s.quantity FROM expense s INDEXED BY expense_detail
                WHERE s.detail <> '' AND s.date IN (SELECT date FROM reached) AND s.amountCents * s.quantity >= ? \(inBudget)
                ORDER BY 2 DESC, 1 DESC LIMIT ?
                """),
            arguments: arguments + [bound, bound, bound] + budgetArguments + [limit])
        return ids.count == limit ? ids : nil
    }

    /// Rows of `expenseDay` whose sum or count differ from their portions', or whose largest is
    /// below the total of an expense with a portion in the group, as text.
    static func expenseDayMismatches(_ db: Database) throws -> [String] {
        let stored = "SELECT date, budgetId, tagSetId, spentBy, spentCents, expenseCount FROM expenseDay"
        let summed = "SELECT date, budgetId, ifnull(tagSetId, 0), spentBy, SUM(cents), COUNT(*) FROM portion GROUP BY 1, 2, 3, 4"
        let unbounded = """
            SELECT d.date, d.budgetId, d.tagSetId, d.spentBy, d.largestCents, 'below', MAX(e.receiptCents)
            FROM expenseDay d JOIN portion e ON e.date = d.date AND e.budgetId = d.budgetId AND e.tagSetId IS nullif(d.tagSetId, 0)
                AND e.spentBy = d.spentBy
            GROUP BY d.date, d.budgetId, d.tagSetId, d.spentBy HAVING d.largestCents < MAX(e.receiptCents)
            """
        return try Row.fetchAll(db, sql: "\(stored) EXCEPT \(summed) UNION ALL SELECT * FROM (\(summed) EXCEPT \(stored))")
            .map(\.description) + Row.fetchAll(db, sql: unbounded).map(\.description)
    }
}
