import Foundation

/// A payee rule: rows of an imported file whose name matches `pattern` go to `budget`, gain
/// `tags` and, with `rename`, take that name. Rules apply only to rows without a budget cell.
///
/// A split rule (`split`) makes each matching debit a split expense, its lines shared as
/// `tally add --split` shares them (``ExpenseLines``); a refund rule (`refund`) makes a matching
/// credit of a bank import a refund into its budget (see `ImportRule+Split.swift`).
///
/// A transfer rule (`transferTo`) instead makes a bank statement's matching entries transfers
/// between the statement's account and that account: a debit into it, a credit out of it. It has
/// no budget (`budget` is empty) and no tags; CSV imports, which hold only expenses, skip it.
///
/// `pattern` is kept as the user typed it: plain text matches anywhere in the name ignoring case,
/// diacritics and width (as `NameKey` folds names and `expense list --search` matches); text
/// between slashes (`/^amzn mktp/`) is a regular expression, see ``RulePattern``.
public struct ImportRule: Hashable, Sendable, Codable {
    public static let defaultPriority = 100
    public static let priorities = 0...1_000_000
    public static let maximumPatternLength = 200

    public var id: Int64?
    public var pattern: String
    /// The budget's name; stores keep the budget itself, so a renamed budget keeps its rules.
    public var budget: String
    public var tags: [String]
    public var rename: String?
    /// Lower numbers are tried first; ties go to the lower id.
    public var priority: Int
    /// A transfer rule's account, by name, as the ledger spells it; `nil` for a budget rule.
    public var transferTo: String?
    /// A transfer rule's account id, which stores keep (a renamed account keeps its rules); set
    /// when the rule is saved.
    public var transferAccountID: Int64?
    /// A split rule's lines, each naming its budget as the ledger spells it; empty for a rule
    /// with one budget. `budget` is then the first line's.
    public var split: [NamedLine] = []
    /// Each line's budget id, which stores keep (a renamed budget keeps its rules); set when the
    /// rule is saved.
    public var splitBudgetIDs: [Int64] = []
    /// A refund rule: a matching credit (money in) of a bank import is a refund into `budget`.
    public var refund = false

    public init(
        id: Int64? = nil, pattern: String, budget: String, tags: [String] = [], rename: String? = nil,
        priority: Int = ImportRule.defaultPriority, transferTo: String? = nil
    ) {
        self.id = id
        self.transferTo = transferTo
        self.pattern = pattern
        self.budget = budget
        self.tags = tags
        self.rename = rename
        self.priority = priority
    }

    /// The rule with its budget name and rename trimmed and its tags normalized; throws the first
    /// broken rule, including a pattern ``RulePattern`` refuses.
    public func validated() throws(TallyError) -> ImportRule {
        var rule = self
        _ = try RulePattern(pattern)
        if let transferTo {
            guard budget.isEmpty, tags.isEmpty, split.isEmpty, !refund else { throw .transferRuleWithBudget }
            rule.transferTo = try NameKey.validated(transferTo, kind: .account, maximumLength: Account.maximumNameLength)
        } else if !split.isEmpty {
            rule.split = try Self.validatedSplit(split, refund: refund)
            rule.budget = rule.split[0].budget
        } else {
            rule.budget = try Budget.validatedName(budget)
        }
        rule.tags = try Expense.normalizedTags(tags)
        if let rename {
            rule.rename = try NameKey.validated(rename, kind: .expense, maximumLength: Expense.maximumNameLength)
        }
        guard Self.priorities.contains(priority) else { throw .invalidRulePriority(priority) }
        return rule
    }

    /// What makes two rules the same rule, for a backup restored into a ledger that has some.
    var identity: [String] {
        [pattern, NameKey.lookup(budget), tags.joined(separator: ";"), rename ?? "\u{0}", String(priority), transferTo.map(NameKey.lookup) ?? "",
         refund ? "refund" : "", split.map { NameKey.lookup($0.budget) + "=" + $0.share.text + "," + $0.name + "," + $0.tags.joined(separator: ";") }.joined(separator: "\u{1E}")]
    }

    /// Rules in the order an import tries them: priority, then id.
    public static func ordered(_ rules: [ImportRule]) -> [ImportRule] {
        rules.sorted { ($0.priority, $0.id ?? .max) < ($1.priority, $1.id ?? .max) }
    }
}

/// What a rule decided for one row: the budget, the tags to add and the new name.
public struct RuleDecision: Hashable, Sendable {
    public var ruleID: Int64
    /// Empty for a transfer rule.
    public var budget: String
    public var tags: [String]
    public var rename: String?
    /// A transfer rule's account.
    public var transferTo: String? = nil
    /// A split rule's lines, by budget name; empty for one budget.
    public var split: [NamedLine] = []
    /// A refund rule: a matching credit is a refund into `budget`.
    public var refund = false
}

/// The rules of a ledger compiled once for an import: each row's name is folded once and
/// scanned once for every rule's literal (a plain pattern's text, a regular expression's
/// required ASCII word; ``LiteralScanner``); only rules whose literal occurs are tried, in
/// priority order, and a regular expression without such a word always is. Answers are cached
/// only for names that needed a regular expression: for the rest, a cache lookup (hashing the
/// name, keeping it) cost more than the scan, and a bank file of distinct names filled it.
public struct RuleMatcher: Sendable {
    private struct Compiled: Sendable {
        let pattern: RulePattern
        let decision: RuleDecision
        /// Index of the rule's literal in the scanner; `nil` for a regex without one.
        let literal: Int?
    }

    private let rules: [Compiled]
    /// The rule (index into `rules`) each literal belongs to, and the rules without one (regular
    /// expressions with no required word), which are tried on every name. A name then costs one
    /// scan and a look at the few rules whose literal occurs, not a walk over every rule.
    private let ruleOfLiteral: [Int]
    private let alwaysTried: [Int]
    private let isPlain: [Bool]
    private let scanner: LiteralScanner
    /// Rules to try for the current name, by index; kept to reuse its memory.
    private var candidates: [Int] = []
    /// Index into `rules` by name, for names a regular expression was run on; -1 when none
    /// matched. Emptied when full, to bound memory.
    private var cache: [String: Int] = [:]
    private static let cacheLimit = 16_384
    private let hasRegex: Bool

    public init(_ rules: [ImportRule]) throws(TallyError) {
        var compiled: [Compiled] = []
        var literals: [[UInt8]] = []
        var ruleOfLiteral: [Int] = []
        var alwaysTried: [Int] = []
        for rule in ImportRule.ordered(rules) {
            let pattern = try RulePattern(rule.pattern)
            var literal: Int?
            if let needle = pattern.requiredLiteral, !needle.isEmpty {
                literal = literals.count
                literals.append(needle)
                ruleOfLiteral.append(compiled.count)
            } else {
                alwaysTried.append(compiled.count)
            }
            compiled.append(Compiled(
                pattern: pattern,
                decision: RuleDecision(
                    ruleID: rule.id ?? 0, budget: rule.budget, tags: rule.tags, rename: rule.rename, transferTo: rule.transferTo,
                    split: rule.split, refund: rule.refund),
                literal: literal))
        }
        self.rules = compiled
        self.ruleOfLiteral = ruleOfLiteral
        self.alwaysTried = alwaysTried
        isPlain = compiled.map { if case .plain = $0.pattern { true } else { false } }
        hasRegex = compiled.contains { if case .regex = $0.pattern { true } else { false } }
        scanner = LiteralScanner(literals)
    }

    public var isEmpty: Bool { rules.isEmpty }

    /// The first rule that matches `name`, in priority order.
    public mutating func decision(for name: String) -> RuleDecision? {
        guard !rules.isEmpty else { return nil }
        if hasRegex, let index = cache[name] { return index < 0 ? nil : rules[index].decision }
        // An ASCII name is scanned as it is (the scanner ignores ASCII case); the folded copy a
        // regular expression runs on is made only when one runs.
        candidates.removeAll(keepingCapacity: true)
        candidates.append(contentsOf: alwaysTried)
        var raw = name
        var folded: String?
        let ruleOfLiteral = ruleOfLiteral
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {
            raw.withUTF8 { bytes in scanner.scan(bytes) { candidates.append(ruleOfLiteral[$0]) } }
        } else {
            var text = RulePattern.fold(name)
            text.withUTF8 { bytes in scanner.scan(bytes) { candidates.append(ruleOfLiteral[$0]) } }
            folded = text
        }
        var result = -1
        var ranRegex = false
        if !candidates.isEmpty {
            candidates.sort()
            var previous = -1
            for index in candidates where index != previous {
                previous = index
                if isPlain[index] {
                    result = index
                    break
                }
                ranRegex = true
                if folded == nil { folded = RulePattern.fold(name) }
                if rules[index].pattern.matches(folded: folded ?? "") {
                    result = index
                    break
                }
            }
        }
        if ranRegex {
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[name] = result
        }
        return result < 0 ? nil : rules[result].decision
    }
}

extension ImportRule {
    enum CodingKeys: String, CodingKey {
        case id, pattern, budget, tags, rename, priority, transferTo, transferAccountID, split, splitBudgetIDs, refund
    }

    /// Reads a rule as change sets keep it; those recorded before rules could split or refund
    /// have neither key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        pattern = try container.decode(String.self, forKey: .pattern)
        budget = try container.decode(String.self, forKey: .budget)
        tags = try container.decode([String].self, forKey: .tags)
        rename = try container.decodeIfPresent(String.self, forKey: .rename)
        priority = try container.decode(Int.self, forKey: .priority)
        transferTo = try container.decodeIfPresent(String.self, forKey: .transferTo)
        transferAccountID = try container.decodeIfPresent(Int64.self, forKey: .transferAccountID)
        split = try container.decodeIfPresent([NamedLine].self, forKey: .split) ?? []
        splitBudgetIDs = try container.decodeIfPresent([Int64].self, forKey: .splitBudgetIDs) ?? []
        refund = try container.decodeIfPresent(Bool.self, forKey: .refund) ?? false
    }
}
