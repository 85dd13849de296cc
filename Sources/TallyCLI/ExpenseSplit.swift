import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension ExpenseCommand {
    /// `expense split ID --split …`: an expense's whole total into lines.
    struct Split: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "split", abstract: "Split an expense into lines, each in its own budget.",
            discussion: "The lines sum exactly to the expense's total; one line may take the rest. Percentages are rounded to the cent, the remainder going to the largest line.")

        @Argument(help: "The expense's id, as shown by 'expense list'.")
        var id: Int64

        @Option(name: .customLong("split"), help: SplitLines.help)
        var split: [String] = []

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard !split.isEmpty else { throw ValidationError("Missing expected argument '--split <budget=share>': give each line") }
            _ = try SplitLines.parse(split)
        }

        func run() throws {
            let ledger = store.ledger
            let (expense, names) = try SplitExpense(id: id, .split(try SplitLines.parse(split))).run(in: ledger)
            Console.write("Split expense " + (try ListRenderers.splitExpenseLines(expense, budgetNames: names, money: try Preferences.current.moneyFormat(for: ledger))))
        }
    }

    /// `expense unsplit ID --budget B`: a split expense whole again.
    struct Unsplit: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unsplit", abstract: "Turn a split expense back into one, in one budget.")

        @Argument(help: "The expense's id, as shown by 'expense list'.")
        var id: Int64

        @Option(name: [.customShort("b"), .long], help: "The budget the whole expense goes to.", completion: .budgetNames)
        var budget: String

        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let (expense, names) = try SplitExpense(id: id, .unsplit(budget: budget)).run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Unsplit expense " + (try ListRenderers.expenseLine(expense, budgetName: names[expense.budgetID] ?? budget, money: money)))
        }
    }
}

extension Tally {
    /// `tally refund NAME AMOUNT -b BUDGET [--of ID]`: money back into a budget.
    struct Refund: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refund", abstract: "Record money coming back into a budget (a refund, not income).",
            discussion: "It lowers the budget's spending in its period, below zero if need be. --of links it to the expense it returns.")

        @Argument(help: "What was returned.")
        var name: String

        @Argument(help: "The amount that came back, like 39.99; in another currency '4500 JPY' or 'JPY 4500' (or with --currency).")
        var amount: String

        @Option(name: [.customShort("b"), .long], help: "The budget it goes back into.", completion: .budgetNames)
        var budget: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The day of the refund, \(PhraseHelp.days) (default: today).", valueName: "day"))
        var date: String?

        @Option(help: ArgumentHelp("The id of the expense it returns.", valueName: "id"))
        var of: Int64?

        @Option(help: ArgumentHelp("The account the money came back to.", valueName: "name"), completion: .accountNames)
        var account: String?

        @OptionGroup var foreign: ForeignOptions

        @OptionGroup var store: CommonOptions

        func validate() throws {
            _ = try foreign.typed(amount)
            if let date { _ = try ArgumentValue.day(date) }
        }

        func run() throws {
            let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
            let (ledgerAmount, original, given) = try foreign.parts(amount)
            let refund = Expense(name: name, amount: ledgerAmount, date: day, budgetID: 0, by: try Spender.current())
            let ledger = store.ledger
            let (saved, status) = try AddRefund(refund, budget: budget, of: of, account: account, original: original, rate: given).run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write("Added " + (try ListRenderers.expenseLine(saved, budgetName: status.budget.name, money: money)) + "\n"
                + ListRenderers.remainingLine(status, money: money))
        }
    }
}
