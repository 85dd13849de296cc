/// Why a budget is over or past its warning level in a period: its largest expenses, and the
/// tags and expense names whose spending grew most against the average of the periods before
/// ("Eating out +62.0%: 4 expenses tagged delivery, 78.40").
///
/// The largest expenses are those the budget's figures cover (a yearly budget's year to date, a
/// once budget's range); growth is counted on the period's own days, so the period compares
/// with the ones before it like for like.
public struct WhyOver: Hashable, Sendable {
    public static let largestCount = 3
    public static let growthCount = 3
    /// How many periods before make the average a period is compared with.
    public static let earlierPeriods = 3

    /// Whether `status` explains itself: the one place that decides which budgets do, so a
    /// per-budget warning level changes only this.
    public static func applies(to status: BudgetStatus) -> Bool {
        status.level != .ok
    }

    /// The budget's largest expenses of the period, by total, ties by id.
    public let largest: [Expense]
    /// The period's spending against the average of the ``earlierPeriods`` before.
    public let change: Change
    /// The tags and names that grew most, by amount; only those that grew.
    public let grown: [Growth]

    /// `covered` are the budget's expenses its figures cover, `expenses` its expenses in the
    /// period's own days, `earlier` those in each of the periods before.
    public init(covered: [Expense], expenses: [Expense], earlier: [[Expense]]) throws(TallyError) {
        let totals = try covered.map { (expense: Expense) throws(TallyError) in (expense, try expense.total()) }
        largest = totals.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : ($0.0.id ?? 0) < ($1.0.id ?? 0) }
            .prefix(Self.largestCount).map(\.0)
        let spent = try Money.sum(expenses.map { (expense: Expense) throws(TallyError) in try expense.total() })
        let earlierSpent = try Money.sum(earlier.flatMap { $0 }.map { (expense: Expense) throws(TallyError) in try expense.total() })
        change = try Change(from: Money.average(of: earlierSpent, over: max(earlier.count, 1)), to: spent)

        let now = try Self.groups(of: expenses)
        let before = try Self.groups(of: earlier.flatMap { $0 })
        var grown: [Growth] = []
        for (key, group) in now {
            let average = Money.average(of: before[key]?.spent ?? .zero, over: max(earlier.count, 1))
            let change = try Change(from: average, to: group.spent)
            guard change.amount.cents > 0 else { continue }
            grown.append(Growth(kind: key.kind, name: group.name, spent: group.spent, count: group.count, change: change))
        }
        self.grown = Array(
            grown.sorted {
                if $0.change.amount != $1.change.amount { return $0.change.amount > $1.change.amount }
                if $0.kind != $1.kind { return $0.kind == .tag }
                return $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
            }.prefix(Self.growthCount))
    }

    /// A tag or an expense name whose spending grew.
    public struct Growth: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable {
            case tag, name
        }

        public let kind: Kind
        /// The tag, or the name as first spelled in the period.
        public let name: String
        /// Spent on it in the period, over `count` expenses.
        public let spent: Money
        public let count: Int
        /// Against its average in the periods before.
        public let change: Change

        /// `4 expenses tagged delivery, 78.40` or `2 expenses named Pizza, 33.00`.
        public var phrase: String {
            "\(count) expense\(count == 1 ? "" : "s") \(kind == .tag ? "tagged" : "named") \(name), \(spent.groupedString)"
        }
    }

    private struct Key: Hashable {
        let kind: Growth.Kind
        let key: String
    }

    /// Spending per tag and per name (names matched as budget names are: case and accents aside).
    private static func groups(of expenses: [Expense]) throws(TallyError) -> [Key: (name: String, spent: Money, count: Int)] {
        var groups: [Key: (name: String, spent: Money, count: Int)] = [:]
        func add(_ key: Key, _ name: String, _ total: Money) throws(TallyError) {
            let group = groups[key] ?? (name, .zero, 0)
            groups[key] = (group.name, try group.spent + total, group.count + 1)
        }
        for expense in expenses {
            let total = try expense.total()
            try add(Key(kind: .name, key: NameKey.make(expense.name)), expense.name, total)
            for tag in Set(expense.tags) { try add(Key(kind: .tag, key: tag), tag, total) }
        }
        return groups
    }
}

extension Money {
    /// `1,234.50` with the sign of a change: `+1,234.50`, `-3.00`, `0.00`.
    public var signedGroupedString: String { (cents > 0 ? "+" : "") + groupedString }
}
