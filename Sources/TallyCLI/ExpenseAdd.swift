import ArgumentParser

extension ExpenseCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an expense to a budget.",
            discussion: "Prints the new expense with its id and what is left of the budget that month."
        )

        @OptionGroup var options: ExpenseAddOptions

        func run() throws {
            try options.addExpense()
        }
    }
}
