import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension ExpenseCommand {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an expense; only the given fields change.",
            discussion: """
                Giving --tag replaces all the expense's tags; --clear-tags removes them. An expense on or before the day \
                its account was reconciled through changes only with --force. An amount with a currency ('4500 JPY', \
                or --currency) is converted again at --rate or the rate table's rate on the expense's day; a plain \
                --amount is in the ledger's currency. --rate table takes the table's rate again.
                """
        )

        @Argument(help: "The expense's id, as shown by 'expense list'.")
        var id: Int64

        @Option(help: "Set this name.")
        var name: String?

        @Option(help: ArgumentHelp("Set this price of one item; in another currency '4500 JPY' or with --currency.", valueName: "amount"))
        var amount: String?

        @OptionGroup var foreign: EditForeignOptions

        @Option(help: "Set this quantity.")
        var quantity: Int64?

        @Option(parsing: .unconditional, help: ArgumentHelp("Set this day, \(PhraseHelp.days).", valueName: "day"))
        var date: String?

        @Option(name: [.customShort("b"), .long], help: "Move the expense to this budget.", completion: .budgetNames)
        var budget: String?

        @Option(name: .customLong("tag"), help: "Replace the tags with these; repeat for several tags.", completion: .tags)
        var tags: [String] = []

        @Flag(help: "Remove all the expense's tags.")
        var clearTags = false

        @Option(help: ArgumentHelp("Set the account it was paid from.", valueName: "name"), completion: .accountNames)
        var account: String?

        @Flag(help: "Pay it from no account.")
        var noAccount = false

        @Flag(help: "Change it even where its account is reconciled.")
        var force = false

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard name != nil || amount != nil || quantity != nil || date != nil || budget != nil
                || !tags.isEmpty || clearTags || account != nil || noAccount || foreign.rate != nil
            else {
                throw ValidationError(
                    "nothing to change: give at least one of --name, --amount, --quantity, --date, --budget, --tag, --clear-tags, --account, --no-account or --rate")
            }
            _ = try foreign.typed(amount)
            _ = try foreign.rateChoice()
            guard tags.isEmpty || !clearTags else { throw ValidationError("--tag and --clear-tags cannot be used together") }
            guard account == nil || !noAccount else { throw ValidationError("--account and --no-account cannot be used together") }
            if let quantity { _ = try ArgumentValue.quantity(quantity) }
            if let date { _ = try ArgumentValue.day(date) }
            _ = try ArgumentValue.tags(tags)
        }

        func run() throws {
            let (ledgerAmount, original) = try foreign.parts(amount)
            let edit = EditExpense(
                id: id, name: name, amount: ledgerAmount,
                quantity: quantity, date: try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) },
                budget: budget, tags: clearTags ? [] : tags.isEmpty ? nil : tags, account: noAccount ? .some(nil) : account.map { $0 },
                force: force, original: original, rate: try foreign.rateChoice())
            let ledger = store.ledger
            let (expense, budgetName) = try edit.run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Updated expense " + (try ListRenderers.expenseLine(expense, budgetName: budgetName, money: money)))
        }
    }
}
