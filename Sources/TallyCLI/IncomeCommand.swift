import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

struct IncomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "income",
        abstract: "Record money coming in to an account.",
        subcommands: [Add.self, List.self, Edit.self, Remove.self]
    )
}

extension IncomeCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an income to an account.")

        @Argument(help: "Who paid it, like Salary.")
        var name: String

        @Argument(help: "The amount, like 3200 or 3200.50; in another currency '3200 USD' or with --currency.")
        var amount: String

        @OptionGroup var foreign: ForeignOptions

        @Option(help: "The account it was paid to, ignoring case and accents.", completion: .accountNames)
        var account: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The day it came in, \(PhraseHelp.days) (default: today).", valueName: "day"))
        var date: String?

        @Option(name: .customLong("tag"), help: "Tag the income; repeat for several tags.", completion: .tags)
        var tags: [String] = []

        @Option(help: ArgumentHelp("Who received it (default: $TALLY_USER, else your login name).", valueName: "name"))
        var by: String?

        @OptionGroup var store: CommonOptions

        func validate() throws {
            _ = try foreign.typed(amount)
            if let date { _ = try ArgumentValue.day(date) }
            _ = try ArgumentValue.tags(tags)
            if let by { _ = try ArgumentValue.by(by) }
        }

        func run() throws {
            let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
            let receiver = try by.map { (name: String) throws(ValidationError) in try ArgumentValue.by(name) } ?? Spender.current()
            let (amount, original, rate) = try foreign.parts(amount)
            let income = Income(name: name, amount: amount, date: day, accountID: 0, tags: tags, by: receiver)
            let ledger = store.ledger
            let (saved, accountName) = try AddIncome(income, account: account, original: original, rate: rate).run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Added income #\(saved.id ?? 0) \(saved.date.isoString) \(saved.name): \(ListRenderers.entryAmount(saved.amount, foreign: saved.foreign, money: money)) to \(accountName).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List incomes, oldest first.")

        @OptionGroup var filter: EntryFilterOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let result = try filter.entries(in: ledger)
            if output.json {
                Console.write(try ListJSON.encode(result.incomes.map { ListJSON.IncomeItem($0, accountName: result.accountNames[$0.accountID] ?? "") }))
            } else if result.incomes.isEmpty {
                Console.write("No incomes match.")
            } else {
                let money = try Preferences.current.moneyFormat(for: ledger)
                Console.write(ListRenderers.incomesAsTable(result.incomes, accountNames: result.accountNames, money: money))
            }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change an income.",
            discussion: """
                An income on or before the day its account was reconciled through changes only with --force. An amount \
                with a currency ('3200 USD', or --currency) is converted again at --rate or the rate table's rate on the \
                income's day; a plain --amount is in the ledger's currency. --rate table takes the table's rate again.
                """)

        @Argument(help: "The income's id, as shown by 'income list'.")
        var id: Int64

        @Option(help: "A new payer name.")
        var name: String?

        @Option(help: ArgumentHelp("A new amount; in another currency '3200 USD' or with --currency.", valueName: "amount"))
        var amount: String?

        @OptionGroup var foreign: EditForeignOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("A new day, \(PhraseHelp.days).", valueName: "day"))
        var date: String?

        @Option(help: "Move it to this account.", completion: .accountNames)
        var account: String?

        @Option(name: .customLong("tag"), help: "Replace the tags; repeat for several.", completion: .tags)
        var tags: [String] = []

        @Option(help: ArgumentHelp("Who received it.", valueName: "name"))
        var by: String?

        @Flag(help: "Change a reconciled income.")
        var force = false

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard name != nil || amount != nil || date != nil || account != nil || !tags.isEmpty || by != nil || foreign.rate != nil else {
                throw ValidationError("nothing to change: give --name, --amount, --date, --account, --tag, --by or --rate")
            }
            _ = try foreign.typed(amount)
            _ = try foreign.rateChoice()
            if let date { _ = try ArgumentValue.day(date) }
            _ = try ArgumentValue.tags(tags)
            if let by { _ = try ArgumentValue.by(by) }
        }

        func run() throws {
            let (ledgerAmount, original) = try foreign.parts(amount)
            var edit = EditIncome(
                id: id, name: name, amount: ledgerAmount, account: account, tags: tags.isEmpty ? nil : tags, force: force, original: original,
                rate: try foreign.rateChoice())
            edit.date = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }
            edit.by = try by.map { (text: String) throws(ValidationError) in try ArgumentValue.by(text) }
            let ledger = store.ledger
            let income = try edit.run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Updated income #\(income.id ?? 0) \(income.date.isoString) \(income.name): \(ListRenderers.entryAmount(income.amount, foreign: income.foreign, money: money)).")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an income.")

        @Argument(help: "The income's id, as shown by 'income list'.")
        var id: Int64

        @Flag(help: "Remove a reconciled income.")
        var force = false

        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let income = try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.removeIncome(id: id, force: force) }
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Removed income #\(id) \(quoted(income.name)) (\(money.string(income.amount))).")
        }
    }
}
