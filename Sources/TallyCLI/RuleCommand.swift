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

            A rule with --split BUDGET=SHARE (repeated, as 'tally add --split' takes them) makes \
            matching rows split expenses; its lines must fit any amount: one line takes the \
            rest, or percentages add up to 100%. A rule with --refund makes an import's matching \
            money in a refund into its budget instead of an income (statements) or a skipped \
            row (CSV); a refund cannot be split, so --refund and --split do not go together.
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

        @Option(name: .customLong("split"), help: SplitLines.help)
        var split: [String] = []

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

        /// `--split`'s lines, checked as a rule's must be (``ImportRule/validated()``).
        func splitLines() throws(ValidationError) -> [NamedLine] {
            guard !split.isEmpty else { return [] }
            let lines = try SplitLines.parse(split)
            try Self.check { () throws(TallyError) in
                var rule = ImportRule(pattern: "x", budget: "")
                rule.split = lines
                _ = try rule.validated()
            }
            return lines
        }

        func validateValues(refund: Bool) throws {
            _ = try parsedPriority()
            _ = try ArgumentValue.tags(tags)
            if let budget { try Self.check { () throws(TallyError) in _ = try Budget.validatedName(budget) } }
            if budget != nil, transferTo != nil { throw ValidationError("--budget and --transfer-to cannot be used together: a rule sends entries to one") }
            if !split.isEmpty, budget != nil || transferTo != nil {
                throw ValidationError("--split cannot be used with \(budget != nil ? "--budget" : "--transfer-to"): a split rule's budgets are its lines")
            }
            if refund, !split.isEmpty { throw ValidationError("--refund and --split cannot be used together: a refund cannot be split") }
            if refund, transferTo != nil { throw ValidationError("--refund does not apply to a transfer rule") }
            if transferTo != nil, !tags.isEmpty { throw ValidationError("--tag does not apply to a transfer rule") }
            _ = try splitLines()
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

        @Flag(help: "Make a bank import's matching money in a refund into the rule's budget.")
        var refund = false

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard fields.budget != nil || fields.transferTo != nil || !fields.split.isEmpty else {
                throw ValidationError("a rule needs --budget BUDGET, where matching rows go, --split BUDGET=SHARE or --transfer-to ACCOUNT")
            }
            try fields.validateValues(refund: refund)
            try RuleFields.check { () throws(TallyError) in _ = try RulePattern(pattern) }
        }

        func run() throws {
            var rule = ImportRule(
                pattern: pattern, budget: fields.budget ?? "", tags: fields.tags, rename: fields.rename,
                priority: try fields.parsedPriority() ?? ImportRule.defaultPriority, transferTo: fields.transferTo)
            rule.split = try fields.splitLines()
            rule.refund = refund
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

        @Flag(inversion: .prefixedNo, help: "Make matching money in a refund into the rule's budget, or no longer.")
        var refund: Bool?

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard pattern != nil || fields.budget != nil || fields.transferTo != nil || !fields.tags.isEmpty || clearTags || fields.rename != nil
                || fields.priority != nil || !fields.split.isEmpty || refund != nil
            else {
                throw ValidationError(
                    "nothing to change: give at least one of --pattern, --budget, --split, --refund, --transfer-to, --tag, --clear-tags, --rename or --priority")
            }
            guard fields.tags.isEmpty || !clearTags else { throw ValidationError("--tag and --clear-tags cannot be used together") }
            try fields.validateValues(refund: refund == true)
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
            edit.split = fields.split.isEmpty ? nil : try fields.splitLines()
            edit.refund = refund
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
    /// `rule #3 'coffee' → Café (tags daily; rename 'Coffee'; priority 100)`; a split rule's
    /// target is its lines (`Groceries=70%, Household=rest`).
    static func line(_ rule: ImportRule) -> String {
        var details: [String] = []
        if !rule.tags.isEmpty { details.append("tags \(rule.tags.joined(separator: ", "))") }
        if let rename = rule.rename { details.append("rename \(quoted(rename))") }
        details.append("priority \(rule.priority)")
        let target = ListRenderers.target(of: rule)
        return "rule #\(rule.id ?? 0) \(quoted(rule.pattern)) → \(target) (\(details.joined(separator: "; ")))"
    }
}
