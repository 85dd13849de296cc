import TallyCore

/// How the confirmations of `budget add` and `budget edit` describe a budget's limit.
public enum BudgetPhrases {
    /// `monthly limit 450.00`, `yearly limit 5,000.00`, `limit 900.00 from 2026-07-01 to
    /// 2026-07-14` (with `of` before the amount: `monthly limit of 450.00`); with a limit
    /// history, the latest limit and when it began; then how it rolls over and its cap.
    public static func limit(of budget: Budget, joinedWithOf: Bool = false, money: MoneyFormat = .plain) -> String {
        let of = joinedWithOf ? "of " : ""
        var text: String
        switch budget.period {
        case .monthly, .yearly:
            text = "\(budget.period.rawValue) limit \(of)"
            if let latest = budget.limitChanges.last {
                let before = budget.limitChanges.dropLast().last?.limit ?? budget.limit
                text += "\(money.string(latest.limit)) from \(latest.from.isoString) (\(money.string(before)) before)"
            } else {
                text += money.string(budget.limit)
            }
        case .once:
            text = "limit \(of)\(money.string(budget.limit))"
            if let range = budget.range { text += " from \(range.first.isoString) to \(range.last.isoString)" }
        }
        switch budget.rollover {
        case .none: break
        case .surplus: text += ", rolling over what is left"
        case .both: text += ", rolling over what is left and what is overspent"
        }
        if let cap = budget.cap { text += ", at most \(money.string(cap)) available" }
        if let start = budget.start { text += ", starting \(start.isoString)" }
        return text
    }
}
