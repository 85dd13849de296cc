import ArgumentParser
import TallyCore
import TallyStores

/// What `expense add` and its alias `add` take; one struct so the two cannot drift apart.
struct ExpenseAddOptions: ParsableArguments {
    @Argument(help: "What was bought.")
    var name: String

    @Argument(help: "The price of one item, like 12 or 12.50.")
    var amount: String

    @Option(name: [.customShort("b"), .long], help: "The budget it comes out of, ignoring case and accents.")
    var budget: String

    @Option(help: "How many items were bought.")
    var quantity: Int64 = 1

    @Option(help: ArgumentHelp("The day it was bought (default: today).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(name: .customLong("tag"), help: "Tag the expense; repeat for several tags.")
    var tags: [String] = []

    @OptionGroup var store: StoreOptions

    var addition: ExpenseAddition {
        ExpenseAddition(name: name, amount: amount, budget: budget, quantity: quantity, date: date, tags: tags, db: store.db)
    }

    func validate() throws {
        try addition.validate()
    }

    func addExpense() throws {
        try addition.run()
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
    var db: String?

    func validate() throws(ValidationError) {
        _ = try ArgumentValue.amount(amount)
        _ = try ArgumentValue.quantity(quantity)
        if let date { _ = try ArgumentValue.day(date) }
        _ = try ArgumentValue.tags(tags)
    }

    /// Saves the expense, prints it with what is left of its budget that month, and warns on
    /// stderr when the budget is now over its limit.
    func run() throws {
        let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? Day.today()
        let database = try StoreLocation(StoreOptions.resolvedPath(db: db)).open()
        let (expense, status) = try database.addExpense(
            Expense(name: name, amount: try ArgumentValue.amount(amount), quantity: quantity, date: day, budgetID: 0, tags: tags),
            toBudgetNamed: budget)
        let target = status.budget
        Console.write("Added expense " + (try Renderers.expenseLine(expense, budgetName: target.name)) + "\n"
            + Renderers.remainingLine(status))
        if status.isOverBudget {
            Console.warn("budget \(quoted(target.name)) is over its limit for \(status.month.isoString) by \(Money(cents: -status.remaining.cents).groupedString)")
        }
        // The process ends right after, and closing is all it needs: releasing the store as well
        // would remove GRDB's notification observers and start a dispatch worker thread to dispose
        // of its queue, 0.2 ms of a `tally add`. The expense is committed whether or not this closes.
        try? database.close()
        _ = Unmanaged.passRetained(database as AnyObject)
    }
}
