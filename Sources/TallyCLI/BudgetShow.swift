import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension BudgetCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one budget's figures and expenses for a month."
        )

        @Argument(help: "The budget's name, ignoring case and accents.", completion: .budgetNames)
        var name: String

        @OptionGroup var month: MonthOption
        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let month = try month.resolved()
            let ledger = store.ledger
            let shown = try ShowBudget(name: name, period: month).run(in: ledger)
            let (status, expenses) = (shown.status, shown.expenses)
            if output.json {
                Console.write(try ListJSON.encode(try ListJSON.BudgetDetail(
                    status, firstPeriod: shown.firstPeriod, expenses: expenses, pace: shown.pace, accountNames: shown.accountNames,
                    goalAccount: shown.goalAccount)))
                return
            }
            let money = try Preferences.current.moneyFormat(for: ledger)
            var text = ListRenderers.budgetAsText(status, pace: shown.pace, goalAccount: shown.goalAccount, money: money) + "\n\n"
            if status.budget.target?.isByDate == true, status.budget.rollover == .none {
                // Without rollover a sinking fund starts every period from nothing.
                text += "Hint: a sinking fund keeps what it saved only when it rolls over: --rollover surplus\n\n"
            }
            if expenses.isEmpty {
                text += "No expenses from \(status.days.first.isoString) to \(status.days.last.isoString)."
            } else {
                let names = [status.budget.id ?? 0: status.budget.name]
                text += try ListRenderers.expensesAsTable(
                    expenses, budgetNames: names, accountNames: shown.accountNames, showBudget: false, money: money)
            }
            Console.write(text)
        }
    }
}
