import TallyCore

extension ListRenderers {
    /// `rule list`: one line per rule in import order.
    public static func rulesAsTable(_ rules: [ImportRule]) -> String {
        var table = Table([.right("ID"), .left("Pattern"), .left("Budget"), .left("Tags"), .left("Rename"), .right("Priority")])
        for rule in rules {
            table.append([
                String(rule.id ?? 0), rule.pattern, rule.transferTo.map { "transfer to \($0)" } ?? rule.budget, rule.tags.joined(separator: ", "),
                rule.rename ?? "", String(rule.priority),
            ])
        }
        return table.rendered()
    }
}

extension ListJSON {
    /// `rule list --json`: `rename` is `null` when the rule keeps the name; a transfer rule has
    /// `budget` `null` and its account as `transferTo`, which is `null` for the others.
    public struct RuleItem: Encodable, Sendable {
        public var id: Int64
        public var pattern: String
        public var budget: Nullable<String>
        public var tags: [String]
        public var rename: Nullable<String>
        public var priority: Int
        public var transferTo: Nullable<String>

        public init(_ rule: ImportRule) {
            id = rule.id ?? 0
            pattern = rule.pattern
            budget = Nullable(rule.transferTo == nil ? rule.budget : nil)
            transferTo = Nullable(rule.transferTo)
            tags = rule.tags
            rename = Nullable(rule.rename)
            priority = rule.priority
        }
    }
}

extension ListRenderers {
    /// `profile list`: one line per profile, unset settings as `-`.
    public static func profilesAsTable(_ profiles: [ImportProfile]) -> String {
        var table = Table([.left("Name"), .left("Columns"), .left("Date format"), .left("Sign"), .left("Delimiter"), .left("Fallback")])
        for profile in profiles {
            table.append([
                profile.name, profile.columns ?? "-", profile.dateFormat ?? "-", profile.expenseSign ?? "-", profile.delimiter ?? "-",
                fallbackText(profile),
            ])
        }
        return table.rendered()
    }

    /// `profile show`: one setting a line.
    public static func profileDetail(_ profile: ImportProfile) -> String {
        [
            "name \(profile.name)", "columns \(profile.columns ?? "-")", "date-format \(profile.dateFormat ?? "-")",
            "expense-sign \(profile.expenseSign ?? "-")", "delimiter \(profile.delimiter ?? "-")",
            "decimal-comma \(profile.decimalComma.map { $0 ? "yes" : "no" } ?? "-")", "currency \(profile.currency ?? "-")",
            "encoding \(profile.encoding ?? "-")", "skip \(profile.skip.map(String.init) ?? "-")",
            "fallback \(fallbackText(profile))",
        ].joined(separator: "\n")
    }

    private static func fallbackText(_ profile: ImportProfile) -> String {
        guard let budget = profile.fallbackBudget else { return "-" }
        return profile.uncategorized ? "\(budget) (uncategorized)" : budget
    }
}

extension ListJSON {
    /// `profile list --json` and `profile show --json`: unset settings are `null`.
    public struct ProfileItem: Encodable, Sendable {
        public var name: String
        public var columns: Nullable<String>
        public var dateFormat: Nullable<String>
        public var expenseSign: Nullable<String>
        public var delimiter: Nullable<String>
        public var fallback: Nullable<String>
        public var uncategorized: Bool
        public var decimalComma: Bool
        public var currency: Nullable<String>
        public var encoding: Nullable<String>
        public var skip: Nullable<Int>

        public init(_ profile: ImportProfile) {
            skip = Nullable(profile.skip)
            encoding = Nullable(profile.encoding)
            decimalComma = profile.decimalComma ?? false
            currency = Nullable(profile.currency)
            name = profile.name
            columns = Nullable(profile.columns)
            dateFormat = Nullable(profile.dateFormat)
            expenseSign = Nullable(profile.expenseSign)
            delimiter = Nullable(profile.delimiter)
            fallback = Nullable(profile.fallbackBudget)
            uncategorized = profile.uncategorized
        }
    }
}
