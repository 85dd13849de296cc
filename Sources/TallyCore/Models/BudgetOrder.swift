/// The orders a list of budgets offers; ties keep the store's name order.
public enum BudgetOrder: String, CaseIterable, Hashable, Sendable {
    case name, limit, spent, remaining
}

extension Budget {
    /// The ledger's own order of budgets: by name key, byte by byte as SQL compares text, then
    /// by id.
    public static func ordered(_ budgets: [Budget]) -> [Budget] {
        budgets.sorted { lhs, rhs in
            let (left, right) = (Array(lhs.nameKey.utf8), Array(rhs.nameKey.utf8))
            return left == right ? (lhs.id ?? 0) < (rhs.id ?? 0) : left.lexicographicallyPrecedes(right)
        }
    }
}

extension BudgetStatus {
    /// Keeps the statuses whose name holds `search` (ignoring case and diacritics) and sorts them
    /// stably: the given name order breaks ties in either direction.
    public static func arranged(
        _ statuses: [BudgetStatus], search: String?, order: BudgetOrder, descending: Bool
    ) -> [BudgetStatus] {
        var result = statuses
        if let search {
            let key = NameKey.lookup(search)
            if !key.isEmpty { result = result.filter { $0.budget.nameKey.contains(key) } }
        }
        let indexed = Array(result.enumerated())
        let ordered = indexed.sorted { lhs, rhs in
            var comparison = compare(lhs.element, rhs.element, by: order)
            if order == .name { comparison = lhs.offset < rhs.offset ? -1 : 1 }
            if comparison == 0 { return lhs.offset < rhs.offset }
            return descending ? comparison > 0 : comparison < 0
        }
        return ordered.map(\.element)
    }

    private static func compare(_ lhs: BudgetStatus, _ rhs: BudgetStatus, by order: BudgetOrder) -> Int {
        func sign(_ left: Money, _ right: Money) -> Int { left < right ? -1 : (left == right ? 0 : 1) }
        switch order {
        case .name: return 0
        case .limit: return sign(lhs.budget.limit, rhs.budget.limit)
        case .spent: return sign(lhs.spent, rhs.spent)
        case .remaining: return sign(lhs.remaining, rhs.remaining)
        }
    }
}
