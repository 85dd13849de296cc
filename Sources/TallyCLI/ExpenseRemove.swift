import ArgumentParser
import TallyCore
import TallyUseCases

extension ExpenseCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an expense.")

        @Argument(help: "The expense's id, as shown by 'expense list'.")
        var id: Int64

        @OptionGroup var store: StoreOptions

        func run() throws {
            let expense = try RemoveExpense(id: id).run(in: store.ledger)
            Console.write("Removed expense #\(id) \(quoted(expense.name)) (\(try expense.total().groupedString)).")
        }
    }
}
