import ArgumentParser
import TallyCore

extension Tally.Budget {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a budget.",
            discussion: """
                A budget that still has expenses is removed only with --yes, or when you answer \
                yes at the prompt shown on a terminal; its expenses are deleted with it.
                """
        )

        @Argument(help: "The budget's name, ignoring case and accents.")
        var name: String

        @Flag(name: [.customShort("y"), .long], help: "Also delete the budget's expenses without asking.")
        var yes = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            let database = try store.openStore()
            let budget = try database.budget(named: name)
            let removed: Int
            do {
                removed = try database.removeBudget(named: name, includingExpenses: yes)
            } catch {
                guard case .budgetNotEmpty(let budgetName, let count) = error,
                    Console.confirm("Budget \(quoted(budgetName)) has \(count) expense\(count == 1 ? "" : "s"). Remove the budget and delete its expenses?")
                else { throw error }
                removed = try database.removeBudget(named: name, includingExpenses: true)
            }
            let expenses = removed == 0 ? "" : " and its \(removed) expense\(removed == 1 ? "" : "s")"
            Console.write("Removed budget \(quoted(budget.name))\(expenses).")
        }
    }
}
