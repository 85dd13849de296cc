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
    /// come from a few groups instead of every expense of the month. The groups are read once,
    /// their bound and the groups reaching it found as they are stepped (a split's lines each
    /// make a group: thousands a month), and the rows sorted here.
    static func largestExpenseIDs(in days: DayInterval, budgetID: Int64?, limit: Int, _ db: Database) throws -> [Int64]? {
        guard limit > 0, let reached = try groupsReachingBound(in: days, budgetID: budgetID, limit: limit, db) else { return nil }
        var found: [(id: Int64, total: Int64)] = []
        // The total is compared before the person: most rows of a group reached through a split's
        // line fall short of the bound, and an integer test costs less than a text one.
        let plain = try RawStatement(cached: db, """
            SELECT id, amountCents * quantity FROM expense
            WHERE date = ?1 AND budgetId = ?2 AND tagSetId IS ?3 AND amountCents * quantity >= ?5 AND spentBy = ?4
            """)
        plain.bind(5, reached.bound)
        var dates: [Int64] = []
        for group in reached.groups {
            plain.bind(1, group.date)
            plain.bind(2, group.budgetID)
            // `expenseDay` keeps 0 for no tag set.
            if group.tagSetID == 0 { plain.bindNull(3) } else { plain.bind(3, group.tagSetID) }
            plain.bind(4, group.by)
            try plain.forEachRow { row in found.append((sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1))) }
            if dates.last != group.date { dates.append(group.date) }
        }
        // A split row is in a budget when one of its lines is (as `Filter` and `Expense.counts(in:)`
        // have it; its `budgetId` is its first line's), a refund by its own `budgetId`.
        let inBudget = budgetID == nil ? "" : "AND (budgetId = ?3 OR instr(char(30) || detail, char(30) || ?4 || char(29)) > 0)"
        let detailed = try RawStatement(cached: db, """
            SELECT id, amountCents * quantity FROM expense INDEXED BY expense_detail
            WHERE detail <> '' AND date = ?1 AND amountCents * quantity >= ?2 \(inBudget)
            """)
        detailed.bind(2, reached.bound)
        if let budgetID {
            detailed.bind(3, budgetID)
            detailed.bind(4, String(budgetID))
        }
        for date in Set(dates) {
            detailed.bind(1, date)
            try detailed.forEachRow { row in found.append((sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1))) }
        }
        // A split row can be both a group's plain row and a detailed one: once each.
        found.sort { $0.total != $1.total ? $0.total > $1.total : $0.id > $1.id }
        var ids: [Int64] = []
        for row in found where ids.last != row.id {
            ids.append(row.id)
            if ids.count == limit { return ids }
        }
        return nil
    }

    /// The groups of `days` (one budget's, through `expenseDay_budget`) whose largest reaches the
    /// `limit`-th largest of them, the bound; `nil` when fewer groups than `limit` bound nothing,
    /// or a largest overflowed (a REAL).
    private static func groupsReachingBound(
        in days: DayInterval, budgetID: Int64?, limit: Int, _ db: Database
    ) throws -> (bound: Int64, groups: [(date: Int64, budgetID: Int64, tagSetID: Int64, by: String)])? {
        let statement = try RawStatement(cached: db, """
            SELECT largestCents, date, budgetId, tagSetId, spentBy FROM expenseDay
            WHERE date BETWEEN ?1 AND ?2 \(budgetID == nil ? "" : "AND budgetId = ?3")
            """)
        statement.bind(1, days.first.storedNumber)
        statement.bind(2, days.last.storedNumber)
        if let budgetID { statement.bind(3, budgetID) }
        // The `limit` largest so far, smallest first: a group below the smallest of a full set
        // can reach no bound, the bound only rising.
        var largest: [Int64] = []
        var kept: [(largest: Int64, date: Int64, budgetID: Int64, tagSetID: Int64, by: String)] = []
        var people: [String] = []
        var overflowed = false
        try statement.forEachRow { row in
            guard !overflowed else { return }
            guard sqlite3_column_type(row, 0) == SQLITE_INTEGER else {
                overflowed = true
                return
            }
            let value = sqlite3_column_int64(row, 0)
            if largest.count == limit {
                guard value >= largest[0] else { return }
                if value > largest[0] {
                    largest.removeFirst()
                    largest.insert(value, at: largest.firstIndex { $0 > value } ?? largest.count)
                }
            } else {
                largest.insert(value, at: largest.firstIndex { $0 > value } ?? largest.count)
            }
            kept.append((value, sqlite3_column_int64(row, 1), sqlite3_column_int64(row, 2), sqlite3_column_int64(row, 3), person(row, 4, &people)))
        }
        guard !overflowed, largest.count == limit else { return nil }
        let bound = largest[0]
        return (bound, kept.filter { $0.largest >= bound }.map { ($0.date, $0.budgetID, $0.tagSetID, $0.by) })
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
