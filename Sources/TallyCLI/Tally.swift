import ArgumentParser
import Foundation
import TallyCore

public struct Tally: ParsableCommand {
    // Every command spells its `commandName`: without one ArgumentParser derives it with
    // `String(describing:)` on each parse, which scans the runtime's conformance records.
    public static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Track budgets and expenses in a local database.",
        discussion: """
            The database is --db PATH, else $TALLY_DB, else db in the config file, else \
            $XDG_DATA_HOME/tally/tally.sqlite (default ~/.local/share/tally/tally.sqlite). --db, \
            --locale and --color may come before the subcommand (tally --db PATH budget list) or \
            after it.

            The config file is $XDG_CONFIG_HOME/tally/config.toml (default \
            ~/.config/tally/config.toml), in TOML: db = "~/ledger.sqlite", color = "auto" \
            (always, never), locale = "de_DE", default-budget = "Food" (what add uses without \
            -b). Flags beat the environment (TALLY_DB, NO_COLOR), which beats the file; for the \
            locale the file beats LC_ALL, LC_MONETARY and LANG, and --locale beats both. A \
            malformed file exits 78.
            """,
        version: "0.1.0",
        subcommands: [BudgetCommand.self, ExpenseCommand.self, Add.self, Refund.self, AccountCommand.self, IncomeCommand.self, TransferCommand.self, Reconcile.self, Demo.self, Report.self, Prices.self, RatesCommand.self, RecurringCommand.self, Upcoming.self, Check.self, Import.self, Export.self, LogCommand.self, UndoCommand.self, RuleCommand.self, ProfileCommand.self, SettingsCommand.self, DbCommand.self, ServeCommand.self, BackupCommand.self, CompletionsCommand.self]
    )

    public init() {}

    /// Parses, runs and reports like `main()`, but every failure becomes exactly one line on
    /// stderr (`tally: error: …`) with nothing on stdout. Usage errors exit 64, others 1; help
    /// and `--version` print to stdout and exit 0.
    public static func run(arguments: [String]) -> Int32 {
        // A closed pipe (`tally expense list | head`) must end quietly rather than kill us.
        signal(SIGPIPE, SIG_IGN)
        do {
            let arguments = try GlobalOptions.normalized(arguments)
            // What the history records with each change: never a password (see `ChangeContext`).
            ChangeContext.command = ChangeContext.sanitized(arguments)
            Preferences.current = try Preferences.resolve(arguments: arguments, environment: CommonOptions.processEnvironment)
            try ServerHandOver.handOverIfNeeded(arguments: arguments)
            if let addition = QuickAdd.parse(arguments) {
                try addition.run()
                return ExitCode.success.rawValue
            }
            if let request = QuickReport.parse(arguments) {
                try request.run()
                return ExitCode.success.rawValue
            }
            var command = try parseAsRoot(arguments)
            try command.run()
            return ExitCode.success.rawValue
        } catch {
            if let (message, code) = Failures.describe(error) {
                Console.error(message)
                return code.rawValue
            }
            let code = exitCode(for: error)
            if code == .success {
                let text = fullMessage(for: error)
                if !text.isEmpty { Console.write(text) }
            } else if !(error is ExitCode) {
                Console.error(usageMessage(oneLine(message(for: error)), arguments: arguments))
            }
            return code.rawValue
        }
    }

    /// ArgumentParser reads `-5` as an unknown option and then misses a value; naming the
    /// negative number says what is actually wrong. The value of a day or month option
    /// (`--month -2`) is a phrase, not a negative number.
    static func usageMessage(_ message: String, arguments: [String]) -> String {
        let confused = ["Unknown option", "Missing", "Unexpected argument"].contains { message.hasPrefix($0) }
        let negative = arguments.indices.first { index in
            isNegativeNumber(arguments[index]) && !(index > 0 && phraseOptions.contains(arguments[index - 1]))
        }
        guard confused, let negative else { return message }
        let argument = arguments[negative]
        return "invalid value \(quoted(argument)): amounts, quantities, ids and pages cannot be negative"
    }

    /// The options whose values are day or month phrases, read even when they start with `-`.
    static let phraseOptions: [String] = ["--date", "--month", "--from", "--to", "--start", "--until", "--through"]

    static func isNegativeNumber(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        return argument.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    /// ArgumentParser sometimes spreads a message over lines (a list of valid values); a
    /// script reading stderr gets it on one.
    static func oneLine(_ message: String) -> String {
        let words = message.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? "unknown error" : words.joined(separator: " ")
    }
}
