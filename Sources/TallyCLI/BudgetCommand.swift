import ArgumentParser

struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Manage budgets and see how much of each is left.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self]
    )
}
