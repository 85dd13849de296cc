import TallyCore

/// A recurring rule in a JSON backup (document version 4). `day` is `--day` as typed (`31`,
/// `mon`), absent when the rule takes its start's; `until` is absent when it has none; `posted`
/// and `matched` list the occurrences already paid.
public struct RecurringRuleDTO: Codable, Hashable, Sendable {
    public var name: String
    public var budget: String
    public var amount: String
    public var quantity: Int64
    public var tags: [String]
    public var every: String
    public var interval: Int
    public var day: String?
    public var start: String
    public var until: String?
    public var skips: [String]
    public var posted: [String]
    public var matched: [String]

    public init(_ declared: DeclaredRecurringRule) {
        let rule = declared.rule
        name = rule.name
        budget = declared.budgetName
        amount = rule.amount.plainString
        quantity = rule.quantity
        tags = rule.tags
        every = rule.every.rawValue
        interval = rule.interval
        day = rule.day == nil ? nil : rule.dayText
        start = rule.start.isoString
        until = rule.until?.isoString
        skips = rule.skips.map(\.isoString)
        posted = declared.posted.map(\.isoString)
        matched = declared.matched.map(\.isoString)
    }

    /// The rule this entry describes, validated; `index` names it in errors.
    public func declared(index: Int) throws(TallyError) -> DeclaredRecurringRule {
        func parsed<Value>(_ field: String, _ text: String, _ parser: (String) throws(TallyError) -> Value) throws(TallyError) -> Value {
            do {
                return try parser(text)
            } catch {
                throw .importFile(line: nil, reason: "recurring[\(index)].\(field) \(quoted(text)): \(error.errorDescription ?? "invalid")")
            }
        }
        func days(_ field: String, _ texts: [String]) throws(TallyError) -> [Day] {
            var result: [Day] = []
            for text in texts { result.append(try parsed(field, text, Day.init(parsing:))) }
            return result
        }
        let frequency = try parsed("every", every) { (text: String) throws(TallyError) -> RecurringFrequency in
            guard let value = RecurringFrequency(rawValue: text) else { throw .importFile(line: nil, reason: "use day, week, month or year") }
            return value
        }
        let rule = RecurringRule(
            name: name, budgetID: 0, amount: try parsed("amount", amount, Money.init(parsing:)), quantity: quantity, tags: tags,
            every: frequency, interval: interval,
            day: try day.map { (text: String) throws(TallyError) in try parsed("day", text) { (t: String) throws(TallyError) in try RecurringRule.parseDay(t, every: frequency) } },
            start: try parsed("start", start, Day.init(parsing:)),
            until: try until.map { (text: String) throws(TallyError) in try parsed("until", text, Day.init(parsing:)) },
            skips: try days("skips", skips))
        let validated: RecurringRule
        do {
            validated = try rule.validated()
        } catch {
            throw .importFile(line: nil, reason: "recurring[\(index)] \(quoted(name)): \(error.errorDescription ?? "invalid")")
        }
        return DeclaredRecurringRule(
            rule: validated, budgetName: budget, posted: try days("posted", posted), matched: try days("matched", matched))
    }
}
