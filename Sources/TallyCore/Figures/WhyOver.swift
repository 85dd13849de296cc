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

    /// The budget's largest expenses its figures cover, by total, ties by id descending (as
    /// ``DataAccess/expenses(_:)`` sorts them).
    public let largest: [Expense]
    /// The period's spending against the average of the ``earlierPeriods`` before.
    public let change: Change
    /// The tags and names that grew most, by amount; only those that grew.
    public let grown: [Growth]

    /// `covered` are the budget's expenses its figures cover, `expenses` its expenses in the
    /// period's own days, `earlier` those in each of the periods before.
    public init(covered: [Expense], expenses: [Expense], earlier: [[Expense]]) throws(TallyError) {
        let totals = try covered.map { (expense: Expense) throws(TallyError) in (expense, try expense.total()) }
        let largest = totals.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : ($0.0.id ?? 0) > ($1.0.id ?? 0) }
            .prefix(Self.largestCount).map(\.0)
        try self.init(
            largest: largest, groups: SpendingGroup.grouping(expenses), earlier: SpendingGroup.grouping(earlier.flatMap { $0 }),
            earlierPeriods: earlier.count)
    }

    /// `largest` are the budget's largest expenses its figures cover, `groups` its spending in the
    /// period's own days by name and tag set (``DataAccess/spendingGroups(ofBudgets:in:)``),
    /// `earlier` the same over the `earlierPeriods` periods before (only their sums matter, so
    /// one read of their days serves).
    public init(largest: [Expense], groups: [SpendingGroup], earlier: [SpendingGroup], earlierPeriods: Int) throws(TallyError) {
        self.largest = Array(largest.prefix(Self.largestCount))
        let periods = max(earlierPeriods, 1)
        let spent = try Money.sum(groups.map(\.spent))
        let earlierSpent = try Money.sum(earlier.map(\.spent))
        change = try Change(from: Money.average(of: earlierSpent, over: periods), to: spent)

        let now = try Self.growthGroups(groups)
        let before = try Self.growthGroups(earlier)
        var grown: [Growth] = []
        for (key, group) in now {
            let average = Money.average(of: before[key]?.spent ?? .zero, over: periods)
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
        public func phrase(money: MoneyFormat = .plain) -> String {
            "\(count) expense\(count == 1 ? "" : "s") \(kind == .tag ? "tagged" : "named") \(name), \(money.string(spent))"
        }
    }

    private struct Key: Hashable {
        let kind: Growth.Kind
        let key: String
    }

    /// Spending per tag and per name key; a name is shown as its smallest spelling by bytes.
    private static func growthGroups(_ groups: [SpendingGroup]) throws(TallyError) -> [Key: (name: String, spent: Money, count: Int)] {
        var totals: [Key: (name: String, spent: Money, count: Int)] = [:]
        func add(_ key: Key, _ name: String, _ group: SpendingGroup) throws(TallyError) {
            guard let total = totals[key] else {
                totals[key] = (name, group.spent, group.count)
                return
            }
            let shown = name.utf8.lexicographicallyPrecedes(total.name.utf8) ? name : total.name
            totals[key] = (shown, try total.spent + group.spent, total.count + group.count)
        }
        for group in groups {
            try add(Key(kind: .name, key: group.nameKey), group.name, group)
            for tag in Set(group.tags) { try add(Key(kind: .tag, key: tag), tag, group) }
        }
        return totals
    }
}

/// What one budget spent within some days on expenses of one name (by name key) with one set
/// of tags: the unit ``WhyOver`` compares periods in, small enough for a store to add up in one
/// read. Not split by day: a period's groups are a few per name, where by day a million
/// expenses made tens of thousands to read and add up again.
public struct SpendingGroup: Hashable, Sendable {
    public var budgetID: Int64
    public var nameKey: String
    /// The smallest spelling of the name by bytes among the group's expenses.
    public var name: String
    /// Sorted, as an expense keeps them.
    public var tags: [String]
    public var spent: Money
    public var count: Int

    public init(budgetID: Int64, nameKey: String, name: String, tags: [String], spent: Money, count: Int) {
        self.budgetID = budgetID
        self.nameKey = nameKey
        self.name = name
        self.tags = tags
        self.spent = spent
        self.count = count
    }

    /// The groups of `expenses`, in no particular order.
    public static func grouping(_ expenses: [Expense], budgets: Set<Int64>? = nil) throws(TallyError) -> [SpendingGroup] {
        struct Key: Hashable {
            let budgetID: Int64, nameKey: String, tags: [String]
        }
        var groups: [Key: SpendingGroup] = [:]
        // Each line of a split expense is a group's row in its own budget, under its own name and tags.
        for expense in expenses {
            for portion in try expense.portions where budgets?.contains(portion.budgetID) ?? true {
                let key = Key(budgetID: portion.budgetID, nameKey: portion.nameKey, tags: portion.tags.sorted())
                let total = portion.amount
                guard var group = groups[key] else {
                    groups[key] = SpendingGroup(
                        budgetID: portion.budgetID, nameKey: key.nameKey, name: portion.name, tags: key.tags, spent: total, count: 1)
                    continue
                }
                if portion.name.utf8.lexicographicallyPrecedes(group.name.utf8) { group.name = portion.name }
                group.spent = try group.spent + total
                group.count += 1
                groups[key] = group
            }
        }
        return Array(groups.values)
    }

    /// `groups` with those of one budget, name key and tag set summed into one (a store's groups
    /// of several periods), in no particular order.
    public static func merged(_ groups: [SpendingGroup]) throws(TallyError) -> [SpendingGroup] {
        struct Key: Hashable {
            let budgetID: Int64, nameKey: String, tags: [String]
        }
        var merged: [Key: SpendingGroup] = [:]
        merged.reserveCapacity(groups.count)
        for group in groups {
            // One lookup a group: the entry is changed in place.
            try fold(group, into: &merged[Key(budgetID: group.budgetID, nameKey: group.nameKey, tags: group.tags)])
        }
        return Array(merged.values)
    }

    private static func fold(_ group: SpendingGroup, into entry: inout SpendingGroup?) throws(TallyError) {
        guard var total = entry else {
            entry = group
            return
        }
        if group.name.utf8.lexicographicallyPrecedes(total.name.utf8) { total.name = group.name }
        total.spent = try total.spent + group.spent
        total.count += group.count
        entry = total
    }

    /// ``DataAccess/spendingGroups(ofBudgets:in:)`` from the expenses themselves.
    public static func groups(ofBudgets ids: Set<Int64>, in days: DayInterval, of expenses: some Sequence<Expense>) throws(TallyError) -> [SpendingGroup] {
        try grouping(expenses.filter { days.contains($0.date) && $0.budgetIDs.contains(where: ids.contains) }, budgets: ids)
    }
}
