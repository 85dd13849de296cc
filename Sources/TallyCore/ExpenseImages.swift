import Foundation

/// Expenses as a change set keeps them: one array per field instead of one object per expense,
/// so the history of removing a budget with thousands of expenses, or of undoing an import, is
/// cheap to encode. Timestamps in milliseconds, days as `YYYYMMDD`, tags joined by `;` (which
/// tags cannot contain).
public struct ExpenseImages: Hashable, Sendable, Codable {
    public private(set) var ids: [Int64] = []
    private var names: [String] = []
    private var cents: [Int64] = []
    private var quantities: [Int64] = []
    private var days: [Int32] = []
    public private(set) var budgetIDs: [Int64] = []
    private var tags: [String] = []
    private var spentBy: [String] = []
    private var created: [Int64] = []
    private var updated: [Int64] = []

    public init() {}

    public init(_ expenses: some Sequence<Expense>) {
        for expense in expenses { append(expense) }
    }

    public var isEmpty: Bool { ids.isEmpty }
    public var count: Int { ids.count }

    public mutating func append(_ expense: Expense) {
        ids.append(expense.id ?? 0)
        names.append(expense.name)
        cents.append(expense.amount.cents)
        quantities.append(expense.quantity)
        days.append(Int32(expense.date.year * 10_000 + expense.date.month * 100 + expense.date.day))
        budgetIDs.append(expense.budgetID)
        tags.append(expense.tags.joined(separator: ";"))
        spentBy.append(expense.by)
        created.append(Self.milliseconds(expense.createdAt))
        updated.append(Self.milliseconds(expense.updatedAt))
    }

    public mutating func append(contentsOf other: ExpenseImages) {
        ids += other.ids
        names += other.names
        cents += other.cents
        quantities += other.quantities
        days += other.days
        budgetIDs += other.budgetIDs
        tags += other.tags
        spentBy += other.spentBy
        created += other.created
        updated += other.updated
    }

    /// The expenses, in the order they were appended. Throws on a history row that does not
    /// decode to valid values (a damaged database), never traps.
    public func expenses() throws(TallyError) -> [Expense] {
        guard [names.count, cents.count, quantities.count, days.count, budgetIDs.count, tags.count, spentBy.count, created.count, updated.count]
            .allSatisfy({ $0 == ids.count })
        else { throw .storage("a change set's expenses are damaged") }
        var result: [Expense] = []
        result.reserveCapacity(ids.count)
        for index in ids.indices {
            let number = Int(days[index])
            let day = try Day(year: number / 10_000, month: number / 100 % 100, day: number % 100)
            var expense = Expense(
                name: names[index], amount: Money(cents: cents[index]), quantity: quantities[index], date: day,
                budgetID: budgetIDs[index], tags: tags[index].isEmpty ? [] : tags[index].split(separator: ";").map(String.init),
                by: spentBy[index])
            expense.id = ids[index]
            expense.createdAt = Date(timeIntervalSince1970: Double(created[index]) / 1000)
            expense.updatedAt = Date(timeIntervalSince1970: Double(updated[index]) / 1000)
            result.append(expense)
        }
        return result
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return milliseconds.isFinite ? Int64(exactly: milliseconds) ?? 0 : 0
    }
}
