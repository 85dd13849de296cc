/// How often a recurring rule comes due.
public enum RecurringFrequency: String, Hashable, Sendable, CaseIterable, Codable {
    case day, week, month, year
}

/// A bill that comes back: rent, a subscription, insurance. Its occurrences (see
/// `RecurringOccurrences.swift`) become ordinary expenses when `recurring post` runs.
public struct RecurringRule: Identifiable, Hashable, Sendable, Codable {
    public static let maximumInterval = 1_000

    /// Assigned by the store; `nil` until the rule is saved.
    public var id: Int64?
    public var name: String
    public var budgetID: Int64
    public var amount: Money
    public var quantity: Int64
    /// Normalized like an expense's tags once validated.
    public var tags: [String]
    public var every: RecurringFrequency
    /// Every `interval` days, weeks, months or years; at least 1.
    public var interval: Int
    /// The day of the month (1–31, a 31st being each month's last day) for a monthly rule, the
    /// weekday (0 Monday … 6 Sunday) for a weekly one; `nil` takes the start date's. Daily and
    /// yearly rules have none: a yearly rule falls on its start's month and day.
    public var day: Int?
    public var start: Day
    /// The last day an occurrence may fall on, if any.
    public var until: Day?
    /// Occurrences that are not due, sorted.
    public var skips: [Day]

    public init(
        id: Int64? = nil, name: String, budgetID: Int64, amount: Money, quantity: Int64 = 1, tags: [String] = [],
        every: RecurringFrequency, interval: Int = 1, day: Int? = nil, start: Day, until: Day? = nil, skips: [Day] = []
    ) {
        self.id = id
        self.name = name
        self.budgetID = budgetID
        self.amount = amount
        self.quantity = quantity
        self.tags = tags
        self.every = every
        self.interval = interval
        self.day = day
        self.start = start
        self.until = until
        self.skips = skips
    }

    /// `amount × quantity`: what each occurrence costs.
    public func total() throws(TallyError) -> Money {
        try amount.multiplied(by: quantity)
    }

    /// The rule with its name trimmed, tags normalized and skips sorted, or the first broken rule.
    /// The name, amount, quantity and tags follow the expense rules: each occurrence becomes one.
    public func validated() throws(TallyError) -> RecurringRule {
        var rule = self
        rule.name = try NameKey.validated(name, kind: .expense, maximumLength: Expense.maximumNameLength)
        try Expense.checkAmount(amount)
        try Expense.checkQuantity(quantity)
        rule.tags = try Expense.normalizedTags(tags)
        try RecurringRule.checkInterval(interval)
        if let day { try RecurringRule.checkDay(day, every: every) }
        try RecurringRule.checkUntil(until, start: start)
        _ = try total()
        rule.skips = Array(Set(skips)).sorted()
        return rule
    }

    /// An interval is a whole number from 1 to ``maximumInterval``.
    public static func checkInterval(_ interval: Int) throws(TallyError) {
        guard (1...maximumInterval).contains(interval) else { throw .invalidInterval(interval) }
    }

    /// A monthly rule's day is 1–31, a weekly rule's a weekday 0–6; other rules take none.
    public static func checkDay(_ day: Int, every: RecurringFrequency) throws(TallyError) {
        switch every {
        case .month: guard (1...31).contains(day) else { throw .invalidRecurringDay(String(day), every) }
        case .week: guard (0...6).contains(day) else { throw .invalidRecurringDay(String(day), every) }
        case .day, .year: throw .recurringDayNotApplicable(every)
        }
    }

    public static func checkUntil(_ until: Day?, start: Day) throws(TallyError) {
        if let until, until < start { throw .untilBeforeStart(start: start, until: until) }
    }

    /// The weekday names `--day` takes for a weekly rule, Monday first.
    public static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// Reads `--day`: a number for a monthly rule, a weekday (`mon`, `monday`) for a weekly one.
    public static func parseDay(_ text: String, every: RecurringFrequency) throws(TallyError) -> Int {
        let word = text.lowercased()
        switch every {
        case .month:
            guard let day = Int(word), (1...31).contains(day) else { throw .invalidRecurringDay(text, every) }
            return day
        case .week:
            guard let index = DatePhrase.weekdayNumber(Array(word.utf8)) else { throw .invalidRecurringDay(text, every) }
            return index
        case .day, .year:
            throw .recurringDayNotApplicable(every)
        }
    }

    /// The `--day` a rule shows: `15`, `mon`, or `nil` for daily and yearly rules.
    public var dayText: String? {
        switch every {
        case .month: String(effectiveDay)
        case .week: RecurringRule.weekdayNames[effectiveDay]
        case .day, .year: nil
        }
    }

    /// The day of the month or weekday occurrences fall on: ``day`` or the start date's.
    public var effectiveDay: Int {
        if let day { return day }
        return every == .week ? start.weekday : start.day
    }
}

/// An occurrence that was paid: posted as a new expense by `recurring post`, or matched to an
/// expense already recorded. `expenseID` is `nil` once that expense was removed; the occurrence
/// stays paid, so removing a posted bill does not bring it back.
public struct RecurringPayment: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case posted, matched
    }

    public var ruleID: Int64
    public var date: Day
    public var expenseID: Int64?
    public var kind: Kind

    public init(ruleID: Int64, date: Day, expenseID: Int64?, kind: Kind) {
        self.ruleID = ruleID
        self.date = date
        self.expenseID = expenseID
        self.kind = kind
    }
}

/// A rule as a JSON backup declares it: its budget by name and the occurrences already paid,
/// which stay paid once restored (without the expense that paid them, whose id the import
/// renumbers), so a restored ledger never posts a bill twice.
public struct DeclaredRecurringRule: Hashable, Sendable {
    public var rule: RecurringRule
    public var budgetName: String
    public var posted: [Day]
    public var matched: [Day]

    public init(rule: RecurringRule, budgetName: String, posted: [Day] = [], matched: [Day] = []) {
        self.rule = rule
        self.budgetName = budgetName
        self.posted = posted
        self.matched = matched
    }

    /// A backup's rules are restored like its settings: only into a ledger with no rule yet, so
    /// importing a backup again (forced) or into a ledger with its own bills adds none twice.
    public static func restores(ledgerHasRules: Bool) -> Bool { !ledgerHasRules }

    /// The rules of a ledger as a backup declares them: each with its budget's name (`names`, by
    /// budget id; a rule of a budget not named is left out) and the days it has paid.
    public static func declaring(_ rules: [RecurringRule], payments: [RecurringPayment], names: [Int64: String]) -> [DeclaredRecurringRule] {
        rules.compactMap { rule in
            guard let name = names[rule.budgetID] else { return nil }
            let paid = payments.filter { $0.ruleID == rule.id }
            return DeclaredRecurringRule(
                rule: rule, budgetName: name, posted: paid.filter { $0.kind == .posted }.map(\.date),
                matched: paid.filter { $0.kind == .matched }.map(\.date))
        }
    }

    /// The payments to record for `ruleID` once the rule is saved.
    public func payments(ruleID: Int64) -> [RecurringPayment] {
        posted.map { RecurringPayment(ruleID: ruleID, date: $0, expenseID: nil, kind: .posted) }
            + matched.map { RecurringPayment(ruleID: ruleID, date: $0, expenseID: nil, kind: .matched) }
    }
}
