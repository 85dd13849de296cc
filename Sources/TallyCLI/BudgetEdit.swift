import ArgumentParser
import TallyCore

extension Tally.Budget {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Rename a budget or change its limit.")

        @Argument(help: "The budget's current name, ignoring case and accents.")
        var name: String

        @Option(name: .customLong("name"), help: ArgumentHelp("Give the budget this new name.", valueName: "new-name"))
        var newName: String?

        @Option(help: ArgumentHelp("Set this new monthly limit.", valueName: "amount"))
        var limit: String?

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard newName != nil || limit != nil else {
                throw ValidationError("nothing to change: give --name or --limit")
            }
            if let limit { _ = try ArgumentValue.limit(limit) }
        }

        func run() throws {
            let database = try store.openStore()
            var budget = try database.budget(named: name)
            let oldName = budget.name
            if let newName { budget.name = newName }
            if let limit { budget.limit = try ArgumentValue.limit(limit) }
            budget = try database.updateBudget(budget)
            let renamed = oldName == budget.name ? "" : " (was \(quoted(oldName)))"
            Console.write("Updated budget \(quoted(budget.name))\(renamed): monthly limit \(budget.limit.groupedString).")
        }
    }
}
