/// A budget's goal: an amount to hold by a month (a sinking fund, `by` set) or to have set aside
/// in each of the budget's own periods (`by` `nil`). Only monthly and yearly budgets have one.
public struct BudgetTarget: Hashable, Sendable, Codable {
    /// What the budget should hold, in the same bounds as a limit.
    public var amount: Money
    /// The period (a month under the ledger's calendar) by which a sinking fund should hold
    /// ``amount``; `nil` for a target set aside every period.
    public var by: Month?
    /// The account the money sits in, shown beside the fund; its balance is not counted in.
    public var accountID: Int64?

    public init(amount: Money, by: Month? = nil, accountID: Int64? = nil) {
        self.amount = amount
        self.by = by
        self.accountID = accountID
    }

    /// Whether it is a sinking fund (saving toward ``amount`` by ``by``).
    public var isByDate: Bool { by != nil }

    /// The target's own rules, given the budget it belongs to: an amount like a limit, a
    /// renewing budget, and a date not before the budget's explicit first period.
    func check(for budget: Budget) throws(TallyError) {
        try checkAmount()
        guard budget.period != .once else { throw .targetNeedsRenewingPeriod }
        if let by, let start = budget.start, budget.periodKey(of: by) < budget.periodKey(of: start) {
            throw .targetBeforeStart(by: by, start: budget.periodKey(of: start))
        }
    }

    /// The amount is above zero and at most ``Money/maximumInput``, as a limit's.
    public func checkAmount() throws(TallyError) {
        guard amount.cents > 0 else { throw .targetNotPositive(amount) }
        guard amount <= Money.maximumInput else { throw .amountOutOfRange(amount.plainString) }
    }

    /// A per-period target (`--every`) is for the budget's own period: one that names another
    /// cadence is refused rather than converted, so what is asked is what is shown.
    public static func checkCadence(_ every: BudgetPeriod, of budget: Budget) throws(TallyError) {
        guard budget.period != .once else { throw .targetNeedsRenewingPeriod }
        guard every == budget.period else { throw .targetCadenceMismatch(budget: budget.name, period: budget.period) }
    }
}

/// How a budget stands against its target in the view of one period.
public enum GoalProgress: String, Hashable, Sendable, CaseIterable {
    /// This period's limit sets aside at least what is needed.
    case onTrack = "on-track"
    /// This period's limit sets aside less than what is needed (by ``GoalFigures/shortfall``).
    case behind
    /// The budget holds the target already.
    case funded
}

/// A budget's figures against its target, computed once from its ``BudgetStatus``: every surface
/// (list, show, report, upcoming, check) shows these.
public struct GoalFigures: Hashable, Sendable {
    public let target: BudgetTarget
    /// What the budget holds toward the target, never below zero: for a sinking fund what is left
    /// (`available − spent`, what carried in included when it rolls over); for a per-period
    /// target what is set aside this period (`available`).
    public let funded: Money
    /// What this period should set aside (see ``needed(remainder:periodsLeft:)``); zero when
    /// what the budget held as the period began reaches the target.
    public let needed: Money
    public let progress: GoalProgress
    /// `needed − limit` when ``progress`` is `behind`, else zero.
    public let shortfall: Money
    /// A sinking fund's periods from this one through its date, this one included (at least 1:
    /// after the date the whole remainder is needed now); `nil` for a per-period target.
    public let periodsLeft: Int?

    /// Plain cent arithmetic: a target and a limit are at most ``Money/maximumInput`` and what is
    /// held is at least zero, so no difference here leaves Int64 and the figures cannot fail.
    init(_ status: BudgetStatus, target: BudgetTarget) {
        self.target = target
        let key = status.budget.periodKey(of: status.month)
        // What the budget held as this period began: what carried in, never below zero, at most the cap.
        var held = max(status.carried, .zero)
        if let cap = status.budget.cap { held = min(held, cap) }
        let remainder = Money(cents: max(target.amount.cents - min(held.cents, target.amount.cents), 0))
        if let by = target.by {
            let left = max(1, status.budget.periods(from: key, through: status.budget.periodKey(of: by)))
            periodsLeft = left
            funded = max(status.remaining, .zero)
            needed = GoalFigures.needed(remainder: remainder, periodsLeft: left)
        } else {
            periodsLeft = nil
            funded = max(status.available, .zero)
            needed = remainder
        }
        if funded >= target.amount {
            progress = .funded
            shortfall = .zero
        } else if status.limit >= needed {
            progress = .onTrack
            shortfall = .zero
        } else {
            progress = .behind
            shortfall = Money(cents: needed.cents - status.limit.cents)
        }
    }

    /// `remainder ÷ periodsLeft`, rounded up to the cent (integer ceiling division), so that
    /// setting it aside every period reaches the target by the date and never falls short by a
    /// rounding.
    public static func needed(remainder: Money, periodsLeft: Int) -> Money {
        guard remainder.cents > 0 else { return .zero }
        let periods = Int64(max(periodsLeft, 1))
        return Money(cents: (remainder.cents + periods - 1) / periods)
    }
}

extension BudgetStatus {
    /// The figures against the budget's target; `nil` when it has none.
    public var goal: GoalFigures? {
        budget.target.map { GoalFigures(self, target: $0) }
    }

    /// Whether the budget is behind its goal: `tally check`'s warning level.
    public var isBehindGoal: Bool { goal?.progress == .behind }
}

extension Budget {
    /// How many of this budget's periods run from period key `first` through `last`, both
    /// included; zero when `last` is before `first`.
    func periods(from first: Month, through last: Month) -> Int {
        let months = (last.year * 12 + last.month) - (first.year * 12 + first.month)
        guard months >= 0 else { return 0 }
        return period == .yearly ? months / 12 + 1 : months + 1
    }
}

/// The account a target names, as the surfaces show it beside the fund: its name and balance
/// (`nil` before its opening day).
public struct GoalAccount: Hashable, Sendable {
    public var name: String
    public var balance: Money?

    public init(name: String, balance: Money?) {
        self.name = name
        self.balance = balance
    }
}

/// A change to a budget's target, as `budget add` and `budget edit` ask for it. What is not
/// given stays as it was: a new amount keeps the target's date, a new date keeps its amount.
public struct TargetChange: Hashable, Sendable {
    /// Set the target's amount.
    public var amount: Money?
    /// Take the target away.
    public var removes: Bool
    /// Make it a sinking fund due by this month.
    public var by: Month?
    /// Make it a target set aside every period, which must be the budget's own.
    public var every: BudgetPeriod?
    /// Link the account with this id (resolved from its name by the caller).
    public var accountID: Int64?
    /// Unlink the account.
    public var removesAccount: Bool

    public init(
        amount: Money? = nil, removes: Bool = false, by: Month? = nil, every: BudgetPeriod? = nil, accountID: Int64? = nil,
        removesAccount: Bool = false
    ) {
        self.amount = amount
        self.removes = removes
        self.by = by
        self.every = every
        self.accountID = accountID
        self.removesAccount = removesAccount
    }

    public var isEmpty: Bool { amount == nil && !removes && by == nil && every == nil && accountID == nil && !removesAccount }
}

extension Budget {
    /// Applies `change` to the target. A budget without a target gets one only with an amount and
    /// either a date or a cadence; a date or an account alone needs a target to change. The
    /// result is checked by ``validated()`` when saved.
    public mutating func apply(_ change: TargetChange) throws(TallyError) {
        if change.removes {
            target = nil
            return
        }
        if let every = change.every { try BudgetTarget.checkCadence(every, of: self) }
        guard var updated = target ?? change.amount.map({ BudgetTarget(amount: $0) }) else {
            if change.accountID != nil { throw .targetAccountNeedsTarget(name) }
            if change.by != nil || change.every != nil { throw .targetNeedsAmount(name) }
            return
        }
        if target == nil, change.by == nil, change.every == nil { throw .targetNeedsSchedule(name) }
        if let amount = change.amount { updated.amount = amount }
        if let by = change.by { updated.by = by }
        if change.every != nil { updated.by = nil }
        if let accountID = change.accountID { updated.accountID = accountID }
        if change.removesAccount { updated.accountID = nil }
        target = updated
    }
}
