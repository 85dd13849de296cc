import ArgumentParser
import TallyCore

extension Tally.Expense {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an expense.")

        @Argument(help: "The expense's id, as shown by 'expense list'.")
        var id: Int64

        @OptionGroup var store: StoreOptions

        func run() throws {
            let database = try store.openStore()
            let expense = try database.expense(id: id)
            try database.removeExpense(id: id)
            Console.write("Removed expense #\(id) \(quoted(expense.name)) (\(try expense.total().groupedString)).")
        }
    }
}
