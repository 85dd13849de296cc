import ArgumentParser
import TallyCore
import TallyUseCases

extension ExpenseCommand {
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove an expense.",
            discussion: "An expense on or before the day its account was reconciled through goes only with --force.")

        @Argument(help: "The expense's id, as shown by 'expense list'.")
        var id: Int64

        @Flag(help: "Remove it even where its account is reconciled.")
        var force = false

        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let expense = try RemoveExpense(id: id, force: force).run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Removed expense #\(id) \(quoted(expense.name)) (\(try money.string(expense.total()))).")
        }
    }
}
