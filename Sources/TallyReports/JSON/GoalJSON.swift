import TallyCore

/// A budget's goal in `--json` (`budget list`, `budget show`, the month report, `upcoming`):
/// one vocabulary everywhere. Every key always: `targetBy` is the sinking fund's month and
/// `every` `null`, or the other way round; `shortfall` is `"0.00"` unless `status` is `behind`;
/// `periodsLeft` is `null` for a per-period target; `account` and `accountBalance` are `null`
/// when no account is named (`accountBalance` also before its opening day). Money as the other
/// money keys: a plain two-decimal string.
public struct GoalJSON: Codable, Equatable, Sendable {
    public let target: String
    public let targetBy: String?
    /// `month` or `year`.
    public let every: String?
    public let funded: String
    public let needed: String
    /// `on-track`, `behind` or `funded` (``GoalProgress``).
    public let status: String
    public let shortfall: String
    public let periodsLeft: Int?
    public let account: String?
    public let accountBalance: String?

    public init(_ goal: GoalFigures, period: BudgetPeriod, account: GoalAccount? = nil) {
        target = goal.target.amount.plainString
        targetBy = goal.target.by?.isoString
        every = goal.target.by == nil ? (period == .yearly ? "year" : "month") : nil
        funded = goal.funded.plainString
        needed = goal.needed.plainString
        status = goal.progress.rawValue
        shortfall = goal.shortfall.plainString
        periodsLeft = goal.periodsLeft
        self.account = account?.name
        accountBalance = account?.balance?.plainString
    }

    private enum CodingKeys: String, CodingKey {
        case target, targetBy, every, funded, needed, status, shortfall, periodsLeft, account, accountBalance
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target, forKey: .target)
        try container.encode(targetBy, forKey: .targetBy)
        try container.encode(every, forKey: .every)
        try container.encode(funded, forKey: .funded)
        try container.encode(needed, forKey: .needed)
        try container.encode(status, forKey: .status)
        try container.encode(shortfall, forKey: .shortfall)
        try container.encode(periodsLeft, forKey: .periodsLeft)
        try container.encode(account, forKey: .account)
        try container.encode(accountBalance, forKey: .accountBalance)
    }
}

extension GoalJSON {
    /// The goal of `status`'s budget, `nil` when it has no target.
    public init?(_ status: BudgetStatus, account: GoalAccount? = nil) {
        guard let goal = status.goal else { return nil }
        self.init(goal, period: status.budget.period, account: account)
    }
}
