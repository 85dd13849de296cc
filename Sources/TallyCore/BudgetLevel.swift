/// How far a budget is into its limit: the one rule every surface shows (the table's status
/// column, the report's colours, the HTML tones, `--json`'s `status`).
public enum BudgetLevel: String, Hashable, Sendable, CaseIterable {
    /// Below the warning share.
    case ok
    /// At or above ``BudgetLevel/warningShare`` of the limit, not over it.
    case near
    /// Spent more than the limit.
    case over

    /// The share of a limit from which a budget is `near`: 80 %.
    public static let warningShare = Share(basisPoints: 8_000)

    public init(spent: Money, limit: Money) {
        if spent > limit {
            self = .over
        } else if Share(spent: spent, of: limit) >= BudgetLevel.warningShare {
            self = .near
        } else {
            self = .ok
        }
    }
}

extension BudgetStatus {
    /// The share of what was available that was spent.
    public var share: Share { Share(spent: spent, of: available) }

    public var level: BudgetLevel { BudgetLevel(spent: spent, limit: available) }
}
