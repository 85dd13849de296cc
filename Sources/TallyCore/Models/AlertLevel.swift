/// What `tally check` says of a budget, the highest that applies: over > projected-over >
/// warning > ok. Exit codes follow the monitoring-plugin convention (``exitCode``).
public enum AlertLevel: String, Hashable, Sendable, CaseIterable, Comparable, Codable {
    case ok
    /// At or past the budget's warning level (``BudgetLevel/near``), or behind its goal
    /// (``GoalProgress/behind``): saving less this period than its target needs.
    case warning
    /// Below the limit but on course to end the period over it (``BudgetPace/projected``).
    case projectedOver = "projected-over"
    /// Spent more than what is available.
    case over

    public init(_ status: BudgetStatus, pace: BudgetPace?) {
        if status.level == .over {
            self = .over
        } else if pace?.isProjectedOver(status) ?? false {
            self = .projectedOver
        } else if status.level == .near || status.isBehindGoal {
            self = .warning
        } else {
            self = .ok
        }
    }

    public static func < (lhs: AlertLevel, rhs: AlertLevel) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// 0 when nothing is past its warning, 1 for a warning or a projected overrun, 2 when over.
    public var exitCode: Int32 {
        switch self {
        case .ok: 0
        case .warning, .projectedOver: 1
        case .over: 2
        }
    }

    /// What `check --new-only` reports: the budgets whose level rose since the last such check
    /// of the period (a budget not seen before was `ok`).
    public static func risen(_ current: [Int64: AlertLevel], since previous: [Int64: AlertLevel]) -> Set<Int64> {
        Set(current.compactMap { id, level in level > (previous[id] ?? .ok) ? id : nil })
    }
}

/// One budget as `check` reports it: its figures, its pace and the level they make.
public struct BudgetAlert: Hashable, Sendable {
    public var status: BudgetStatus
    public var pace: BudgetPace?
    public var level: AlertLevel

    public init(status: BudgetStatus, pace: BudgetPace?) {
        self.status = status
        self.pace = pace
        level = AlertLevel(status, pace: pace)
    }
}
