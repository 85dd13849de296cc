import ArgumentParser

extension Tally {
    /// `tally add` is `tally expense add`, the command people type most.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an expense to a budget (same as 'expense add')."
        )

        @OptionGroup var options: ExpenseAddOptions

        func run() throws {
            try options.addExpense()
        }
    }
}
