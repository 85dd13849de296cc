import TallyCore

extension BudgetPhrases {
    /// `1,200.00 by 2027-06`, or `100.00 every month` (`every year` for a yearly budget).
    public static func target(_ target: BudgetTarget, period: BudgetPeriod = .monthly, money: MoneyFormat = .plain) -> String {
        let when = target.by.map { "by \($0.isoString)" } ?? (period == .yearly ? "every year" : "every month")
        return "\(money.string(target.amount)) \(when)"
    }

    /// Target, with the budget's own period for a per-period one.
    public static func target(of budget: Budget, money: MoneyFormat = .plain) -> String? {
        budget.target.map { target($0, period: budget.period, money: money) }
    }
}

/// How every text surface words a budget's goal figures (``GoalFigures``), so the list, `show`,
/// the report and `upcoming` say it the same way.
public enum GoalText {
    /// `funded`, `on-track`, or `behind 12.50` with the shortfall.
    public static func progress(_ goal: GoalFigures, money: MoneyFormat = .plain) -> String {
        goal.progress == .behind ? "behind \(money.string(goal.shortfall))" : goal.progress.rawValue
    }

    /// One compact line: `goal 1,200.00 by 2027-06: funded 300.00, needs 100.00 this period, on-track`.
    public static func line(_ goal: GoalFigures, period: BudgetPeriod, money: MoneyFormat = .plain) -> String {
        "goal \(BudgetPhrases.target(goal.target, period: period, money: money)): funded \(money.string(goal.funded)), "
            + "needs \(money.string(goal.needed)) this period, \(progress(goal, money: money))"
    }

    /// ``line(_:period:money:)``, then where the money sits when the target names an account:
    /// `…, on-track; in Savings, balance 8,900.00`.
    public static func line(_ goal: GoalFigures, period: BudgetPeriod, account: GoalAccount?, money: MoneyFormat = .plain) -> String {
        line(goal, period: period, money: money) + (account.map { "; in " + Self.account($0, money: money) } ?? "")
    }

    /// `Savings, balance 1,234.00` (`not open yet` before its opening day).
    public static func account(_ account: GoalAccount, money: MoneyFormat = .plain) -> String {
        "\(account.name), balance \(account.balance.map(money.string) ?? "not open yet")"
    }
}

extension GoalText {
    /// `upcoming`'s goals: what each budget with a target needs set aside this period.
    public static func goalsAsTable(_ statuses: [BudgetStatus], money: MoneyFormat = .plain) -> String {
        var table = Table([.left("Budget"), .left("Target"), .right("Funded"), .right("Needed"), .left("Goal")])
        for status in statuses {
            guard let goal = status.goal else { continue }
            table.append([
                status.budget.name, BudgetPhrases.target(goal.target, period: status.budget.period, money: money), money.string(goal.funded),
                money.string(goal.needed), progress(goal, money: money),
            ])
        }
        return table.rendered()
    }
}
