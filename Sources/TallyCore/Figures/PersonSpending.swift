/// What one person (an expense's ``Expense/by``) spent within some days, and in how many
/// expenses: a line of the month report's per-person section.
public struct PersonSpending: Hashable, Sendable {
    /// Empty for expenses saved before Tally recorded who spent them.
    public var by: String
    public var spent: Money
    public var expenses: Int

    public init(by: String, spent: Money, expenses: Int) {
        self.by = by
        self.spent = spent
        self.expenses = expenses
    }

    /// Largest spender first; ties by name, byte by byte, so every store orders them alike.
    public static func ordered(_ people: [PersonSpending]) -> [PersonSpending] {
        people.sorted { $0.spent != $1.spent ? $0.spent > $1.spent : Array($0.by.utf8).lexicographicallyPrecedes($1.by.utf8) }
    }

    /// A report shows who spent what only when more than one person appears.
    public static func worthShowing(_ people: [PersonSpending]) -> Bool { people.count > 1 }
}

extension Spending {
    /// What `expenses` within `days` add up to per ``Expense/by``, with how many they are,
    /// ordered by ``PersonSpending/ordered(_:)``; people without expenses are absent.
    public static func byPerson(in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> [PersonSpending] {
        var totals: [String: PersonSpending] = [:]
        for expense in expenses where days.contains(expense.date) {
            var line = totals[expense.by] ?? PersonSpending(by: expense.by, spent: .zero, expenses: 0)
            line.spent = try line.spent + expense.spending()
            line.expenses += max(1, expense.lines.count)
            totals[expense.by] = line
        }
        return PersonSpending.ordered(Array(totals.values))
    }
}
