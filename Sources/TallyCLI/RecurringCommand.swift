import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension RecurringFrequency: ExpressibleByArgument {}

struct RecurringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recurring",
        abstract: "Manage recurring bills and post them as expenses.",
        discussion: """
            A rule describes a bill that comes back: rent on the 1st, a subscription every week. \
            'tally recurring post' turns each occurrence due by today into an ordinary expense, or \
            marks it paid by an expense already recorded in the same budget within 3 days and 10 % \
            of its total; running it again posts nothing twice.
            """,
        subcommands: [Add.self, List.self, Edit.self, Remove.self, Skip.self, Post.self]
    )
}

/// The fields `recurring add` and `recurring edit` share.
struct RecurringRuleOptions: ParsableArguments {
    @Option(name: [.customShort("b"), .long], help: "The budget its expenses come out of, ignoring case and accents.", completion: .budgetNames)
    var budget: String?

    @Option(help: "How often it comes due.")
    var every: RecurringFrequency?

    @Option(help: ArgumentHelp("Every N days, weeks, months or years (default 1).", valueName: "n"))
    var interval: Int?

    @Option(help: ArgumentHelp("The day of the month for a monthly rule (31: each month's last day), the weekday (mon…sun) for a weekly one (default: the start's).", valueName: "day"))
    var day: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The first day it may come due, \(PhraseHelp.days) (default: today).", valueName: "day"))
    var start: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The last day it may come due (a day, as for --start).", valueName: "day"))
    var until: String?

    @Option(help: "How many items each occurrence is.")
    var quantity: Int64?

    @Option(name: .customLong("tag"), help: "Tag its expenses; repeat for several tags.", completion: .tags)
    var tags: [String] = []

    /// Checks every value that needs no ledger; `every` is the rule's frequency when known.
    func check(every: RecurringFrequency?) throws {
        if let interval { try ArgumentValue.check(interval, RecurringRule.checkInterval) }
        if let day, let every { _ = try ArgumentValue.check(day) { (text: String) throws(TallyError) in try RecurringRule.parseDay(text, every: every) } }
        let first = try start.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }
        let last = try until.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }
        if let first, let last { try ArgumentValue.check(last) { (day: Day) throws(TallyError) in try RecurringRule.checkUntil(day, start: first) } }
        if let quantity { _ = try ArgumentValue.quantity(quantity) }
        _ = try ArgumentValue.tags(tags)
    }

    func changes(name: String? = nil, amount: Money? = nil) throws -> RecurringRuleChanges {
        RecurringRuleChanges(
            name: name, amount: amount, budget: budget, every: every, interval: interval, day: day,
            start: try start.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) },
            until: try until.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }, quantity: quantity,
            tags: tags.isEmpty ? nil : tags)
    }
}

extension RecurringCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a recurring bill.")

        @Argument(help: "What the bill is for; its expenses take this name.")
        var name: String

        @Argument(help: "The price of one item, like 12 or 12.50.")
        var amount: String

        @OptionGroup var rule: RecurringRuleOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            _ = try ArgumentValue.amount(amount)
            guard rule.budget != nil else { throw ValidationError("Missing expected argument '--budget <budget>'") }
            guard let every = rule.every else { throw ValidationError("Missing expected argument '--every <every>'") }
            try rule.check(every: every)
        }

        func run() throws {
            let amount = try ArgumentValue.amount(amount)
            let addition = AddRecurringRule(
                name: name, amount: amount, budget: rule.budget ?? "", every: rule.every ?? .month, changes: try rule.changes())
            let ledger = store.ledger
            let saved = try addition.run(in: ledger)
            Console.write("Added recurring rule \(ruleLine(saved, money: try Preferences.current.moneyFormat(for: ledger)))")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a recurring bill; occurrences already paid stay paid.")

        @Argument(help: "The rule's id, as shown by 'recurring list'.", completion: .recurringRuleIDs)
        var id: Int64

        @Option(help: "A new name.")
        var name: String?

        @Option(help: ArgumentHelp("A new price of one item.", valueName: "amount"))
        var amount: String?

        @OptionGroup var rule: RecurringRuleOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let amount { _ = try ArgumentValue.amount(amount) }
            try rule.check(every: rule.every)
        }

        func run() throws {
            let amount = try amount.map { (text: String) throws(ValidationError) in try ArgumentValue.amount(text) }
            let ledger = store.ledger
            let (_, after) = try EditRecurringRule(id: id, changes: try rule.changes(name: name, amount: amount)).run(in: ledger)
            Console.write("Updated recurring rule \(ruleLine(after, money: try Preferences.current.moneyFormat(for: ledger)))")
        }
    }
}

/// `#3 Rent: 1,200.00 in Home, every month on day 1 from 2026-01-01; next 2026-02-01`.
func ruleLine(_ summary: RecurringRuleSummary, money: MoneyFormat = .plain) -> String {
    let rule = summary.rule
    let quantity = rule.quantity == 1 ? "" : " × \(rule.quantity)"
    let next = summary.next.map { "; next \($0.isoString)" } ?? "; nothing more is due"
    return "#\(rule.id ?? 0) \(rule.name): \(money.string(rule.amount))\(quantity) in \(summary.budgetName), "
        + "every \(RecurringRenderers.schedule(rule)) from \(rule.start.isoString)"
        + (rule.until.map { " until \($0.isoString)" } ?? "") + next
}
