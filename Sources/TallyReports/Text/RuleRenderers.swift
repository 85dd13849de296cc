import TallyCore

extension ListRenderers {
    /// `rule list`: one line per rule in import order.
    public static func rulesAsTable(_ rules: [ImportRule]) -> String {
        var table = Table([.right("ID"), .left("Pattern"), .left("Budget"), .left("Tags"), .left("Rename"), .right("Priority")])
        for rule in rules {
            table.append([
                String(rule.id ?? 0), rule.pattern, target(of: rule), rule.tags.joined(separator: ", "),
                rule.rename ?? "", String(rule.priority),
            ])
        }
        return table.rendered()
    }

    /// Where a rule sends rows: `transfer to Savings`, `Groceries`, a split as `add --split`
    /// takes it (`Groceries=70%, Household=rest`), or `Household (refunds too)` for a rule whose
    /// matching credits come back as refunds.
    public static func target(of rule: ImportRule) -> String {
        if let account = rule.transferTo { return "transfer to \(account)" }
        if !rule.split.isEmpty { return rule.split.map { "\($0.budget)=\($0.share.text)" }.joined(separator: ", ") }
        return rule.refund ? "\(rule.budget) (refunds too)" : rule.budget
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
        /// A split rule's lines, `null` for the others; `budget` is then the first line's.
        public var split: Nullable<[RuleLineItem]>
        /// Whether matching credits of a bank import are refunds into `budget`.
        public var refund: Bool

        public init(_ rule: ImportRule) {
            split = Nullable(rule.split.isEmpty ? nil : rule.split.map(RuleLineItem.init))
            refund = rule.refund
            id = rule.id ?? 0
            pattern = rule.pattern
            budget = Nullable(rule.transferTo == nil ? rule.budget : nil)
            transferTo = Nullable(rule.transferTo)
            tags = rule.tags
            rename = Nullable(rule.rename)
            priority = rule.priority
        }
    }

    /// A line of a split rule: its budget, its share as typed (`80`, `60%` or `rest`), and its
    /// own name and tags (`null` and empty when the row's).
    public struct RuleLineItem: Encodable, Sendable {
        public var budget: String
        public var share: String
        public var name: Nullable<String>
        public var tags: [String]

        init(_ line: NamedLine) {
            budget = line.budget
            share = line.share.text
            name = Nullable(line.name.isEmpty ? nil : line.name)
            tags = line.tags
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
