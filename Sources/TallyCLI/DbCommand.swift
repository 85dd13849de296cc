import ArgumentParser
import Foundation
import TallyCore
import TallyStores
import TallyUseCases

/// `tally db`: the ledger as a whole, wherever it lives.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Copy a whole ledger between files and PostgreSQL servers.",
        subcommands: [Copy.self]
    )

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy a whole ledger into an empty one.",
            discussion: """
                SOURCE and DEST are file paths or postgresql:// URLs: file to server moves a \
                household onto a server, server to file makes a backup. The copy is all or \
                nothing, DEST must be empty (a new file, or a database without Tally's data), and \
                counts and each budget's per-period totals are compared before it reports success.
                """
        )

        @Argument(help: ArgumentHelp("The ledger to copy: a file path or a postgresql:// URL.", valueName: "source"))
        var source: String

        @Argument(help: ArgumentHelp("An empty ledger to copy into: a file path or a postgresql:// URL.", valueName: "dest"))
        var destination: String

        func validate() throws {
            for (text, name) in [(source, "source"), (destination, "dest")] {
                if text.isEmpty { throw ValidationError("\(name) needs a file path or a postgresql:// URL") }
                if case .unusableServer(let reason) = StoreLocation(text) { throw ValidationError(reason) }
            }
            if source == destination { throw ValidationError("source and dest are the same ledger") }
        }

        func run() throws {
            let from = StoreLocation(source)
            let to = StoreLocation(destination)
            let result = try CopyLedger(source: from, destination: to).run()
            Console.write(
                "Copied \(result.budgets) budgets, \(result.expenses) expenses and \(result.recurringRules) recurring rules from \(from) to \(to); counts and per-period totals match.")
        }
    }
}
