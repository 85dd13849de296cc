import TallyCore

/// `rule add`: a new import rule.
public struct AddRule: Sendable {
    public var rule: ImportRule

    public init(_ rule: ImportRule) {
        self.rule = rule
    }

    public func run(in ledger: Ledger) throws(TallyError) -> ImportRule {
        let rule = try rule.validated()
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.addRule(rule) }
    }
}

/// `rule list`: every rule, in the order an import tries them.
public struct ListRules: Sendable {
    public init() {}

    public func run(in ledger: Ledger) throws(TallyError) -> [ImportRule] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.rules() }
    }
}

/// `rule edit ID`: changes what is given, keeps the rest.
public struct EditRule: Sendable {
    public var id: Int64
    public var pattern: String?
    public var budget: String?
    /// Replaces the rule's tags when given.
    public var tags: [String]?
    /// `.some(nil)` removes the new name.
    public var rename: String??
    public var priority: Int?
    /// Makes the rule a transfer rule to this account; `budget` makes it a budget rule again.
    public var transferTo: String?
    /// Makes the rule a split rule with these lines; `budget` makes it a one-budget rule again.
    public var split: [NamedLine]?
    /// Makes matching credits refunds (`true`), or no longer (`false`).
    public var refund: Bool?

    public init(id: Int64, pattern: String? = nil, budget: String? = nil, tags: [String]? = nil, rename: String?? = nil, priority: Int? = nil) {
        self.id = id
        self.pattern = pattern
        self.budget = budget
        self.tags = tags
        self.rename = rename
        self.priority = priority
    }

    /// The rule before and after.
    public func run(in ledger: Ledger) throws(TallyError) -> (before: ImportRule, after: ImportRule) {
        if let pattern { _ = try RulePattern(pattern) }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            guard let before = try store.rules().first(where: { $0.id == id }) else { throw .ruleNotFound(id) }
            var rule = before
            if let pattern { rule.pattern = pattern }
            if let budget {
                rule.budget = budget
                rule.transferTo = nil
                rule.transferAccountID = nil
                rule.split = []
                rule.splitBudgetIDs = []
            }
            if let split {
                rule.split = split
                rule.budget = split.first?.budget ?? ""
                rule.transferTo = nil
                rule.transferAccountID = nil
                // A split is not a refund: a rule that refunded stops when it splits.
                rule.refund = false
            }
            if let transferTo {
                rule.budget = ""
                rule.transferTo = transferTo
                rule.split = []
                rule.splitBudgetIDs = []
                rule.refund = false
            }
            if let refund { rule.refund = refund }
            if let tags { rule.tags = tags }
            if let rename { rule.rename = rename }
            if let priority { rule.priority = priority }
            return (before, try store.updateRule(rule))
        }
    }
}

/// `rule remove ID`.
public struct RemoveRule: Sendable {
    public var id: Int64

    public init(id: Int64) {
        self.id = id
    }

    public func run(in ledger: Ledger) throws(TallyError) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.removeRule(id: id) }
    }
}

/// `rule test TEXT`: the rule an import would apply to a row named `text`, if any.
public struct TestRules: Sendable {
    public var text: String

    public init(text: String) {
        self.text = text
    }

    public func run(in ledger: Ledger) throws(TallyError) -> ImportRule? {
        let rules = try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.rules() }
        var matcher = try RuleMatcher(rules)
        guard let decision = matcher.decision(for: text) else { return nil }
        return rules.first { $0.id == decision.ruleID }
    }
}

/// `rule suggest`: rules the ledger's history supports (see ``RuleSuggester``).
public struct SuggestRules: Sendable {
    public static let defaultMinimum = 3
    public var minimum: Int

    public init(minimum: Int = SuggestRules.defaultMinimum) {
        self.minimum = minimum
    }

    public func run(in ledger: Ledger) throws(TallyError) -> [RuleSuggestion] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var suggester = RuleSuggester()
            try store.forEachExpense(ExpenseQuery()) { (expense: Expense) throws(TallyError) in suggester.add(expense) }
            return try suggester.suggestions(minimum: minimum, budgets: try store.budgets(), existing: try store.rules())
        }
    }
}
