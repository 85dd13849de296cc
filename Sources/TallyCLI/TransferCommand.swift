import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally transfer 500 --from Checking --to Savings`, with `list` and `remove` beside it.
struct TransferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Move money between two accounts: neither income nor spending.",
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: Add.self
    )
}

extension TransferCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Record a transfer (the default: 'tally transfer 500 --from A --to B').",
            discussion: "Paying a credit card is a transfer to it: what is owed goes down.")

        @Argument(help: "The amount, like 500 or 499.99.")
        var amount: String

        @Option(help: "The account the money leaves.", completion: .accountNames)
        var from: String

        @Option(help: "The account the money goes to.", completion: .accountNames)
        var to: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The day, \(PhraseHelp.days) (default: today).", valueName: "day"))
        var date: String?

        @Option(help: "What it was for.")
        var name: String?

        @OptionGroup var store: CommonOptions

        func validate() throws {
            _ = try ArgumentValue.amount(amount)
            if let date { _ = try ArgumentValue.day(date) }
            if NameKey.lookup(from) == NameKey.lookup(to) { throw ValidationError(TallyError.transferToSameAccount.message) }
        }

        func run() throws {
            let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
            let transfer = Transfer(amount: try ArgumentValue.amount(amount), date: day, from: 0, to: 0, name: name ?? "")
            let ledger = store.ledger
            let (saved, source, target) = try ledger.perform { (store: any DataAccess) throws(TallyError) in
                try store.addTransfer(transfer, from: from, to: to)
            }
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Added transfer #\(saved.id ?? 0) \(saved.date.isoString): \(money.string(saved.amount)) from \(source.name) to \(target.name).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List transfers, oldest first.")

        @OptionGroup var filter: EntryFilterOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let result = try filter.entries(in: ledger)
            if output.json {
                Console.write(try ListJSON.encode(result.transfers.map { ListJSON.TransferItem($0, accountNames: result.accountNames) }))
            } else if result.transfers.isEmpty {
                Console.write("No transfers match.")
            } else {
                let money = try Preferences.current.moneyFormat(for: ledger)
                Console.write(ListRenderers.transfersAsTable(result.transfers, accountNames: result.accountNames, money: money))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a transfer.")

        @Argument(help: "The transfer's id, as shown by 'transfer list'.")
        var id: Int64

        @Flag(help: "Remove a reconciled transfer.")
        var force = false

        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let transfer = try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.removeTransfer(id: id, force: force) }
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Removed transfer #\(id) (\(money.string(transfer.amount)) on \(transfer.date.isoString)).")
        }
    }
}
