import TallyCore

/// `check --json`: one entry per budget reported, in the vocabulary of every `--json`.
public struct AlertJSON: Encodable, Equatable, Sendable {
    public let name: String
    /// `ok`, `warning`, `projected-over` or `over`.
    public let level: String
    public let spent: String
    public let available: String
    public let share: String
    /// The budget's warning level, percent.
    public let warn: Int
    public let month: String
    public let elapsed: String?
    public let projected: String?
    public let perDay: String?
    /// The goal (``GoalJSON``), present only for a budget with a target.
    public let goal: GoalJSON?

    public init(_ alert: BudgetAlert) {
        let status = alert.status
        name = status.budget.name
        level = alert.level.rawValue
        spent = status.spent.plainString
        available = status.available.plainString
        share = status.share.ratioString
        warn = status.budget.warn
        month = status.month.isoString
        elapsed = alert.pace?.elapsed.ratioString
        projected = alert.pace?.projected?.plainString
        perDay = alert.pace?.perDay.plainString
        goal = GoalJSON(status)
    }

    private enum CodingKeys: String, CodingKey {
        case name, level, spent, available, share, warn, month, elapsed, projected, perDay, goal
    }

    /// Every key always, absent figures as `null`; `goal` only with a target.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(level, forKey: .level)
        try container.encode(spent, forKey: .spent)
        try container.encode(available, forKey: .available)
        try container.encode(share, forKey: .share)
        try container.encode(warn, forKey: .warn)
        try container.encode(month, forKey: .month)
        try container.encode(elapsed, forKey: .elapsed)
        try container.encode(projected, forKey: .projected)
        try container.encode(perDay, forKey: .perDay)
        try container.encodeIfPresent(goal, forKey: .goal)
    }

    /// The text `check` prints for one budget: `Groceries: warning, 83 % of 450.00 used`, and
    /// `, behind its goal by 50.00` when it is.
    public static func line(_ alert: BudgetAlert, money: MoneyFormat = .plain) -> String {
        let money = money.figures(of: alert.status.budget)
        let status = alert.status
        var text = "\(status.budget.name): \(alert.level.rawValue), \(status.share.wholePercent) % of \(money.string(status.available)) used"
        if alert.level == .projectedOver, let projected = alert.pace?.projected {
            text += ", projected \(money.string(projected)) by \(alert.pace?.days.last.isoString ?? "")"
        }
        if let goal = status.goal, goal.progress == .behind {
            text += ", behind its goal by \(money.string(goal.shortfall)) (needs \(money.string(goal.needed)) this period)"
        }
        return text
    }
}

/// `check --json`: a broken balance assertion, after the budgets, with `level` `broken-assertion`.
public struct AssertionAlertJSON: Encodable, Sendable {
    public let account: String
    public let level = "broken-assertion"
    public let date: String
    public let asserted: String
    public let actual: String
    public let difference: String

    public init(_ broken: BrokenAssertion) throws(TallyError) {
        account = broken.account.name
        date = broken.assertion.date.isoString
        asserted = broken.assertion.balance.plainString
        actual = broken.actual.plainString
        difference = try broken.difference().plainString
    }

    /// `Checking: the balance of 2026-11-30 was reconciled at 3,700.00; the entries now give 3,800.00 (100.00 more)`.
    public static func line(_ broken: BrokenAssertion, money: MoneyFormat = .plain) throws(TallyError) -> String {
        "\(broken.account.name): the balance of \(broken.assertion.date.isoString) was reconciled at \(money.string(broken.assertion.balance)); "
            + "the entries now give \(money.string(broken.actual)), a difference of \(money.string(try broken.difference()))"
    }
}
