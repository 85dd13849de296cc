import ArgumentParser
import TallyCore

/// The orders `budget list` offers; ties keep the name order.
enum BudgetSort: String, CaseIterable, ExpressibleByArgument {
    case name, limit, spent, remaining
}

extension Tally.Budget {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List budgets with their limit, spent and remaining for a month."
        )

        @OptionGroup var month: MonthOption

        @Option(help: ArgumentHelp("Show only budgets whose name contains this text, ignoring case and accents.", valueName: "text"))
        var search: String?

        @Option(help: "Sort by this column.")
        var sort: BudgetSort = .name

        @Flag(help: "Sort in descending order.")
        var desc = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let month = try month.resolved()
            let database = try store.openStore()
            let statuses = List.arranged(try database.budgetStatuses(for: month), search: search, sort: sort, descending: desc)
            if output.json {
                Console.write(try JSONOutput.encode(statuses.map(JSONOutput.BudgetFigures.init)))
            } else if statuses.isEmpty {
                Console.write(search == nil
                    ? "No budgets yet. Add one with: tally budget add NAME --limit AMOUNT"
                    : "No budget matches \(quoted(search ?? "")).")
            } else {
                Console.write("Budgets for \(month.isoString)\n\n" + Renderers.budgetsAsTable(statuses))
            }
        }

        /// Filters and sorts stably: the store's name order breaks ties in either direction.
        static func arranged(_ statuses: [BudgetStatus], search: String?, sort: BudgetSort, descending: Bool) -> [BudgetStatus] {
            var result = statuses
            if let search {
                let key = NameKey.lookup(search)
                if !key.isEmpty { result = result.filter { $0.budget.nameKey.contains(key) } }
            }
            let indexed = Array(result.enumerated())
            let ordered = indexed.sorted { lhs, rhs in
                var order = compare(lhs.element, rhs.element, by: sort)
                if sort == .name { order = lhs.offset < rhs.offset ? -1 : 1 }
                if order == 0 { return lhs.offset < rhs.offset }
                return descending ? order > 0 : order < 0
            }
            return ordered.map(\.element)
        }

        private static func compare(_ lhs: BudgetStatus, _ rhs: BudgetStatus, by sort: BudgetSort) -> Int {
            func sign(_ left: Money, _ right: Money) -> Int { left < right ? -1 : (left == right ? 0 : 1) }
            switch sort {
            case .name: return 0
            case .limit: return sign(lhs.budget.limit, rhs.budget.limit)
            case .spent: return sign(lhs.spent, rhs.spent)
            case .remaining: return sign(lhs.remaining, rhs.remaining)
            }
        }
    }
}
