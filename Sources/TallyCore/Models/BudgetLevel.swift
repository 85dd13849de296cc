/// How far a budget is into its limit: the one rule every surface shows (the table's status
/// column, the report's colours, the HTML tones, `--json`'s `status`, the line `tally add`
/// prints when an expense crosses a level).
public enum BudgetLevel: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Below the budget's warning level.
    case ok
    /// At or above the budget's warning level (``Budget/warn``, 80 % unless set), not over.
    case near
    /// Spent more than what was available: always 100 %.
    case over

    /// The warning level of a budget that sets none, and of a ledger that sets no default: 80 %.
    public static let defaultWarnPercent = 80

    /// A warning level is a whole percent from 1 to 100.
    public static func checkWarn(_ percent: Int) throws(TallyError) {
        guard (1...100).contains(percent) else { throw .invalidWarnLevel(percent) }
    }

    public init(spent: Money, limit: Money, warnPercent: Int = BudgetLevel.defaultWarnPercent) {
        if spent > limit {
            self = .over
        } else if Share(spent: spent, of: limit) >= Share(basisPoints: Int64(warnPercent) * 100) {
            self = .near
        } else {
            self = .ok
        }
    }

    public static func < (lhs: BudgetLevel, rhs: BudgetLevel) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// The level an expense of `total` moved its budget into, when it rose: what `tally add`
    /// reports once, rather than on every expense of a budget already past its warning.
    public static func crossed(by total: Money, into status: BudgetStatus) -> BudgetLevel? {
        guard let before = try? status.spent - total else { return nil }
        let previous = BudgetLevel(spent: before, limit: status.available, warnPercent: status.budget.warn)
        return status.level > previous ? status.level : nil
    }
}

extension BudgetStatus {
    /// The share of what was available that was spent.
    public var share: Share { Share(spent: spent, of: available) }

    public var level: BudgetLevel { BudgetLevel(spent: spent, limit: available, warnPercent: budget.warn) }
}
