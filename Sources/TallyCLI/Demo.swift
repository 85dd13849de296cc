import ArgumentParser
import TallyCore
import TallyUseCases

extension Tally {
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Fill an empty database with realistic sample budgets and expenses.",
            discussion: """
                Adds eight budgets and six months of a household's expenses ending today, with one \
                budget over its limit this month: two people spend, Groceries rolls over what is \
                left, a checking account and a card take a salary and a card payment each month, \
                and the rent is a recurring bill with every month paid. With --expenses it adds \
                that many expenses over twelve budgets instead, and with --accounts, --incomes or \
                --transfers those accounts and entries. The same seed gives the same data on the \
                same day. A database that already has budgets is left alone.
                """
        )


        @Option(help: "Generate this many expenses, spread over twelve budgets.")
        var expenses: Int?

        @Option(help: "Spread the expenses over this many months, ending with the current one (default: 6, or 24 with --expenses).")
        var months: Int?

        @Option(help: "Seed the generator; the same seed gives the same data.")
        var seed: UInt64 = FillDemo.defaultSeed

        @Option(help: "Open this many accounts (up to 5: checking, a card, savings, cash, a loan) and pay the expenses from them.")
        var accounts = 0

        @Option(help: "Add this many incomes to the first account, a salary each month (needs --accounts).")
        var incomes = 0

        @Option(help: "Add this many transfers out of the first account (needs --accounts 2 or more).")
        var transfers = 0

        @OptionGroup var store: CommonOptions


        func validate() throws {
            let (counts, spans) = (FillDemo.expenseCounts, FillDemo.monthSpans)
            if let expenses, !counts.contains(expenses) {
                throw ValidationError("invalid number of expenses \(expenses): use \(counts.lowerBound) to \(counts.upperBound)")
            }
            if let months, !spans.contains(months) {
                throw ValidationError("invalid number of months \(months): use \(spans.lowerBound) to \(spans.upperBound)")
            }
            let (accountCounts, entryCounts) = (FillDemo.accountCounts, FillDemo.entryCounts)
            guard accountCounts.contains(accounts) else {
                throw ValidationError("invalid number of accounts \(accounts): use \(accountCounts.lowerBound) to \(accountCounts.upperBound)")
            }
            for (flag, count) in [("incomes", incomes), ("transfers", transfers)] where !entryCounts.contains(count) {
                throw ValidationError("invalid number of \(flag) \(count): use \(entryCounts.lowerBound) to \(entryCounts.upperBound)")
            }
            guard incomes == 0 || accounts >= 1 else { throw ValidationError("--incomes needs --accounts") }
            guard transfers == 0 || accounts >= 2 else { throw ValidationError("--transfers needs --accounts 2 or more") }
        }

        func run() throws {
            var demo = FillDemo(expenseCount: expenses, months: months, seed: seed, today: Day.today())
            (demo.accounts, demo.incomes, demo.transfers) = (accounts, incomes, transfers)
            demo.showcase = expenses == nil && accounts == 0 && incomes == 0 && transfers == 0
            do {
                let added = try demo.run(in: store.ledger)
                let money = added.accounts == 0 ? "" : ", \(added.accounts) accounts and \(added.entries) incomes and transfers"
                Console.write(
                    "Added \(added.budgets) budgets and \(added.expenses) expenses\(money) to \(quoted(store.resolvedPath())). Try: tally budget list")
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
