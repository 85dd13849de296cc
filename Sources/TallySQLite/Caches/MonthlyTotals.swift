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
    private var periods: StoredPeriods

    init(calendar: PeriodCalendar) {
        periods = StoredPeriods(calendar: calendar)
    }

    /// `date` is the stored `YYYYMMDD` number.
    mutating func add(budgetID: Int64, date: Int64, cents: Int64) {
        let key = Key(budgetID: budgetID, month: periods.period(of: date))
        let figure = figures[key] ?? (0, 0)
        let sum = figure.cents.flatMap { total in
            let (value, overflow) = total.addingReportingOverflow(cents)
            return overflow ? nil : value
        }
        figures[key] = (sum, figure.count + 1)
    }

    /// `PeriodCalendar.period(containing:)` of a stored date. The schema's CHECK keeps every
    /// stored date a day; a number that is not one stays in its calendar month.
    static func period(of date: Int64, _ calendar: PeriodCalendar) -> Int64 {
        Day(storedNumber: date).map { calendar.period(containing: $0).storedNumber } ?? date / 100
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
    static func saveOne(budgetID: Int64, date: Int64, cents: Int64, calendar: PeriodCalendar, _ db: Database) throws {
        try db.makeStatement(sql: saveSQL).execute(arguments: [budgetID, period(of: date, calendar), cents, 1])
    }

    private static let saveSQL = """
        INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount) VALUES (?, ?, ?, ?)
        ON CONFLICT (budgetId, month) DO UPDATE
        SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount
        """
}

/// The stored period (`YYYYMM`) of stored dates under the ledger's calendar (Core's rule for which
/// period a day falls in), for the caches keyed by period. It remembers the last date's period:
/// rows come in runs of one date.
struct StoredPeriods {
    let calendar: PeriodCalendar
    private var last: (date: Int64, period: Int64)?

    init(calendar: PeriodCalendar) {
        self.calendar = calendar
    }

    mutating func period(of date: Int64) -> Int64 {
        if let last, last.date == date { return last.period }
        let period = MonthlyTotals.period(of: date, calendar)
        last = (date, period)
        return period
    }
}
