import TallyCore

/// The fields of a recurring rule as `recurring add` and `recurring edit` take them; `nil`
/// leaves a field as it is (or, for `add`, takes its default).
public struct RecurringRuleChanges: Sendable {
    public var name: String?
    public var amount: Money?
    /// The budget's name, ignoring case and accents.
    public var budget: String?
    public var every: RecurringFrequency?
    public var interval: Int?
    /// `--day` as typed: read against the rule's frequency once that is known.
    public var day: String?
    public var start: Day?
    public var until: Day?
    public var quantity: Int64?
    public var tags: [String]?

    public init(
        name: String? = nil, amount: Money? = nil, budget: String? = nil, every: RecurringFrequency? = nil, interval: Int? = nil,
        day: String? = nil, start: Day? = nil, until: Day? = nil, quantity: Int64? = nil, tags: [String]? = nil
    ) {
        self.name = name
        self.amount = amount
        self.budget = budget
        self.every = every
        self.interval = interval
        self.day = day
        self.start = start
        self.until = until
        self.quantity = quantity
        self.tags = tags
    }

    /// `rule` with these changes, validated, its budget still to be resolved by name.
    func applied(to rule: RecurringRule) throws(TallyError) -> RecurringRule {
        var rule = rule
        if let name { rule.name = name }
        if let amount { rule.amount = amount }
        if let interval { rule.interval = interval }
        if let start { rule.start = start }
        if let until { rule.until = until }
        if let quantity { rule.quantity = quantity }
        if let tags { rule.tags = tags }
        if let every, every != rule.every {
            rule.every = every
            // A day of the month means nothing to a weekly rule, and the other way round.
            rule.day = nil
        }
        if let day { rule.day = try RecurringRule.parseDay(day, every: rule.every) }
        return try rule.validated()
    }
}

/// `recurring add`: a new rule in a budget named as the user typed it.
public struct AddRecurringRule: Sendable {
    public var name: String
    public var amount: Money
    public var budget: String
    public var every: RecurringFrequency
    public var changes: RecurringRuleChanges
    public var today: Day

    /// `changes` holds the optional fields; `start` defaults to `today`.
    public init(name: String, amount: Money, budget: String, every: RecurringFrequency, changes: RecurringRuleChanges, today: Day = Day.today()) {
        self.name = name
        self.amount = amount
        self.budget = budget
        self.every = every
        self.changes = changes
        self.today = today
    }

    public func run(in ledger: Ledger) throws(TallyError) -> RecurringRuleSummary {
        // Checked before the ledger opens: a broken rule writes nothing, not even a new file.
        let draft = try changes.applied(
            to: RecurringRule(name: name, budgetID: 0, amount: amount, every: every, start: changes.start ?? today))
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let owner = try store.budget(named: budget)
            var rule = draft
            rule.budgetID = owner.id ?? 0
            let saved = try store.addRecurringRule(rule)
            return RecurringRuleSummary(
                rule: saved, budgetName: owner.name, next: RecurringSchedule.next(saved, payments: [], budget: owner), lastPaid: nil)
        }
    }
}

/// `recurring edit`: changes the given fields of a rule. Occurrences already paid stay paid.
public struct EditRecurringRule: Sendable {
    public var id: Int64
    public var changes: RecurringRuleChanges

    public init(id: Int64, changes: RecurringRuleChanges) {
        self.id = id
        self.changes = changes
    }

    /// The rule before and after.
    public func run(in ledger: Ledger) throws(TallyError) -> (before: RecurringRule, after: RecurringRuleSummary) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let before = try store.recurringRule(id: id)
            var rule = try changes.applied(to: before)
            var owner: Budget?
            if let budget = changes.budget {
                owner = try store.budget(named: budget)
                rule.budgetID = owner?.id ?? 0
            }
            let saved = try store.updateRecurringRule(rule)
            let payments = try store.recurringPayments()
            var budget = owner
            if budget == nil { budget = try store.budgets().first { $0.id == saved.budgetID } }
            return (before, RecurringReads.summary(saved, budget: budget, payments: payments))
        }
    }
}

/// `recurring remove`: the rule goes; the expenses it posted stay.
public struct RemoveRecurringRule: Sendable {
    public var id: Int64

    public init(id: Int64) { self.id = id }

    public func run(in ledger: Ledger) throws(TallyError) -> RecurringRule {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let rule = try store.recurringRule(id: id)
            try store.removeRecurringRule(id: id)
            return rule
        }
    }
}

/// `recurring skip`: one scheduled occurrence is not due.
public struct SkipOccurrence: Sendable {
    public var id: Int64
    public var date: Day

    public init(id: Int64, date: Day) {
        self.id = id
        self.date = date
    }

    public func run(in ledger: Ledger) throws(TallyError) -> RecurringRule {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var rule = try store.recurringRule(id: id)
            guard rule.isScheduled(on: date) else { throw .notAnOccurrence(ruleID: id, day: date) }
            rule.skips.append(date)
            return try store.updateRecurringRule(rule)
        }
    }
}

/// `recurring list`: every rule with its budget, next due and last paid occurrence.
public struct ListRecurringRules: Sendable {
    public init() {}

    public func run(in ledger: Ledger) throws(TallyError) -> [RecurringRuleSummary] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            try store.reading { (rows: any LedgerRows) throws(TallyError) in
                var budgets: [Int64: Budget] = [:]
                for budget in try rows.budgets() { budgets[budget.id ?? 0] = budget }
                let (rules, payments) = try rows.recurring()
                return rules.map { rule in
                    RecurringReads.summary(rule, budget: budgets[rule.budgetID], payments: payments)
                }
            }
        }
    }
}

/// `recurring post`: every due occurrence through a day becomes an expense or is matched to one.
public struct PostRecurring: Sendable {
    public var through: Day
    public var dryRun: Bool

    public init(through: Day = Day.today(), dryRun: Bool = false) {
        self.through = through
        self.dryRun = dryRun
    }

    /// What was (or would be) posted and matched, with the names of the budgets by id.
    public func run(in ledger: Ledger) throws(TallyError) -> (posts: [RecurringPost], budgetNames: [Int64: String]) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let posts = try store.postRecurring(through: through, dryRun: dryRun)
            return (posts, posts.isEmpty ? [:] : try RecurringReads.budgetNames(store))
        }
    }
}

/// `upcoming`: the overdue occurrences, then those of the next days.
public struct ListUpcoming: Sendable {
    public static let defaultDays = 30

    public var today: Day
    public var days: Int

    public init(today: Day = Day.today(), days: Int = ListUpcoming.defaultDays) {
        self.today = today
        self.days = days
    }

    public func run(in ledger: Ledger) throws(TallyError) -> (occurrences: [RecurringOccurrence], budgetNames: [Int64: String]) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            try store.reading { (rows: any LedgerRows) throws(TallyError) in
                let budgets = try rows.budgets()
                let (rules, payments) = try rows.recurring()
                let list = RecurringSchedule.upcoming(rules, payments: payments, today: today, days: days, budgets: budgets)
                return (list, RecurringReads.names(of: budgets))
            }
        }
    }
}

enum RecurringReads {
    static func budgetNames(_ store: any DataAccess) throws(TallyError) -> [Int64: String] {
        names(of: try store.budgets())
    }

    static func names(of budgets: [Budget]) -> [Int64: String] {
        var names: [Int64: String] = [:]
        for budget in budgets { names[budget.id ?? 0] = budget.name }
        return names
    }

    static func summary(_ rule: RecurringRule, budget: Budget?, payments: [RecurringPayment]) -> RecurringRuleSummary {
        RecurringRuleSummary(
            rule: rule, budgetName: budget?.name ?? "", next: RecurringSchedule.next(rule, payments: payments, budget: budget),
            lastPaid: RecurringSchedule.lastPaid(rule, payments: payments))
    }
}
