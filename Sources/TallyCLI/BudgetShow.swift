import ArgumentParser
import TallyCore

extension Tally.Budget {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one budget's figures and expenses for a month."
        )

        @Argument(help: "The budget's name, ignoring case and accents.")
        var name: String

        @OptionGroup var month: MonthOption
        @OptionGroup var output: OutputOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let month = try month.resolved()
            let database = try store.openStore()
            let status = try database.status(ofBudgetNamed: name, in: month)
            let query = ExpenseQuery(budgetID: status.budget.id, days: status.budget.interval(for: month), sort: .date)
            let expenses = try database.expenses(query)
            if output.json {
                Console.write(try JSONOutput.encode(try JSONOutput.BudgetDetail(status, expenses: expenses)))
                return
            }
            var text = Renderers.budgetAsText(status) + "\n\n"
            if expenses.isEmpty {
                text += "No expenses in \(month.isoString)."
            } else {
                let names = [status.budget.id ?? 0: status.budget.name]
                text += try Renderers.expensesAsTable(expenses, budgetNames: names, showBudget: false)
            }
            Console.write(text)
        }
    }
}
