import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension BudgetOrder: ExpressibleByArgument {}
extension BudgetPeriod: ExpressibleByArgument {}
extension RolloverPolicy: ExpressibleByArgument {}

extension BudgetCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List budgets with their limit, spent and remaining for a month."
        )

        @OptionGroup var month: MonthOption

        @Option(help: ArgumentHelp("Show only budgets whose name contains this text, ignoring case and accents.", valueName: "text"))
        var search: String?

        @Option(help: "Sort by this column.")
        var sort: BudgetOrder = .name

        @Flag(help: "Sort in descending order.")
        var desc = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let month = try month.resolved()
            let ledger = store.ledger
            let result = try ListBudgets(period: month, search: search, order: sort, descending: desc).run(in: ledger)
            let statuses = result.statuses
            if output.json {
                Console.write(try result.json())
            } else if statuses.isEmpty {
                Console.write(search == nil
                    ? "No budgets yet. Add one with: tally budget add NAME --limit AMOUNT"
                    : "No budget matches \(quoted(search ?? "")).")
            } else {
                Console.write(
                    "Budgets for \(PeriodText.name(result.period, days: result.days))\n\n"
                        + ListRenderers.budgetsAsTable(statuses, paces: result.paces, goalAccounts: result.goalAccounts, money: try Preferences.current.moneyFormat(for: ledger)))
            }
        }
    }
}
