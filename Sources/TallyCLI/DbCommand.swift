import ArgumentParser
import Foundation
import TallyCore
import TallyStores
import TallyUseCases

/// `tally db`: the ledger as a whole, wherever it lives.
struct DbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Copy a whole ledger between files and PostgreSQL servers, or describe one.",
        subcommands: [Copy.self, Info.self]
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
            let what =
                result.accounts == 0
                ? "\(result.budgets) budgets, \(result.expenses) expenses and \(result.recurringRules) recurring rules"
                : "\(result.budgets) budgets, \(result.expenses) expenses, \(result.recurringRules) recurring rules and \(result.accounts) accounts with their entries"
            Console.write("Copied \(what) from \(from) to \(to); counts and per-period totals match.")
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info", abstract: "Show where the ledger is, its engine and schema, and what it holds.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let info = try LedgerInfo().run(at: store.location)
            if output.json {
                let object: [String: Any] = [
                    "location": info.location, "engine": info.engine.map { $0 as Any } ?? NSNull(), "schema": info.schema.last.map { $0 as Any } ?? NSNull(),
                    "migrations": info.schema, "budgets": info.budgets, "expenses": info.expenses, "recurringRules": info.recurringRules,
                    "changeSets": info.changeSets,
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
                Console.write(String(decoding: data, as: UTF8.self))
            } else {
                Console.write(
                    """
                    location \(info.location)
                    engine \(info.engine ?? "in memory")
                    schema \(info.schema.last ?? "none")
                    budgets \(info.budgets)
                    expenses \(info.expenses)
                    recurring-rules \(info.recurringRules)
                    change-sets \(info.changeSets)
                    """)
            }
        }
    }
}
