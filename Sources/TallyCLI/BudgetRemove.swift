import ArgumentParser
import TallyCore
import TallyUseCases

extension BudgetCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a budget.",
            discussion: """
                A budget that still has expenses is removed only with --yes, or when you answer \
                yes at the prompt shown on a terminal; its expenses are deleted with it.
                """
        )

        @Argument(help: "The budget's name, ignoring case and accents.", completion: .budgetNames)
        var name: String

        @Flag(name: [.customShort("y"), .long], help: "Also delete the budget's expenses without asking.")
        var yes = false

        @OptionGroup var store: CommonOptions

        func run() throws {
            let (budget, removed) = try RemoveBudget(name: name, includingExpenses: yes).run(in: store.ledger) { name, count in
                Console.confirm("Budget \(quoted(name)) has \(counted(count, "expense")). Remove the budget and delete its expenses?")
            }
            let expenses = removed == 0 ? "" : " and its \(removed) expense\(removed == 1 ? "" : "s")"
            Console.write("Removed budget \(quoted(budget.name))\(expenses).")
        }
    }
}
