import Foundation
import GRDB
import TallyCore

/// Each period's spending per budget, name key and tag set, `expenseGroup`'s rows
/// (`Schema.v19WhyOverGroups`): `SpendingGroup.grouping(_:)` of each period's expenses, summed in
/// Swift for `ExpenseCaches`, their one writer. Why over compares a period's groups with the
/// periods before; without them it read every expense of four periods.
struct GroupTotals {
    private struct Key: Hashable {
        let budgetID: Int64
        /// The stored period, `YYYYMM`.
        let month: Int64
        let nameKey: String
        /// 0 for no tags, as `expenseGroup` stores it.
        let tagSetID: Int64
    }

    private struct Figure {
        /// `nil` once the sum overflowed; it is then stored as a REAL, which the reader refuses
        /// with `arithmeticOverflow`, as summing the expenses would.
        var cents: Int64? = 0
        var count: Int64 = 0
        /// The smallest spelling of the name by bytes, as Core keeps it.
        var name: String

        mutating func add(_ total: Int64, name other: String) {
            cents = cents.flatMap { sum in
                let (value, overflow) = sum.addingReportingOverflow(total)
                return overflow ? nil : value
            }
            count += 1
            if other.utf8.lexicographicallyPrecedes(name.utf8) { name = other }
        }
    }

    private var figures: [Key: Figure] = [:]
    /// How many groups are held.
    var count: Int { figures.count }
    private var periods: StoredPeriods

    init(calendar: PeriodCalendar) {
        periods = StoredPeriods(calendar: calendar)
    }

    /// `date` is the stored `YYYYMMDD` number, `cents` the expense's total.
    mutating func add(date: Int64, budgetID: Int64, nameKey: String, name: String, tagSetID: Int64?, cents: Int64) {
        let key = Key(budgetID: budgetID, month: periods.period(of: date), nameKey: nameKey, tagSetID: tagSetID ?? 0)
        if figures[key] == nil {
            figures[key] = Figure(name: name)
        }
        figures[key]?.add(cents, name: name)
    }

    /// Adds one expense's total to its group's row, as `add` then `save` would, without their
    /// dictionary (see `ExpenseCaches.added`).
    static func saveOne(
        date: Int64, budgetID: Int64, nameKey: String, name: String, tagSetID: Int64?, cents: Int64, calendar: PeriodCalendar,
        _ db: Database
    ) throws {
        let statement = try RawStatement(db, saveSQL)
        statement.bind(1, budgetID)
        statement.bind(2, MonthlyTotals.period(of: date, calendar))
        statement.bind(3, nameKey)
        statement.bind(4, tagSetID ?? 0)
        statement.bind(5, name)
        statement.bind(6, cents)
        statement.bind(7, Int64(1))
        try statement.step()
    }

    /// SQLite compares TEXT by its bytes (`BINARY`), as Core compares spellings.
    private static let saveSQL = """
        INSERT INTO expenseGroup (budgetId, month, nameKey, tagSetId, name, spentCents, expenseCount)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (budgetId, month, nameKey, tagSetId) DO UPDATE
        SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount,
            name = min(name, excluded.name)
        """

    /// Adds the sums to the stored ones, in the table's order.
    func save(_ db: Database) throws {
        let statement = try RawStatement(db, Self.saveSQL)
        for (key, figure) in sortedFigures {
            bind(key, figure, to: statement)
            try statement.step()
        }
    }

    /// Takes the sums from the stored ones, once the expenses they sum are gone: a group left
    /// empty goes, and one whose smallest spelling left looks it up among the period's
    /// expenses that stay.
    func subtract(_ db: Database) throws {
        let update = try RawStatement(db, """
            UPDATE expenseGroup SET spentCents = spentCents - ?6, expenseCount = expenseCount - ?7,
                name = CASE WHEN name < ?5 OR expenseCount = ?7 THEN name ELSE ifnull((
                    SELECT min(name) FROM expense WHERE date BETWEEN ?8 AND ?9 AND budgetId = ?1
                        AND tagSetId IS nullif(?4, 0) AND nameKey = ?3), name) END
            WHERE budgetId = ?1 AND month = ?2 AND nameKey = ?3 AND tagSetId = ?4
            """)
        let empty = try RawStatement(db, """
            DELETE FROM expenseGroup WHERE budgetId = ?1 AND month = ?2 AND nameKey = ?3 AND tagSetId = ?4 AND expenseCount = 0
            """)
        for (key, figure) in sortedFigures {
            bind(key, figure, to: update)
            let days = (try? Month(storedNumber: key.month)).map { periods.calendar.days(of: $0) }
            update.bind(8, days?.first.storedNumber ?? key.month * 100 + 1)
            update.bind(9, days?.last.storedNumber ?? key.month * 100 + 31)
            try update.step()
            bind(key, to: empty)
            try empty.step()
        }
    }

    private var sortedFigures: [(key: Key, value: Figure)] {
        figures.sorted {
            let (a, b) = ($0.key, $1.key)
            if a.budgetID != b.budgetID { return a.budgetID < b.budgetID }
            if a.month != b.month { return a.month < b.month }
            if a.nameKey != b.nameKey { return a.nameKey.utf8.lexicographicallyPrecedes(b.nameKey.utf8) }
            return a.tagSetID < b.tagSetID
        }
    }

    /// Binds a group as `saveSQL` and `subtract` take it: its key, then name, sum and count.
    private func bind(_ key: Key, _ figure: Figure, to statement: RawStatement) {
        bind(key, to: statement)
        statement.bind(5, figure.name)
        if let cents = figure.cents { statement.bind(6, cents) } else { statement.bind(6, Double(Int64.max) * 2) }
        statement.bind(7, figure.count)
    }

    /// Binds a group's key as parameters 1 to 4.
    private func bind(_ key: Key, to statement: RawStatement) {
        statement.bind(1, key.budgetID)
        statement.bind(2, key.month)
        statement.bind(3, key.nameKey)
        statement.bind(4, key.tagSetID)
    }
}
