import ArgumentParser
import TallyCore

extension Tally.Budget {
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
            let database = try store.openStore()
            let budget = try database.addBudget(TallyCore.Budget(name: name, limit: try ArgumentValue.limit(limit)))
            Console.write("Added budget \(quoted(budget.name)) with a monthly limit of \(budget.limit.groupedString).")
        }
    }
}
