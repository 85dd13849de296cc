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
            is past it, behind its goal (its limit sets aside less than its target needs this \
            period) or projected to end the period over its limit, 2 when one is over; errors \
            exit 3 (bad arguments 64). --new-only reports only budgets whose level rose since the \
            last 'check --new-only' of the period, and its exit code only what it reports, so an \
            hourly cron job speaks once per crossing. A balance assertion ('tally reconcile') that a \
            later change broke exits 2 as well, naming the account and the difference.
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
        let broken: [BrokenAssertion]
        let money: MoneyFormat
        do {
            let ledger = store.ledger
            result = try CheckBudgets(newOnly: newOnly).run(in: ledger)
            broken = try CheckAssertions().run(in: ledger)
            money = output.json || quiet ? .plain : try Preferences.current.moneyFormat(for: ledger)
        } catch {
            // A monitoring plugin's errors are 3 ("unknown"), bad arguments excepted.
            guard let (message, code) = Failures.describe(error), code.rawValue != 64 else { throw error }
            Console.error(message)
            throw ExitCode(3)
        }
        if output.json {
            var items: [any Encodable & Sendable] = result.alerts.map(AlertJSON.init)
            for assertion in broken { items.append(try AssertionAlertJSON(assertion)) }
            Console.write(try ListJSON.encode(items.map(AnyItem.init)))
        } else if !quiet {
            // Text names only what needs attention; JSON lists every budget.
            var lines = result.alerts.filter { $0.level != .ok }.map { AlertJSON.line($0, money: money) }
            for assertion in broken { lines.append(try AssertionAlertJSON.line(assertion, money: money)) }
            if !lines.isEmpty { Console.write(lines.joined(separator: "\n")) }
        }
        let code = broken.isEmpty ? result.exitCode : 2
        if code != 0 { throw ExitCode(code) }
    }

    /// One element of `check --json`'s array, whichever kind it is.
    private struct AnyItem: Encodable {
        let item: any Encodable & Sendable
        init(_ item: any Encodable & Sendable) { self.item = item }
        func encode(to encoder: any Encoder) throws { try item.encode(to: encoder) }
    }
}
