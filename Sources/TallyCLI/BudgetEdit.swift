import ArgumentParser
import TallyCore
import TallyUseCases

extension BudgetCommand {
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
            let newLimit = try limit.map { (text: String) throws(ValidationError) in try ArgumentValue.limit(text) }
            let (before, budget) = try EditBudget(name: name, newName: newName, newLimit: newLimit).run(in: store.ledger)
            let renamed = before.name == budget.name ? "" : " (was \(quoted(before.name)))"
            Console.write("Updated budget \(quoted(budget.name))\(renamed): monthly limit \(budget.limit.groupedString).")
        }
    }
}
