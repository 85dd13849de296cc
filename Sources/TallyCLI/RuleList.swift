import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension RuleCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules in the order an import tries them.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let rules = try ListRules().run(in: store.ledger)
            if output.json {
                Console.write(try ListJSON.encode(rules.map(ListJSON.RuleItem.init)))
            } else if rules.isEmpty {
                Console.write("No rules yet. Add one with 'tally rule add PATTERN --budget BUDGET'.")
            } else {
                Console.write(ListRenderers.rulesAsTable(rules))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a rule.")

        @Argument(help: "The rule's id, as shown by 'rule list'.", completion: .ruleIDs)
        var id: Int64

        @OptionGroup var store: CommonOptions

        func run() throws {
            try RemoveRule(id: id).run(in: store.ledger)
            Console.write("Removed rule #\(id).")
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test", abstract: "Show which rule an imported row with this name would take.",
            discussion: "Exits 0 when a rule fires and 1 when none does.")

        @Argument(help: ArgumentHelp("A row's name, as the bank writes it.", valueName: "text"))
        var text: String

        @OptionGroup var store: CommonOptions

        func run() throws {
            guard let rule = try TestRules(text: text).run(in: store.ledger) else {
                Console.write("No rule matches \(quoted(text)).")
                throw ExitCode(1)
            }
            Console.write("Fires: " + RuleText.line(rule) + ".")
        }
    }

    struct Suggest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest", abstract: "Propose rules from the ledger's history, as commands to run.",
            discussion: """
                Names are compared without digits (dates, card and reference numbers) and masks \
                like ****; a name that went to one budget at least --min times and never \
                elsewhere, and that no rule matches yet, is proposed.
                """)

        @Option(help: ArgumentHelp("How many expenses a name needs (default \(SuggestRules.defaultMinimum)).", valueName: "count"))
        var min: String?

        @OptionGroup var store: CommonOptions

        private func minimum() throws(ValidationError) -> Int {
            guard let min else { return SuggestRules.defaultMinimum }
            guard let value = Int(min), value >= 1 else { throw ValidationError("invalid --min \(quoted(min)): use a whole number from 1") }
            return value
        }

        func validate() throws { _ = try minimum() }

        func run() throws {
            let suggestions = try SuggestRules(minimum: try minimum()).run(in: store.ledger)
            guard !suggestions.isEmpty else {
                return Console.write("# No rules to suggest: no name went to one budget at least \(try minimum()) times.")
            }
            Console.write(suggestions.map { suggestion in
                "tally rule add \(shellQuoted(suggestion.pattern)) --budget \(shellQuoted(suggestion.budget))  # \(suggestion.count) expenses"
            }.joined(separator: "\n"))
        }
    }
}

/// A word as a POSIX shell reads it back: bare when it is plainly safe, else in single quotes.
func shellQuoted(_ word: String) -> String {
    let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_.,/@%+=:".unicodeScalars.contains(scalar)
    }
    return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
