import Foundation

/// A rule `rule suggest` proposes: names that, once normalized, always went to one budget.
public struct RuleSuggestion: Hashable, Sendable {
    /// The normalized name, a plain pattern.
    public var pattern: String
    public var budget: String
    /// How many expenses it covers.
    public var count: Int
}

/// Proposes rules from a ledger's history, one expense at a time (an export-sized history
/// holds one expense at a time plus a count per distinct normalized name and budget).
public struct RuleSuggester: Sendable {
    private var counts: [String: [Int64: Int]] = [:]

    public init() {}

    /// A name as suggestions group it: folded like a name key, with every word holding a digit
    /// (amounts, dates, card and reference numbers) and every masking word (`****`, `xxxx`,
    /// `#`) dropped, so "SPAR 0412 12/03" and "Spar 0977 01/04" are one payee.
    public static func normalized(_ name: String) -> String {
        let words = NameKey.make(name).split(whereSeparator: { $0.isWhitespace }).filter { word in
            !word.contains(where: \.isNumber) && !word.allSatisfy({ "*x#/.-:".contains($0) })
        }
        return words.joined(separator: " ")
    }

    public mutating func add(_ expense: Expense) {
        let key = Self.normalized(expense.name)
        guard key.count >= 3 else { return }
        counts[key, default: [:]][expense.budgetID, default: 0] += 1
    }

    /// Names that went to one budget at least `minimum` times and never elsewhere, that no
    /// existing rule already sends anywhere; most frequent first, then by pattern.
    public func suggestions(minimum: Int, budgets: [Budget], existing rules: [ImportRule]) throws(TallyError) -> [RuleSuggestion] {
        var matcher = try RuleMatcher(rules)
        let names = Dictionary(budgets.compactMap { budget in budget.id.map { ($0, budget.name) } }, uniquingKeysWith: { first, _ in first })
        var found: [RuleSuggestion] = []
        for (pattern, byBudget) in counts where byBudget.count == 1 {
            guard let (budgetID, count) = byBudget.first, count >= minimum, let budget = names[budgetID] else { continue }
            guard matcher.decision(for: pattern) == nil else { continue }
            found.append(RuleSuggestion(pattern: pattern, budget: budget, count: count))
        }
        return found.sorted { ($1.count, $0.pattern) < ($0.count, $1.pattern) }
    }
}
