import GRDB
import TallyCore

// The month report's figures read from `expenseDay` (`Schema.v12ExpenseDays`), the cache of each
// day's spending per budget, tag set and person: a month is a few hundred of its rows instead of
// every expense of the month in the covering index. Each reader falls back to the expenses when a
// cached sum overflowed (a REAL) or a bound does not answer, and the contract suite proves both
// equal to `InMemoryStore`.
extension SQLiteStore {
    /// One budget's spending of one day with one tag set.
    struct DayGroup {
        var budgetID: Int64
        var day: Day
        var tagSetID: Int64?
        var spent: Money
        var count: Int
    }

    /// The groups of `days`, from the cache, else from the covering index.
    static func dayGroups(in days: DayInterval, _ db: Database) throws -> [DayGroup] {
        let arguments: StatementArguments = [days.first.storedNumber, days.last.storedNumber]
        var groups: [DayGroup] = []
        var overflowed = false
        let cached = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT budgetId, date, tagSetId, spentCents, expenseCount FROM expenseDay WHERE date BETWEEN ? AND ?
                """),
            arguments: arguments)
        while let row = try cached.next() {
            let stored: DatabaseValue = row[3]
            guard case .int64(let cents) = stored.storage else {
                overflowed = true
                break
            }
            let tagSetID: Int64 = row[2]
            groups.append(DayGroup(budgetID: row[0], day: try day(row[1]), tagSetID: tagSetID == 0 ? nil : tagSetID, spent: Money(cents: cents), count: row[4]))
        }
        guard overflowed else { return groups }
        groups = []
        // One grouped read of the covering index, in its order, so SQLite streams the groups
        // without sorting, which grouping by budget first would need.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT budgetId, date, tagSetId, SUM(amountCents * quantity), COUNT(*)
                FROM expense WHERE date BETWEEN ? AND ? GROUP BY date, budgetId, tagSetId
                """,
            arguments: arguments)
        while let row = try rows.next() {
            groups.append(DayGroup(budgetID: row[0], day: try day(row[1]), tagSetID: row[2], spent: Money(cents: row[3]), count: row[4]))
        }
        return groups
    }

    /// `Spending.byPerson(in:of:)` from the cache; `nil` when a cached sum overflowed.
    static func cachedSpendingByPerson(in days: DayInterval, _ db: Database) throws -> [PersonSpending]? {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT spentBy, SUM(spentCents), SUM(expenseCount), MAX(typeof(spentCents) <> 'integer')
                FROM expenseDay WHERE date BETWEEN ? AND ? GROUP BY spentBy
                """,
            arguments: [days.first.storedNumber, days.last.storedNumber])
        var people: [PersonSpending] = []
        for row in rows {
            guard row[3] == false else { return nil }
            people.append(PersonSpending(by: row[0], spent: Money(cents: row[1]), expenses: row[2]))
        }
        return people.count <= 1 ? people : PersonSpending.ordered(people)
    }

    /// The ids of the `limit` largest expenses by total (ties by the highest id), within `days`
    /// and one budget or all, or `nil` when the cache cannot bound them. Each group's largest
    /// total is at least that of its largest expense, so every expense whose total reaches the
    /// `limit`-th largest of them, `bound`, lies in a group whose largest does. When `limit` of
    /// them reach it, they hold the answer; fewer (after removals of a group's largest, whose
    /// bound stays) leave it to the plain read. A month's ten largest then come from a few groups
    /// instead of every expense of the month.
    static func largestExpenseIDs(in days: DayInterval, budgetID: Int64?, limit: Int, _ db: Database) throws -> [Int64]? {
        guard limit > 0 else { return nil }
        var groupFilter = "g.date BETWEEN ? AND ?"
        var arguments: StatementArguments = [days.first.storedNumber, days.last.storedNumber]
        if let budgetID {
            groupFilter += " AND g.budgetId = ?"
            arguments += [budgetID]
        }
        let bounds = try DatabaseValue.fetchAll(
            db, sql: "SELECT g.largestCents FROM expenseDay g WHERE \(groupFilter) ORDER BY g.largestCents DESC LIMIT ?",
            arguments: arguments + [limit])
        // Fewer groups than asked for bound nothing; a REAL marks a total that overflowed.
        guard bounds.count == limit, let last = bounds.last, case .int64(let bound) = last.storage else { return nil }
        let ids = try Int64.fetchAll(
            db,
            sql: """
                SELECT e.id FROM expenseDay g
                JOIN expense e ON e.date = g.date AND e.budgetId = g.budgetId AND e.tagSetId IS nullif(g.tagSetId, 0)
                    AND e.spentBy = g.spentBy
                WHERE \(groupFilter) AND g.largestCents >= ? AND e.amountCents * e.quantity >= ?
                ORDER BY e.amountCents * e.quantity DESC, e.id DESC LIMIT ?
                """,
            arguments: arguments + [bound, bound, limit])
        return ids.count == limit ? ids : nil
    }

    /// Rows of `expenseDay` whose sum or count differ from their expenses', or whose largest
    /// total is below their largest expense's, as text.
    static func expenseDayMismatches(_ db: Database) throws -> [String] {
        let stored = "SELECT date, budgetId, tagSetId, spentBy, spentCents, expenseCount FROM expenseDay"
        let summed = "SELECT date, budgetId, ifnull(tagSetId, 0), spentBy, SUM(amountCents * quantity), COUNT(*) FROM expense GROUP BY 1, 2, 3, 4"
        let unbounded = """
            SELECT d.date, d.budgetId, d.tagSetId, d.spentBy, d.largestCents, 'below', MAX(e.amountCents * e.quantity)
            FROM expenseDay d JOIN expense e ON e.date = d.date AND e.budgetId = d.budgetId AND e.tagSetId IS nullif(d.tagSetId, 0)
                AND e.spentBy = d.spentBy
            GROUP BY d.date, d.budgetId, d.tagSetId, d.spentBy HAVING d.largestCents < MAX(e.amountCents * e.quantity)
            """
        return try Row.fetchAll(db, sql: "\(stored) EXCEPT \(summed) UNION ALL SELECT * FROM (\(summed) EXCEPT \(stored))")
            .map(\.description) + Row.fetchAll(db, sql: unbounded).map(\.description)
    }
}
