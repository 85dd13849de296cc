import GRDB
import TallyCore

/// Spending per budget and period, summed in Swift by the writers that bypass the `budgetMonth`
/// triggers (bulk writes, the migration that creates the table, a new month-start setting): the
/// same cache of each period's `Budget.spent(in:of:)` and expense count as the triggers keep.
struct MonthlyTotals {
    private struct Key: Hashable {
        let budgetID: Int64
        let month: Int64
    }

    /// `cents` is `nil` once the sum overflowed; it is then stored as a REAL, like the triggers do.
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

    /// Adds one expense's total (`date` stored as `YYYYMMDD`) to its period's row, as `add` then
    /// `save` would, without their dictionary: `tally add` writes one row, and the first use of
    /// a dictionary keyed by a type of ours cost the runtime 0.45 million instructions.
    static func saveOne(budgetID: Int64, date: Int64, cents: Int64, monthStart: Int, _ db: Database) throws {
        try db.makeStatement(sql: saveSQL).execute(arguments: [budgetID, period(of: date, monthStart: Int64(monthStart)), cents, 1])
    }

    private static let saveSQL = """
        INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount) VALUES (?, ?, ?, ?)
        ON CONFLICT (budgetId, month) DO UPDATE
        SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount
        """
}

/// One of the cache triggers (`budgetMonth`, `expenseDay`) dropped for a bulk change inside the
/// caller's transaction, which then keeps the totals itself; a failure or a crash rolls the drop
/// back with the rest.
struct SuspendedTrigger {
    static let insert = "expense_insert_budgetMonth"
    static let delete = "expense_delete_budgetMonth"
    static let dayInsert = "expense_insert_expenseDay"
    static let dayDelete = "expense_delete_expenseDay"

    private let db: Database
    private let sql: String

    init(_ name: String, _ db: Database) throws {
        guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", arguments: [name])
        else { throw TallyError.storage("the database has no \(name) trigger") }
        try db.execute(sql: "DROP TRIGGER \(name)")
        self.db = db
        self.sql = sql
    }

    func restore() throws {
        try db.execute(sql: sql)
    }
}
