import ArgumentParser

public struct Tally: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Track budgets and expenses in a local database."
    )

    public init() {}
}
