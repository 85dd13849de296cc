import Foundation
import TallyTestSupport
import Testing

/// A split receipt and a refund in another currency (`add 4500 JPY --split …`, `refund 1000 JPY`):
/// fixed lines in the receipt's currency, converted at its rate, and `rates reapply` fitting the
/// lines to the new total (`NamedLine.converted`, `Expense.withLinesFitted`).
@Suite(.ownThreads) struct ForeignSplitCommandTests {
    func ledger() throws -> Sandbox {
        // Made once through the real `tally` and copied into each test.
        try Sandbox.seeded("foreignSplit.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            try sandbox.prepare(["budget", "add", "Food", "--limit", "500"])
            try sandbox.prepare(["budget", "add", "Drinks", "--limit", "100"])
            try sandbox.prepare(["rates", "set", "2026-03-06", "JPY", "EUR", "0.0061"])
        }
    }

    func lines(_ expense: [String: Any]) -> [String] {
        (expense["lines"] as? [[String: Any]] ?? []).map { "\($0["budget"] ?? "") \($0["amount"] ?? "")" }
    }

    @Test func fixedLinesAreInTheReceiptsCurrencyAndTheRestTakesWhatConversionLeaves() throws {
        let sandbox = try ledger()
        // 4500 JPY × 0.0061 = 27.45; 3000 JPY = 18.30, the rest 9.15.
        let added = try sandbox.ok(["add", "Dinner", "4500", "--currency", "JPY", "--split", "Food=3000", "--split", "Drinks=rest", "--date", "2026-03-08"]).stdout
        #expect(added.contains("€27.45 (4500 JPY at 0.0061 per JPY, from the rate table) in 2 budgets"), "\(added)")
        // No rest line: 3001 JPY = 18.3061 → 18.31 and 1500 JPY = 9.15 sum to 27.46 = 4501 JPY;
        // the largest line takes what rounding leaves.
        try sandbox.ok(["add", "Lunch", "4501 JPY", "--split", "Food=3001", "--split", "Drinks=1500", "--date", "2026-03-08"])
        // Percentages stay percentages of the converted total; a given rate is kept as given.
        try sandbox.ok(["add", "Bar", "¥4500", "--split", "Food=50%", "--split", "Drinks=rest", "--rate", "0.0063", "--date", "2026-03-08"])
        let list = try sandbox.ok(["expense", "list", "--month", "2026-03", "--json"]).jsonArray
        let dinner = try #require(list.first { $0["name"] as? String == "Dinner" })
        #expect(lines(dinner) == ["Food 18.30", "Drinks 9.15"])
        #expect((dinner["originalAmount"] as? String) == "4500" && (dinner["currency"] as? String) == "JPY")
        let lunch = try #require(list.first { $0["name"] as? String == "Lunch" })
        #expect(lunch["total"] as? String == "27.46" && lines(lunch) == ["Food 18.31", "Drinks 9.15"])
        let bar = try #require(list.first { $0["name"] as? String == "Bar" })
        #expect(bar["total"] as? String == "28.35" && bar["rateSource"] as? String == "given" && lines(bar) == ["Food 14.18", "Drinks 14.17"])
        // Each line counts in its own budget: 18.30 + 18.31 + 14.18 and 9.15 + 9.15 + 14.17.
        let budgets = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).jsonArray
        #expect(budgets.first { $0["name"] as? String == "Food" }?["spent"] as? String == "50.79")
        #expect(budgets.first { $0["name"] as? String == "Drinks" }?["spent"] as? String == "32.47")
        try sandbox.ok(["undo"])
        #expect(try sandbox.ok(["expense", "list", "--month", "2026-03", "--json"]).jsonArray.count == 2)
    }

    @Test func reapplyFitsASplitsLinesToItsNewTotalAndCountsEachLinesBudget() throws {
        let sandbox = try ledger()
        try sandbox.ok(["add", "Dinner", "4500 JPY", "--split", "Food=3000", "--split", "Drinks=rest", "--date", "2026-03-08"])
        try sandbox.ok(["rates", "set", "2026-03-06", "JPY", "EUR", "0.0070"])
        let reapplied = try sandbox.ok(["rates", "reapply"]).stdout
        // Food keeps its fixed 18.30; the rest grows from 9.15 to 31.50 − 18.30 = 13.20.
        #expect(reapplied.contains("Drinks         1   €9.15  €13.20  +€4.05"), "\(reapplied)")
        #expect(reapplied.contains("Food           1  €18.30  €18.30   €0.00"), "\(reapplied)")
        let dinner = try #require(try sandbox.ok(["expense", "list", "--json"]).jsonArray.first)
        #expect(dinner["total"] as? String == "31.50" && lines(dinner) == ["Food 18.30", "Drinks 13.20"])
        #expect(try sandbox.run(["check"]).status == 0)
    }

    @Test func aRefundInAnotherCurrencyLowersItsBudgetByTheConvertedAmount() throws {
        let sandbox = try ledger()
        try sandbox.ok(["add", "Kettle", "45", "-b", "Food", "--date", "2026-03-08"])
        let refund = try sandbox.ok(["refund", "Returned kettle", "1000 JPY", "-b", "Food", "--date", "2026-03-09"]).stdout
        #expect(refund.contains("refund of €6.10 into Food"), "\(refund)")
        try sandbox.ok(["refund", "Tax back", "2000", "--currency", "JPY", "--rate", "0.006", "-b", "Food", "--date", "2026-03-09"])
        let list = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        let returned = try #require(list.first { $0["name"] as? String == "Returned kettle" })
        #expect((returned["originalAmount"] as? String) == "1000" && (returned["currency"] as? String) == "JPY" && returned["rateSource"] as? String == "table")
        let budgets = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).jsonArray
        // 45.00 − 6.10 − 12.00.
        #expect(budgets.first { $0["name"] as? String == "Food" }?["spent"] as? String == "26.90")
    }

    @Test func badLinesOfAForeignSplitAreOneLineUsageErrorsInItsCurrency() throws {
        let sandbox = try ledger()
        let before = try sandbox.databaseSnapshot()
        for (arguments, message) in [
            (["add", "X", "4500 JPY", "--split", "Food=3000.5", "--split", "Drinks=rest"], "JPY has no decimals"),
            (["add", "X", "4500 JPY", "--split", "Food=5000", "--split", "Drinks=rest"], "the lines add up to 5000 JPY, leaving nothing of the total 4500 JPY"),
            (["add", "X", "4500 JPY", "--split", "Food=3000", "--split", "Drinks=1000"], "the lines add up to 4000 JPY, not the total 4500 JPY"),
            (["refund", "X", "12", "--rate", "2", "-b", "Food"], "a rate needs an amount in another currency"),
            (["refund", "X", "12.5 JPY", "-b", "Food"], "JPY has no decimals"),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure && outcome.stdout.isEmpty && outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == before)
        // A missing rate: exit 1, nothing written.
        let missing = try sandbox.run(["add", "X", "10 USD", "--split", "Food=5", "--split", "Drinks=rest", "--date", "2026-03-08"])
        #expect(missing.status == 1 && missing.isOneLineFailure && missing.stderr.contains("USD"), "\(missing.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }
}
