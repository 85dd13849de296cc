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
    }

    private enum CodingKeys: String, CodingKey {
        case name, level, spent, available, share, warn, month, elapsed, projected, perDay
    }

    /// Every key always, absent figures as `null`.
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
    }

    /// The text `check` prints for one budget: `Groceries: warning, 83 % of 450.00 used`.
    public static func line(_ alert: BudgetAlert, money: MoneyFormat = .plain) -> String {
        let status = alert.status
        var text = "\(status.budget.name): \(alert.level.rawValue), \(status.share.wholePercent) % of \(money.string(status.available)) used"
        if alert.level == .projectedOver, let projected = alert.pace?.projected {
            text += ", projected \(money.string(projected)) by \(alert.pace?.days.last.isoString ?? "")"
        }
        return text
    }
}
