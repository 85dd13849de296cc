import GRDB
import TallyCore

/// Spending per budget and period, `budgetMonth`'s rows: each period's `Budget.spent(in:of:)`
/// and expense count, summed in Swift for `ExpenseCaches`, their one writer.
struct MonthlyTotals {
    private struct Key: Hashable {
        let budgetID: Int64
        let month: Int64
    }

    /// `cents` is `nil` once the sum overflowed; it is then stored as a REAL, which sends the
    /// readers back to the expenses.
    private var figures: [Key: (cents: Int64?, count: Int64)] = [:]
    /// The day months start on (`PeriodCalendar.monthStart`).
    private let monthStart: Int64

    init(monthStart: Int = 1) {
        self.monthStart = Int64(monthStart)
    }

    /// `date` is the stored `YYYYMMDD` number.
    mutating func add(budgetID: Int64, date: Int64, cents: Int64) {
        let key = Key(budgetID: budgetID, month: Self.period(of: date, monthStart: monthStart))
        let figure = figures[key] ?? (0, 0)
        let sum = figure.cents.flatMap { total in
            let (value, overflow) = total.addingReportingOverflow(cents)
            return overflow ? nil : value
        }
        figures[key] = (sum, figure.count + 1)
    }

    /// `PeriodCalendar.period(containing:)` on stored numbers, as `Schema.period` in SQL.
    static func period(of date: Int64, monthStart: Int64) -> Int64 {
        let month = date / 100
        return date % 100 >= monthStart ? month : (month % 100 == 1 ? (month / 100 - 1) * 100 + 12 : month - 1)
    }

    /// Adds the sums to the stored ones.
    func save(_ db: Database) throws {
        let statement = try db.makeStatement(sql: Self.saveSQL)
        for (key, figure) in figures {
            let cents: any DatabaseValueConvertible = figure.cents ?? Double(Int64.max) * 2
            try statement.execute(arguments: [key.budgetID, key.month, cents, figure.count])
        }
    }

    /// Takes the sums from the stored ones. A period left with no expense keeps its row, at zero.
    func subtract(_ db: Database) throws {
        let statement = try db.makeStatement(sql: """
            UPDATE budgetMonth SET spentCents = spentCents - ?3, expenseCount = expenseCount - ?4 WHERE budgetId = ?1 AND month = ?2
            """)
        for (key, figure) in figures {
            let cents: any DatabaseValueConvertible = figure.cents ?? Double(Int64.max) * 2
            try statement.execute(arguments: [key.budgetID, key.month, cents, figure.count])
        }
    }

    /// Adds one expense's total (`date` stored as `YYYYMMDD`) to its period's row, as `add` then
    /// `save` would, without their dictionary (see `ExpenseCaches.added`).
    static func saveOne(budgetID: Int64, date: Int64, cents: Int64, monthStart: Int, _ db: Database) throws {
        try db.makeStatement(sql: saveSQL).execute(arguments: [budgetID, period(of: date, monthStart: Int64(monthStart)), cents, 1])
    }

    private static let saveSQL = """
        INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount) VALUES (?, ?, ?, ?)
        ON CONFLICT (budgetId, month) DO UPDATE
        SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount
        """
}
