import ArgumentParser
import TallyCore
import TallyUseCases

extension BudgetCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a budget with a monthly limit.")

        @Argument(help: "The budget's name; names are unique ignoring case and accents.")
        var name: String

        @Option(help: ArgumentHelp("The monthly limit, like 400 or 400.50.", valueName: "amount"))
        var limit: String

        @OptionGroup var store: StoreOptions

        func validate() throws {
            _ = try ArgumentValue.limit(limit)
        }

        func run() throws {
            let budget = try AddBudget(name: name, limit: try ArgumentValue.limit(limit)).run(in: store.ledger)
            Console.write("Added budget \(quoted(budget.name)) with a monthly limit of \(budget.limit.groupedString).")
        }
    }
}
