import GRDB

/// Spending per budget and calendar month, summed in Swift by the writers that bypass the
/// `budgetMonth` triggers (bulk writes and the migration that creates the table).
struct MonthlyTotals {
    private struct Key: Hashable {
        let budgetID: Int64
        let month: Int64
    }

    /// `cents` is `nil` once the sum overflowed; it is then stored as a REAL, like the triggers do.
    private var figures: [Key: (cents: Int64?, count: Int64)] = [:]

    /// `date` is the stored `YYYYMMDD` number.
    mutating func add(budgetID: Int64, date: Int64, cents: Int64) {
        let key = Key(budgetID: budgetID, month: date / 100)
        let figure = figures[key] ?? (0, 0)
        let sum = figure.cents.flatMap { total in
            let (value, overflow) = total.addingReportingOverflow(cents)
            return overflow ? nil : value
        }
        figures[key] = (sum, figure.count + 1)
    }

    /// Adds the sums to the stored ones.
    func save(_ db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount) VALUES (?, ?, ?, ?)
            ON CONFLICT (budgetId, month) DO UPDATE
            SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount
            """)
        for (key, figure) in figures {
            let cents: any DatabaseValueConvertible = figure.cents ?? Double(Int64.max) * 2
            try statement.execute(arguments: [key.budgetID, key.month, cents, figure.count])
        }
    }
}
