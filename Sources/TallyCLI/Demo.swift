import ArgumentParser
import TallyCore
import TallyUseCases

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


        @Option(help: "Generate this many expenses, spread over twelve budgets.")
        var expenses: Int?

        @Option(help: "Spread the expenses over this many months, ending with the current one (default: 6, or 24 with --expenses).")
        var months: Int?

        @Option(help: "Seed the generator; the same seed gives the same data.")
        var seed: UInt64 = FillDemo.defaultSeed

        @OptionGroup var store: CommonOptions


        func validate() throws {
            let (counts, spans) = (FillDemo.expenseCounts, FillDemo.monthSpans)
            if let expenses, !counts.contains(expenses) {
                throw ValidationError("invalid number of expenses \(expenses): use \(counts.lowerBound) to \(counts.upperBound)")
            }
            if let months, !spans.contains(months) {
                throw ValidationError("invalid number of months \(months): use \(spans.lowerBound) to \(spans.upperBound)")
            }
        }

        func run() throws {
            let demo = FillDemo(expenseCount: expenses, months: months, seed: seed, today: Day.today())
            do {
                let added = try demo.run(in: store.ledger)
                Console.write("Added \(added.budgets) budgets and \(added.expenses) expenses to \(quoted(store.resolvedPath())). Try: tally budget list")
            } catch let refusal as FillDemo.LedgerNotEmpty {
                throw DemoRefusal(path: store.resolvedPath(), budgetCount: refusal.budgetCount)
            }
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
