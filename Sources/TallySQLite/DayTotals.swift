import GRDB
import TallyCore

/// Each day's spending per budget, tag set and person, summed in Swift by the writers that bypass
/// the `expenseDay` triggers (`Schema.v12ExpenseDays`): the migration that creates the table, an
/// import, and undo or redo of one. The same cache as the triggers keep: a group's sum, count and
/// largest total, which these writers keep exact.
struct DayTotals {
    private struct Key: Hashable {
        let date: Int64
        let budgetID: Int64
        /// 0 for no tags, as `expenseDay` stores it.
        let tagSetID: Int64
        let by: String

        // By bytes, as SQLite compares them: Swift's == would take two spellings of é for one.
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.date == rhs.date && lhs.budgetID == rhs.budgetID && lhs.tagSetID == rhs.tagSetID
                && lhs.by.utf8.elementsEqual(rhs.by.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(date)
            hasher.combine(budgetID)
            hasher.combine(tagSetID)
            for byte in by.utf8 { hasher.combine(byte) }
        }
    }

    /// `cents` is `nil` once the sum overflowed; it is then stored as a REAL, like the triggers do.
    private var figures: [Key: (cents: Int64?, count: Int64, largest: Int64)] = [:]

    var isEmpty: Bool { figures.isEmpty }

    /// `date` is the stored `YYYYMMDD` number, `cents` the expense's total.
    mutating func add(date: Int64, budgetID: Int64, tagSetID: Int64?, by: String, cents: Int64) {
        let key = Key(date: date, budgetID: budgetID, tagSetID: tagSetID ?? 0, by: by)
        guard let figure = figures[key] else {
            figures[key] = (cents, 1, cents)
            return
        }
        let sum = figure.cents.flatMap { total in
            let (value, overflow) = total.addingReportingOverflow(cents)
            return overflow ? nil : value
        }
        figures[key] = (sum, figure.count + 1, max(figure.largest, cents))
    }

    /// What `add(expenses:arguments:_:)` reads from a table of expenses, before its `FROM`.
    static let columns = "SELECT date, budgetId, tagSetId, spentBy, amountCents * quantity"

    /// Adds the expenses `sql` selects as ``columns`` does.
    mutating func add(expenses sql: String, arguments: StatementArguments, _ db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            add(date: row[0], budgetID: row[1], tagSetID: row[2], by: row[3], cents: row[4])
        }
    }

    /// Adds the sums to the stored ones.
    func save(_ db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO expenseDay (date, budgetId, tagSetId, spentBy, spentCents, expenseCount, largestCents)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (date, budgetId, tagSetId, spentBy) DO UPDATE
            SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount,
                largestCents = max(largestCents, excluded.largestCents)
            """)
        for (key, figure) in figures {
            let cents: any DatabaseValueConvertible = figure.cents ?? Double(Int64.max) * 2
            try statement.execute(arguments: [key.date, key.budgetID, key.tagSetID, key.by, cents, figure.count, figure.largest])
        }
    }

    /// Takes the sums from the stored ones, once the expenses they sum are gone: a group left
    /// empty goes, and one that lost its largest looks up the next in the covering index.
    func subtract(_ db: Database) throws {
        let update = try db.makeStatement(sql: """
            UPDATE expenseDay SET spentCents = spentCents - ?5, expenseCount = expenseCount - ?6,
                largestCents = CASE WHEN largestCents > ?7 THEN largestCents ELSE ifnull((
                    SELECT max(amountCents * quantity) FROM expense WHERE date = ?1 AND budgetId = ?2
                        AND tagSetId IS nullif(?3, 0) AND spentBy = ?4), 0) END
            WHERE date = ?1 AND budgetId = ?2 AND tagSetId = ?3 AND spentBy = ?4
            """)
        let empty = try db.makeStatement(sql: """
            DELETE FROM expenseDay WHERE date = ? AND budgetId = ? AND tagSetId = ? AND spentBy = ? AND expenseCount = 0
            """)
        for (key, figure) in figures {
            let cents: any DatabaseValueConvertible = figure.cents ?? Double(Int64.max) * 2
            try update.execute(arguments: [key.date, key.budgetID, key.tagSetID, key.by, cents, figure.count, figure.largest])
            try empty.execute(arguments: [key.date, key.budgetID, key.tagSetID, key.by])
        }
    }
}
