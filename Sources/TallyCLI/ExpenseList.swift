import ArgumentParser
import TallyCore

extension ExpenseSort: ExpressibleByArgument {}

extension Tally.Expense {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List expenses, filtered, sorted and a page at a time.",
            discussion: "Sorting is stable: expenses that tie are ordered by id."
        )

        static let maximumPageSize = 1000

        @Option(name: [.customShort("b"), .long], help: "Show only this budget's expenses.")
        var budget: String?

        @Option(help: ArgumentHelp("Show only this month's expenses.", valueName: "YYYY-MM"))
        var month: String?

        @Option(help: ArgumentHelp("Show only expenses whose name contains this text, ignoring case and accents.", valueName: "text"))
        var search: String?

        @Option(help: "Show only expenses with this tag.")
        var tag: String?

        @Option(help: "Sort by this field.")
        var sort: ExpenseSort = .date

        @Flag(help: "Sort in descending order.")
        var desc = false

        @Option(help: "Show this page, counting from 1.")
        var page: Int = 1

        @Option(help: "Show this many expenses per page, from 1 to 1000.")
        var pageSize: Int = 50

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let month { _ = try ArgumentValue.month(month) }
            if let tag { _ = try ArgumentValue.tags([tag]) }
            guard page >= 1 else { throw ValidationError("invalid page \(page): pages count from 1") }
            guard (1...List.maximumPageSize).contains(pageSize) else {
                throw ValidationError("invalid page size \(pageSize): use 1 to \(List.maximumPageSize)")
            }
        }

        func run() throws {
            var query = ExpenseQuery(search: search, tag: tag, sort: sort, descending: desc)
            if let month { query.days = try ArgumentValue.month(month).days }
            let database = try store.openStore()
            if let budget { query.budgetID = try database.budget(named: budget).id }
            let total = try database.countExpenses(query)
            // Multiplying first could overflow on a huge page number; such a page is simply empty.
            let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: pageSize)
            query.offset = overflow ? Int.max : offset
            query.limit = pageSize
            let expenses = overflow || offset >= total ? [] : try database.expenses(query)
            var names: [Int64: String] = [:]
            for each in try database.budgets() { names[each.id ?? 0] = each.name }

            if output.json {
                var items: [JSONOutput.ExpenseItem] = []
                for expense in expenses {
                    items.append(try JSONOutput.ExpenseItem(expense, budgetName: names[expense.budgetID] ?? ""))
                }
                Console.write(try JSONOutput.encode(items))
                return
            }
            let pages = max((total + pageSize - 1) / pageSize, 1)
            if total == 0 {
                Console.write("No expenses match.")
            } else if expenses.isEmpty {
                Console.write("No expenses on page \(page): there \(pages == 1 ? "is 1 page" : "are \(pages) pages").")
            } else {
                let footer = "Page \(page) of \(pages), \(total) expense\(total == 1 ? "" : "s") in all."
                Console.write(try Renderers.expensesAsTable(expenses, budgetNames: names) + "\n\n" + footer)
            }
        }
    }
}
