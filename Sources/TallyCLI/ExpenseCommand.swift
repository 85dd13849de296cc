import ArgumentParser

struct ExpenseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expense",
        abstract: "Record, list, change and remove expenses.",
        subcommands: [Add.self, List.self, Edit.self, Remove.self, Split.self, Unsplit.self]
    )
}
