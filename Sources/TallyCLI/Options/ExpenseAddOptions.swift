import ArgumentParser
import TallyCore
import TallyReports
import TallyStores
import TallyUseCases

/// What `expense add` and its alias `add` take; one struct so the two cannot drift apart.
struct ExpenseAddOptions: ParsableArguments {
    @Argument(help: "What was bought.")
    var name: String

    @Argument(help: "The price of one item, like 12 or 12.50; in another currency '4500 JPY' or 'JPY 4500' (or with --currency).")
    var amount: String

    @Option(
        name: [.customShort("b"), .long],
        help: "The budget it comes out of, ignoring case and accents (default: default-budget in the config file).",
        completion: .budgetNames)
    var budget: String?

    @Option(help: "How many items were bought.")
    var quantity: Int64 = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("The day it was bought, \(PhraseHelp.days) (default: today).", valueName: "day"))
    var date: String?

    @Option(name: .customLong("tag"), help: "Tag the expense; repeat for several tags.", completion: .tags)
    var tags: [String] = []

    @Option(help: ArgumentHelp("Who spent it (default: $TALLY_USER, else your login name).", valueName: "name"))
    var by: String?

    @Option(
        help: ArgumentHelp(
            "The account it was paid from (default: default-account in the config file, else the ledger's setting).", valueName: "name"),
        completion: .accountNames)
    var account: String?

    @OptionGroup var foreign: ForeignOptions

    @Option(name: .customLong("split"), help: SplitLines.help)
    var split: [String] = []

    @OptionGroup var store: CommonOptions

    /// The expense to add; without `-b`, in the config file's `default-budget`; without
    /// `--account`, paid from its `default-account`, else the ledger's.
    func addition(
        defaultBudget: String? = Preferences.current.config.defaultBudget,
        defaultAccount: String? = Preferences.current.config.defaultAccount
    ) -> ExpenseAddition {
        ExpenseAddition(
            name: name, amount: amount, budget: budget ?? defaultBudget ?? "", quantity: quantity, date: date, tags: tags, by: by,
            account: account ?? defaultAccount, currency: foreign.currency, rate: foreign.rate, split: split, db: store.db)
    }

    func validate() throws {
        try addition().validate()
    }

    func addExpense() throws {
        try addition().run()
    }
}

/// An `expense add` as plain values, which `QuickAdd` can build without ArgumentParser.
struct ExpenseAddition: Equatable {
    var name: String
    var amount: String
    var budget: String
    var quantity: Int64 = 1
    var date: String?
    var tags: [String] = []
    /// `nil`: ``Spender/current(environment:)``.
    var by: String?
    /// `nil`: the ledger's default account, if any.
    var account: String?
    /// `--currency`: the amount's currency, when it is not the ledger's.
    var currency: String?
    /// `--rate`: the rate charged, over the rate table's.
    var rate: String?
    /// `--split`: the lines of a split expense, instead of one budget.
    var split: [String] = []
    var db: String?

    /// A missing budget is a usage error too, but it is checked when the expense is added: the
    /// config file's default may stand in, and the options are the same with or without one.
    func validate() throws(ValidationError) {
        let typed = try ForeignOptions.typed(amount, currency: currency, rate: rate)
        _ = try ArgumentValue.quantity(quantity)
        if let date { _ = try ArgumentValue.day(date) }
        _ = try ArgumentValue.tags(tags)
        if let by { _ = try ArgumentValue.by(by) }
        if !split.isEmpty {
            // Fixed lines are in the amount's currency, and checked against its total.
            switch typed {
            case .ledger(let money):
                let lines = try SplitLines.parse(split)
                do { try NamedLine.check(lines, total: try money.multiplied(by: quantity)) } catch { throw ValidationError(error.message) }
            case .foreign(let original):
                let lines = try SplitLines.parse(split, in: original.currency)
                do { try NamedLine.check(lines, total: try original.multiplied(by: quantity)) } catch {
                    throw ValidationError(error.message)
                }
            }
        }
    }

    /// Saves the expense and prints it with what is left of its budget that month, and one more
    /// line when this expense moved the budget past its warning level or over: an alert is said
    /// once, on crossing, never again on the adds after it.
    func run() throws {
        if !split.isEmpty { return try runSplit() }
        guard !budget.isEmpty else {
            throw ValidationError("Missing expected argument '--budget <budget>': name the budget with -b, or set default-budget in the config file")
        }
        let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
        let spender = try by.map { (name: String) throws(ValidationError) in try ArgumentValue.by(name) } ?? Spender.current()
        let (ledgerAmount, original, given) = try typedAmount()
        let expense = Expense(name: name, amount: ledgerAmount, quantity: quantity, date: day, budgetID: 0, tags: tags, by: spender)
        let ledger = Ledger(location: StoreLocation(CommonOptions.resolvedPath(db: db)))
        defer { ledger.closeUntilExit() }
        let (saved, status) = try AddExpense(expense, budget: budget, account: account, original: original, rate: given).run(in: ledger)
        let money = try Preferences.current.moneyFormat(for: ledger)
        // The crossing is read off the status `add` already answered: no second query.
        let crossing = BudgetLevel.crossed(by: try saved.total(), into: status).map { "\n" + ListRenderers.crossingLine(status, crossed: $0, money: money) } ?? ""
        Console.write("Added expense " + (try ListRenderers.expenseLine(saved, budgetName: status.budget.name, money: money)) + "\n"
            + ListRenderers.remainingLine(status, money: money) + crossing)
    }
}

extension ExpenseAddition {
    /// The amount as typed (``TypedAmount/parts``) and the rate given, if any.
    func typedAmount() throws(ValidationError) -> (ledger: Money, original: CurrencyAmount?, rate: ExchangeRate?) {
        try ForeignOptions.parts(amount, currency: currency, rate: rate)
    }

    /// `add --split`: saves the expense split into its lines and prints it with each line and
    /// what is left of each line's budget.
    func runSplit() throws {
        let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
        let spender = try by.map { (name: String) throws(ValidationError) in try ArgumentValue.by(name) } ?? Spender.current()
        let (ledgerAmount, original, given) = try typedAmount()
        let lines = try SplitLines.parse(split, in: original?.currency)
        let expense = Expense(name: name, amount: ledgerAmount, quantity: quantity, date: day, budgetID: 0, tags: tags, by: spender)
        let ledger = Ledger(location: StoreLocation(CommonOptions.resolvedPath(db: db)))
        defer { ledger.closeUntilExit() }
        let (saved, statuses) = try AddSplitExpense(expense, lines: lines, account: account, original: original, rate: given).run(in: ledger)
        let money = try Preferences.current.moneyFormat(for: ledger)
        var names: [Int64: String] = [:]
        for status in statuses { names[status.budget.id ?? 0] = status.budget.name }
        Console.write("Added expense " + (try ListRenderers.splitExpenseLines(saved, budgetNames: names, money: money)) + "\n"
            + statuses.map { ListRenderers.remainingLine($0, money: money) }.joined(separator: "\n"))
    }
}
