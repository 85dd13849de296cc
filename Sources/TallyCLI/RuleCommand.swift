import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally rule`: payee rules that give imported rows without a budget their budget, tags and name.
struct RuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rule",
        abstract: "Manage the rules that sort imported rows into budgets.",
        discussion: """
            A rule's pattern matches a row's name ignoring case and accents: plain text matches \
            anywhere in it, /text between slashes/ is a regular expression. On import, a row \
            without a budget cell takes the first rule that matches, lowest --priority first \
            (default 100), then lowest id. Patterns that can take exponential time (a repeated \
            group holding a repetition or '|', backreferences, more than three unbounded \
            repetitions) are refused.

            A rule with --transfer-to ACCOUNT instead makes a bank statement's matching entries \
            transfers between the statement's account and ACCOUNT ('tally import' of OFX, \
            camt.053, MT940 or QIF); CSV imports skip such rules.
            """,
        subcommands: [Add.self, List.self, Edit.self, Remove.self, Test.self, Suggest.self]
    )

    /// The flags `add` and `edit` share.
    struct RuleFields: ParsableArguments {
        @Option(name: [.customShort("b"), .long], help: "Send matching rows to this budget.", completion: .budgetNames)
        var budget: String?

        @Option(
            help: ArgumentHelp("Make a bank statement's matching entries transfers to (or, when money comes in, from) this account.", valueName: "account"),
            completion: .accountNames)
        var transferTo: String?

        @Option(name: .customLong("tag"), help: "Add this tag to matching rows; repeat for several tags.", completion: .tags)
        var tags: [String] = []

        @Option(help: ArgumentHelp("Give matching rows this name.", valueName: "name"))
        var rename: String?

        @Option(help: ArgumentHelp("Try this rule before rules with higher numbers (default 100).", valueName: "number"))
        var priority: String?

        func parsedPriority() throws(ValidationError) -> Int? {
            guard let priority else { return nil }
            guard let value = Int(priority), ImportRule.priorities.contains(value) else {
                let range = ImportRule.priorities
                throw ValidationError("invalid rule priority \(quoted(priority)): use a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }

        func validateValues() throws {
            _ = try parsedPriority()
            _ = try ArgumentValue.tags(tags)
            if let budget { try Self.check { () throws(TallyError) in _ = try Budget.validatedName(budget) } }
            if budget != nil, transferTo != nil { throw ValidationError("--budget and --transfer-to cannot be used together: a rule sends entries to one") }
            if transferTo != nil, !tags.isEmpty { throw ValidationError("--tag does not apply to a transfer rule") }
        }

        /// A layer's error as a usage error: these are the values the user typed.
        static func check(_ body: () throws(TallyError) -> Void) throws(ValidationError) {
            do { try body() } catch { throw ValidationError(error.message) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a rule.")

        @Argument(help: ArgumentHelp("Plain text to find in the name, or /a regular expression/.", valueName: "pattern"))
        var pattern: String

        @OptionGroup var fields: RuleFields
        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard fields.budget != nil || fields.transferTo != nil else {
                throw ValidationError("a rule needs --budget BUDGET, where matching rows go, or --transfer-to ACCOUNT")
            }
            try fields.validateValues()
            try RuleFields.check { () throws(TallyError) in _ = try RulePattern(pattern) }
        }

        func run() throws {
            let rule = ImportRule(
                pattern: pattern, budget: fields.budget ?? "", tags: fields.tags, rename: fields.rename,
                priority: try fields.parsedPriority() ?? ImportRule.defaultPriority, transferTo: fields.transferTo)
            let saved = try RuleCommand.usage { () throws(TallyError) in try AddRule(rule).run(in: store.ledger) }
            Console.write("Added " + RuleText.line(saved) + ".")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a rule; only the given fields change.",
            discussion: "Giving --tag replaces the rule's tags; --clear-tags removes them, and --rename '' the new name.")

        @Argument(help: "The rule's id, as shown by 'rule list'.", completion: .ruleIDs)
        var id: Int64

        @Option(help: ArgumentHelp("Match this pattern instead.", valueName: "pattern"))
        var pattern: String?

        @OptionGroup var fields: RuleFields

        @Flag(help: "Remove the rule's tags.")
        var clearTags = false

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard pattern != nil || fields.budget != nil || fields.transferTo != nil || !fields.tags.isEmpty || clearTags || fields.rename != nil
                || fields.priority != nil
            else {
                throw ValidationError("nothing to change: give at least one of --pattern, --budget, --transfer-to, --tag, --clear-tags, --rename or --priority")
            }
            guard fields.tags.isEmpty || !clearTags else { throw ValidationError("--tag and --clear-tags cannot be used together") }
            try fields.validateValues()
            if let pattern { try RuleFields.check { () throws(TallyError) in _ = try RulePattern(pattern) } }
        }

        func run() throws {
            // `--rename ''` takes the new name away.
            var rename: String?? = nil
            if let given = fields.rename { rename = .some(given.trimmingCharacters(in: .whitespaces).isEmpty ? nil : given) }
            var edit = EditRule(
                id: id, pattern: pattern, budget: fields.budget, tags: clearTags ? [] : fields.tags.isEmpty ? nil : fields.tags,
                rename: rename, priority: try fields.parsedPriority())
            edit.transferTo = fields.transferTo
            let (_, after) = try RuleCommand.usage { () throws(TallyError) in try edit.run(in: store.ledger) }
            Console.write("Updated " + RuleText.line(after) + ".")
        }
    }

    /// Runs a rule use case; a budget the user named that does not exist is a usage error.
    static func usage<T>(_ body: () throws(TallyError) -> T) throws -> T {
        do {
            return try body()
        } catch .budgetNotFound(let name) {
            throw ValidationError(TallyError.budgetNotFound(name).message + "; add it first with 'tally budget add'")
        } catch .accountNotFound(let name) {
            throw ValidationError(TallyError.accountNotFound(name).message + "; add it first with 'tally account add'")
        }
    }
}

/// How a rule reads in text.
enum RuleText {
    /// `rule #3 'coffee' → Café (tags daily; rename 'Coffee'; priority 100)`
    static func line(_ rule: ImportRule) -> String {
        var details: [String] = []
        if !rule.tags.isEmpty { details.append("tags \(rule.tags.joined(separator: ", "))") }
        if let rename = rule.rename { details.append("rename \(quoted(rename))") }
        details.append("priority \(rule.priority)")
        let target = rule.transferTo.map { "transfer to \($0)" } ?? rule.budget
        return "rule #\(rule.id ?? 0) \(quoted(rule.pattern)) → \(target) (\(details.joined(separator: "; ")))"
    }
}
