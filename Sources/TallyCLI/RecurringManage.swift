import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension RecurringCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List recurring bills with their next due and last paid occurrence.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let rules = try ListRecurringRules().run(in: ledger)
            if output.json {
                Console.write(try ListJSON.encode(rules.map(RecurringJSON.Rule.init)))
            } else if rules.isEmpty {
                Console.write("No recurring bills yet. Add one with: tally recurring add NAME AMOUNT --budget B --every month")
            } else {
                Console.write(try RecurringRenderers.rulesAsTable(rules, money: try Preferences.current.moneyFormat(for: ledger)))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a recurring bill; the expenses it posted stay.")

        @Argument(help: "The rule's id, as shown by 'recurring list'.", completion: .recurringRuleIDs)
        var id: Int64

        @OptionGroup var store: CommonOptions

        func run() throws {
            let rule = try RemoveRecurringRule(id: id).run(in: store.ledger)
            Console.write("Removed recurring rule #\(id) \(quoted(rule.name)).")
        }
    }

    struct Skip: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "skip", abstract: "Mark one occurrence of a recurring bill as not due.")

        @Argument(help: "The rule's id, as shown by 'recurring list'.", completion: .recurringRuleIDs)
        var id: Int64

        @Option(parsing: .unconditional, help: ArgumentHelp("The occurrence's day, \(PhraseHelp.days).", valueName: "day"))
        var date: String

        @OptionGroup var store: CommonOptions

        func validate() throws {
            _ = try ArgumentValue.day(date)
        }

        func run() throws {
            let day = try ArgumentValue.day(date)
            let rule = try SkipOccurrence(id: id, date: day).run(in: store.ledger)
            Console.write("Skipped \(quoted(rule.name)) on \(day.isoString).")
        }
    }

    struct Post: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "post",
            abstract: "Record every due occurrence as an expense, once.",
            discussion: """
                Each occurrence due by --through (default today) that is neither paid nor skipped \
                becomes an expense, all in one transaction; an expense already recorded in the same \
                budget within 3 days and 10 % of its total pays it instead. Running it again, or \
                from two shells at once, never posts an occurrence twice.
                """
        )

        @Option(parsing: .unconditional, help: ArgumentHelp("Post what is due up to this day, \(PhraseHelp.days) (default: today).", valueName: "day"))
        var through: String?

        @Flag(help: "Show what would be posted or matched, and write nothing.")
        var dryRun = false

        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let through { _ = try ArgumentValue.day(through) }
        }

        func run() throws {
            let last = try through.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
            let ledger = store.ledger
            let (posts, names) = try PostRecurring(through: last, dryRun: dryRun).run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write(posts.isEmpty
                ? "Nothing is due through \(last.isoString)."
                : try RecurringRenderers.postLines(posts, budgetNames: names, dryRun: dryRun, money: money))
        }
    }
}
