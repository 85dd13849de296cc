import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally reconcile Checking --balance 2345.67`: checks the ledger against the bank's balance.
struct Reconcile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Check an account's balance against the bank's, and lock what matches.",
        discussion: """
            When the balance matches, the assertion is recorded and the account's entries up to that \
            day are reconciled: changing them then needs --force. When it does not, nothing is \
            recorded: the difference and the entries since the last assertion are shown, and the \
            exit status is 1. For credit and loan accounts, give the amount owed.
            """)

    @Argument(help: "The account, ignoring case and accents.", completion: .accountNames)
    var account: String?

    @Option(parsing: .unconditional, help: "The balance the bank shows (owed, for credit and loan).")
    var balance: String?

    @Option(name: .customLong("as-of"), parsing: .unconditional, help: ArgumentHelp("The day of that balance, \(PhraseHelp.days) (default: today).", valueName: "day"))
    var asOf: String?

    @Flag(help: "List the recorded assertions instead (of ACCOUNT, or every account).")
    var list = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var store: CommonOptions

    func validate() throws {
        if list {
            guard balance == nil, asOf == nil else { throw ValidationError("--list takes no --balance or --as-of") }
            return
        }
        guard account != nil else { throw ValidationError("Missing expected argument '<account>'") }
        guard let balance else { throw ValidationError("Missing expected argument '--balance <balance>'") }
        _ = try ArgumentValue.balance(balance)
        if let asOf { _ = try ArgumentValue.day(asOf) }
    }

    func run() throws {
        let ledger = store.ledger
        if list { return try listAssertions(ledger) }
        guard let account, let balance else { return }
        let day = try asOf.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
        let amount = try ArgumentValue.balance(balance)
        let result = try ledger.perform { (store: any DataAccess) throws(TallyError) in
            try store.reconcile(accountNamed: account, balance: amount, on: day)
        }
        let money = try Preferences.current.moneyFormat(for: ledger)
        if result.matches {
            Console.write("Reconciled \(result.account.name) through \(day.isoString): balance \(money.string(result.actual)).")
            return
        }
        Console.write(try ListRenderers.reconciliationMiss(result, money: money))
        throw ExitCode(1)
    }

    private func listAssertions(_ ledger: Ledger) throws {
        let assertions = try ListAssertions(account: account).run(in: ledger)
        if output.json {
            Console.write(try ListJSON.encode(assertions.map { ListJSON.AssertionItem(account: $0.account, assertion: $0.assertion) }))
        } else if assertions.isEmpty {
            Console.write("No balance assertions yet.")
        } else {
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write(ListRenderers.assertionsAsTable(assertions, money: money))
        }
    }
}
