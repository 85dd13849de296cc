import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally check`: the monitoring-plugin convention, for cron jobs and shell prompts.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Say whether any budget is past its warning level or over, by exit code.",
        discussion: """
            Exit 0 when every budget of the current period is below its warning level, 1 when one \
            is past it or projected to end the period over its limit, 2 when one is over; errors \
            exit 3 (bad arguments 64). --new-only reports only budgets whose level rose since the \
            last 'check --new-only' of the period, and its exit code only what it reports, so an \
            hourly cron job speaks once per crossing.
            """
    )

    @Flag(help: "Report only budgets whose level rose since the last check --new-only of this period.")
    var newOnly = false

    @Flag(name: [.customShort("q"), .long], help: "Print nothing; only the exit code tells.")
    var quiet = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var store: CommonOptions

    func validate() throws {
        if quiet, output.json { throw ValidationError("--quiet and --json cannot be combined") }
    }

    func run() throws {
        let result: (alerts: [BudgetAlert], exitCode: Int32)
        let money: MoneyFormat
        do {
            let ledger = store.ledger
            result = try CheckBudgets(newOnly: newOnly).run(in: ledger)
            money = output.json || quiet ? .plain : try Preferences.current.moneyFormat(for: ledger)
        } catch {
            // A monitoring plugin's errors are 3 ("unknown"), bad arguments excepted.
            guard let (message, code) = Failures.describe(error), code.rawValue != 64 else { throw error }
            Console.error(message)
            throw ExitCode(3)
        }
        if output.json {
            Console.write(try ListJSON.encode(result.alerts.map(AlertJSON.init)))
        } else if !quiet {
            // Text names only what needs attention; JSON lists every budget.
            let lines = result.alerts.filter { $0.level != .ok }.map { AlertJSON.line($0, money: money) }
            if !lines.isEmpty { Console.write(lines.joined(separator: "\n")) }
        }
        if result.exitCode != 0 { throw ExitCode(result.exitCode) }
    }
}
