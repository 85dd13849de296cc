import TallyCore

/// `recurring list`, `recurring post` and `upcoming` as text tables and `--json`.
public enum RecurringRenderers {
    /// `recurring list`: one row per rule.
    public static func rulesAsTable(_ rules: [RecurringRuleSummary], money: MoneyFormat = .plain) throws(TallyError) -> String {
        var table = Table([
            .right("ID"), .left("Name"), .left("Budget"), .right("Amount"), .right("Qty"), .left("Every"), .left("Next"),
            .left("Last paid"), .left("Tags"),
        ])
        for summary in rules {
            let rule = summary.rule
            table.append([
                String(rule.id ?? 0), rule.name, summary.budgetName, money.string(rule.amount), String(rule.quantity),
                schedule(rule) + (rule.until.map { " until \($0.isoString)" } ?? ""),
                summary.next?.isoString ?? "-", summary.lastPaid?.isoString ?? "-", rule.tags.joined(separator: ", "),
            ])
        }
        return table.rendered()
    }

    /// `month on day 31`, `2 weeks on mon`, `year`.
    public static func schedule(_ rule: RecurringRule) -> String {
        let unit = rule.interval == 1 ? rule.every.rawValue : "\(rule.interval) \(rule.every.rawValue)s"
        let day = rule.dayText.map { rule.every == .week ? " on \($0)" : " on day \($0)" } ?? ""
        return unit + day
    }

    /// `upcoming`: overdue occurrences first, marked.
    public static func upcomingAsTable(
        _ occurrences: [RecurringOccurrence], budgetNames: [Int64: String], money: MoneyFormat = .plain
    ) throws(TallyError) -> String {
        var table = Table([.left("Date"), .right("Rule"), .left("Name"), .left("Budget"), .right("Total"), .left("Status")])
        for occurrence in occurrences {
            table.append([
                occurrence.date.isoString, String(occurrence.rule.id ?? 0), occurrence.rule.name,
                budgetNames[occurrence.rule.budgetID] ?? "", try money.string(occurrence.total), occurrence.overdue ? "OVERDUE" : "due",
            ])
        }
        return table.rendered()
    }

    /// One line per posted or matched occurrence, as `recurring post` reports them.
    public static func postLines(
        _ posts: [RecurringPost], budgetNames: [Int64: String], dryRun: Bool, money: MoneyFormat = .plain
    ) throws(TallyError) -> String {
        var lines: [String] = []
        var outside: [(rule: RecurringRule, days: [Day], range: DayInterval)] = []
        for post in posts {
            let occurrence = post.occurrence
            if case .outsideBudget(let range) = post.outcome {
                if let index = outside.firstIndex(where: { $0.rule.id == occurrence.rule.id }) {
                    outside[index].days.append(occurrence.date)
                } else {
                    outside.append((occurrence.rule, [occurrence.date], range))
                }
                continue
            }
            let what = "\(occurrence.date.isoString) \(occurrence.rule.name) (rule \(occurrence.rule.id ?? 0)), "
                + "\(try money.string(occurrence.total)) in \(budgetNames[occurrence.rule.budgetID] ?? "")"
            switch post.outcome {
            case .posted(let expense):
                lines.append(dryRun ? "Would post \(what)" : "Posted \(what) as expense #\(expense.id ?? 0)")
            case .matched(let expense):
                lines.append(
                    (dryRun ? "Would match " : "Matched ") + what
                        + " to expense #\(expense.id ?? 0) of \(expense.date.isoString), \(try money.string(expense.total()))")
            case .outsideBudget:
                break
            }
        }
        // One line a rule, however many of its occurrences fall outside the budget's days.
        for (rule, days, range) in outside {
            let count = days.count == 1 ? "1 occurrence" : "\(days.count) occurrences"
            let span = days.count == 1 ? "on \(days[0].isoString)" : "from \(days[0].isoString) to \(days[days.count - 1].isoString)"
            lines.append(
                "Not posted: \(count) of \(rule.name) (rule \(rule.id ?? 0)) \(span), outside the days of "
                    + "\(budgetNames[rule.budgetID] ?? ""), \(range.first.isoString) to \(range.last.isoString)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The `--json` of the recurring commands, in the vocabulary of every other `--json`.
public enum RecurringJSON {
    /// A rule as `recurring list --json` shows it: `day` is `15` or `mon` as `--day` takes it,
    /// `null` for daily and yearly rules; `until`, `next` and `lastPaid` are `null` when there is none.
    public struct Rule: Encodable, Equatable, Sendable {
        public let id: Int64
        public let name: String
        public let budget: String
        public let amount: String
        public let quantity: Int64
        public let tags: [String]
        public let every: String
        public let interval: Int
        public let day: String?
        public let start: String
        public let until: String?
        public let next: String?
        public let lastPaid: String?
        public let skips: [String]

        public init(_ summary: RecurringRuleSummary) {
            let rule = summary.rule
            id = rule.id ?? 0
            name = rule.name
            budget = summary.budgetName
            amount = rule.amount.plainString
            quantity = rule.quantity
            tags = rule.tags
            every = rule.every.rawValue
            interval = rule.interval
            day = rule.dayText
            start = rule.start.isoString
            until = rule.until?.isoString
            next = summary.next?.isoString
            lastPaid = summary.lastPaid?.isoString
            skips = rule.skips.map(\.isoString)
        }

        private enum CodingKeys: String, CodingKey {
            case id, name, budget, amount, quantity, tags, every, interval, day, start, until, next, lastPaid, skips
        }

        /// Every key always, absent values as `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(budget, forKey: .budget)
            try container.encode(amount, forKey: .amount)
            try container.encode(quantity, forKey: .quantity)
            try container.encode(tags, forKey: .tags)
            try container.encode(every, forKey: .every)
            try container.encode(interval, forKey: .interval)
            try container.encode(day, forKey: .day)
            try container.encode(start, forKey: .start)
            try container.encode(until, forKey: .until)
            try container.encode(next, forKey: .next)
            try container.encode(lastPaid, forKey: .lastPaid)
            try container.encode(skips, forKey: .skips)
        }
    }

    /// An occurrence as `upcoming --json` lists it: `rule` is the rule's id.
    public struct Occurrence: Encodable, Equatable, Sendable {
        public let rule: Int64
        public let name: String
        public let budget: String
        public let date: String
        public let total: String
        public let overdue: Bool

        public init(_ occurrence: RecurringOccurrence, budgetName: String) throws(TallyError) {
            rule = occurrence.rule.id ?? 0
            name = occurrence.rule.name
            budget = budgetName
            date = occurrence.date.isoString
            total = try occurrence.total.plainString
            overdue = occurrence.overdue
        }
    }
}
