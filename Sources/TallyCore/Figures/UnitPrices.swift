/// What a set of purchases paid per unit: the figures `tally prices` shows for a period, built
/// from each expense's unit price (its amount, not its total) and quantity.
public struct UnitPriceFigures: Hashable, Sendable {
    /// `Σ amount × quantity`.
    public var total: Money
    /// `Σ quantity`.
    public var quantity: Int64
    public var lowest: Money
    public var highest: Money
    public var expenseCount: Int

    public init(total: Money, quantity: Int64, lowest: Money, highest: Money, expenseCount: Int) {
        self.total = total
        self.quantity = quantity
        self.lowest = lowest
        self.highest = highest
        self.expenseCount = expenseCount
    }

    /// One expense's figures.
    public init(_ expense: Expense) throws(TallyError) {
        self.init(total: try expense.total(), quantity: expense.quantity, lowest: expense.amount, highest: expense.amount, expenseCount: 1)
    }

    /// Both sets of purchases together.
    public func adding(_ other: UnitPriceFigures) throws(TallyError) -> UnitPriceFigures {
        let (quantity, overflow) = self.quantity.addingReportingOverflow(other.quantity)
        guard !overflow else { throw .arithmeticOverflow }
        return UnitPriceFigures(
            total: try total + other.total, quantity: quantity, lowest: min(lowest, other.lowest), highest: max(highest, other.highest),
            expenseCount: expenseCount + other.expenseCount)
    }

    /// The unit price weighted by quantity, `total / quantity`, rounded to the nearest cent with
    /// halves rounded up: 3 units at 1.00 and 1 at 1.01 average 1.0025, shown as 1.00; at 1.02, 1.005 → 1.01.
    public var average: Money {
        guard quantity > 0 else { return .zero }
        // (2·total + quantity) / (2·quantity) is total/quantity rounded half up, in integers.
        let (twice, overflow) = total.cents.multipliedReportingOverflow(by: 2)
        guard !overflow else { return Money(cents: total.cents / quantity) }
        return Money(cents: (twice + quantity) / (2 * quantity))
    }

    /// The figures per day of the expenses among `expenses` within `days` whose name contains
    /// `search` ignoring case and diacritics (as ``ExpenseQuery/search`` matches); days without
    /// such expenses are absent.
    public static func byDay(
        matching search: String, in days: DayInterval, of expenses: some Sequence<Expense>
    ) throws(TallyError) -> [Day: UnitPriceFigures] {
        let key = NameKey.make(search)
        var figures: [Day: UnitPriceFigures] = [:]
        for expense in expenses where days.contains(expense.date) && expense.nameKey.contains(key) {
            let one = try UnitPriceFigures(expense)
            figures[expense.date] = try figures[expense.date].map { (sum: UnitPriceFigures) throws(TallyError) in try sum.adding(one) } ?? one
        }
        return figures
    }
}
