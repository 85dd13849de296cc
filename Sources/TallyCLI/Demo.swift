import ArgumentParser
import TallyCore

extension Tally {
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Fill an empty database with realistic sample budgets and expenses.",
            discussion: """
                Adds eight budgets and six months of expenses ending today, with one budget over \
                its limit this month. With --expenses it adds that many expenses over twelve \
                budgets instead. The same seed gives the same data on the same day. A database \
                that already has budgets is left alone.
                """
        )

        static let defaultSeed: UInt64 = 2026

        @Option(help: "Generate this many expenses, spread over twelve budgets.")
        var expenses: Int?

        @Option(help: "Spread the expenses over this many months, ending with the current one (default: 6, or 24 with --expenses).")
        var months: Int?

        @Option(help: "Seed the generator; the same seed gives the same data.")
        var seed: UInt64 = Demo.defaultSeed

        @OptionGroup var store: StoreOptions

        /// Large data sets are written in batches, each one transaction, to bound memory.
        static let batchSize = 50_000

        func validate() throws {
            if let expenses, !(0...100_000_000).contains(expenses) {
                throw ValidationError("invalid number of expenses \(expenses): use 0 to 100000000")
            }
            if let months, !(1...1200).contains(months) {
                throw ValidationError("invalid number of months \(months): use 1 to 1200")
            }
        }

        func run() throws {
            let database = try store.openStore()
            let existing = try database.budgets()
            guard existing.isEmpty else {
                throw DemoRefusal(path: store.resolvedPath(), budgetCount: existing.count)
            }
            let plans = expenses == nil ? DemoData.plans : DemoData.plans + DemoData.extraPlans
            var saved: [(plan: DemoData.Plan, budgetID: Int64)] = []
            for plan in plans {
                let budget = try database.addBudget(TallyCore.Budget(name: plan.name, limit: plan.limit))
                saved.append((plan, budget.id ?? 0))
            }
            var generator = DemoData(seed: seed)
            let today = Day.today()
            var added = 0
            if let expenses {
                let months = months ?? 24
                let first = today.monthValue.adding(months: 1 - months)
                // Month by month, oldest first, each month its even share of the expenses.
                for index in 0..<months {
                    var remaining = expenses * (index + 1) / months - expenses * index / months
                    while remaining > 0 {
                        let count = min(Demo.batchSize, remaining)
                        added += try database.addExpenses(
                            generator.expenses(count: count, plans: saved, in: first.adding(months: index), today: today))
                        remaining -= count
                    }
                }
            } else {
                added = try database.addExpenses(generator.typicalExpenses(plans: saved, months: months ?? 6, today: today))
            }
            Console.write("Added \(saved.count) budgets and \(added) expenses to \(quoted(store.resolvedPath())). Try: tally budget list")
        }
    }
}

/// `demo` fills only an empty database, so it can never mix sample data into real records.
struct DemoRefusal: Error, CustomStringConvertible {
    let path: String
    let budgetCount: Int

    var description: String {
        "the database \(quoted(path)) already has \(budgetCount) budget\(budgetCount == 1 ? "" : "s"); demo fills only an empty database (use --db with a new file)"
    }
}
