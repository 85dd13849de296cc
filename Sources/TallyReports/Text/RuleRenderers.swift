import TallyCore

extension ListRenderers {
    /// `rule list`: one line per rule in import order.
    public static func rulesAsTable(_ rules: [ImportRule]) -> String {
        var table = Table([.right("ID"), .left("Pattern"), .left("Budget"), .left("Tags"), .left("Rename"), .right("Priority")])
        for rule in rules {
            table.append([
                String(rule.id ?? 0), rule.pattern, rule.budget, rule.tags.joined(separator: ", "), rule.rename ?? "", String(rule.priority),
            ])
        }
        return table.rendered()
    }
}

extension ListJSON {
    /// `rule list --json`: `rename` is `null` when the rule keeps the name.
    public struct RuleItem: Encodable, Sendable {
        public var id: Int64
        public var pattern: String
        public var budget: String
        public var tags: [String]
        public var rename: Nullable<String>
        public var priority: Int

        public init(_ rule: ImportRule) {
            id = rule.id ?? 0
            pattern = rule.pattern
            budget = rule.budget
            tags = rule.tags
            rename = Nullable(rule.rename)
            priority = rule.priority
        }
    }
}
