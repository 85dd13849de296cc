import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension ExpenseSort: ExpressibleByArgument {}

extension ExpenseCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List expenses, filtered, sorted and a page at a time.",
            discussion: "Sorting is stable: expenses that tie are ordered by id."
        )


        @Option(name: [.customShort("b"), .long], help: "Show only this budget's expenses.", completion: .budgetNames)
        var budget: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Show only this month's expenses, \(PhraseHelp.months).", valueName: "month"))
        var month: String?

        @Option(help: ArgumentHelp("Show only expenses whose name contains this text, ignoring case and accents.", valueName: "text"))
        var search: String?

        @Option(help: "Show only expenses with this tag.", completion: .tags)
        var tag: String?

        @Option(help: ArgumentHelp("Show only expenses this person spent (as recorded by add --by).", valueName: "name"))
        var by: String?

        @Option(help: ArgumentHelp("Show only expenses paid from this account.", valueName: "name"), completion: .accountNames)
        var account: String?

        @Option(help: "Sort by this field.")
        var sort: ExpenseSort = .date

        @Flag(help: "Sort in descending order.")
        var desc = false

        @Option(help: "Show this page, counting from 1.")
        var page: Int = 1

        @Option(help: "Show this many expenses per page, from 1 to 1000.")
        var pageSize: Int = 50

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let month { _ = try ArgumentValue.period(month) }
            if let tag { _ = try ArgumentValue.tags([tag]) }
            if let by { _ = try ArgumentValue.by(by) }
            guard page >= 1 else { throw ValidationError("invalid page \(page): pages count from 1") }
            guard (1...ListExpenses.maximumPageSize).contains(pageSize) else {
                throw ValidationError("invalid page size \(pageSize): use 1 to \(ListExpenses.maximumPageSize)")
            }
        }

        func run() throws {
            var list = ListExpenses(budget: budget, search: search, tag: tag, sort: sort, descending: desc, page: page, pageSize: pageSize)
            list.by = by
            list.account = account
            list.period = try month.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) }
            let ledger = store.ledger
            let result = try list.run(in: ledger)
            if output.json {
                Console.write(try result.json())
            } else if result.total == 0 {
                Console.write("No expenses match.")
            } else if result.expenses.isEmpty {
                let pages = result.pageCount
                Console.write("No expenses on page \(page): there \(pages == 1 ? "is 1 page" : "are \(pages) pages").")
            } else {
                let footer = "Page \(page) of \(result.pageCount), \(counted(result.total, "expense")) in all."
                Console.write(try ListRenderers.expensesAsTable(
                    result.expenses, budgetNames: result.budgetNames, accountNames: result.accountNames, money: try Preferences.current.moneyFormat(for: ledger),
                    linesOf: budget.flatMap { name in result.budgetNames.first { NameKey.lookup($0.value) == NameKey.lookup(name) }?.key }) + "\n\n" + footer)
            }
        }
    }
}
