import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// `add --split`, `expense split`/`unsplit`, `refund`, and how lists, budgets, undo and the JSON
/// backup show them.
@Suite(.ownThreads) struct SplitCommandTests {
    static func withBudgets() throws -> Sandbox {
        try Sandbox.seeded("split.withBudgets") { sandbox in
            try sandbox.prepare(["budget", "add", "Groceries", "--limit", "300"])
            try sandbox.prepare(["budget", "add", "Household", "--limit", "100"])
        }
    }

    @Test func addSplitPrintsEachLineAndWhatIsLeftOfEachBudget() throws {
        let sandbox = try Self.withBudgets()
        let outcome = try sandbox.ok(["add", "Costco", "120", "--split", "groceries=60%", "--split", "household=rest", "--date", "2026-03-10"])
        #expect(outcome.stdout == """
            Added expense #1 2026-03-10 Costco: 120.00 in 2 budgets
              Groceries: 72.00 Costco
              Household: 48.00 Costco
            Groceries: 228.00 remaining of 300.00 for 2026-03.
            Household: 52.00 remaining of 100.00 for 2026-03.

            """)
        let budgets = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).stdout
        #expect(budgets.contains("\"spent\" : \"72.00\"") && budgets.contains("\"spent\" : \"48.00\""), "\(budgets)")
    }

    @Test func theReportCountsLinesInTheirBudgetsAndShowsTheReceiptOnceMarkedSplit() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["add", "Costco", "120", "--split", "groceries=60%", "--split", "household=rest", "--date", "2026-03-10"])
        try sandbox.ok(["refund", "Returned kettle", "8", "-b", "household", "--date", "2026-03-12"])
        let report = try sandbox.ok(["report", "--month", "2026-03", "--format", "json"]).jsonObject
        let top = try #require(report["topExpenses"] as? [[String: Any]] ?? report["top"] as? [[String: Any]], "\(report.keys.sorted())")
        #expect(top.map { $0["budget"] as? String } == ["split: Groceries, Household"])
        let text = try sandbox.ok(["report", "--month", "2026-03"]).stdout
        #expect(text.contains("split: Groceries, Household"), "\(text)")
        let budgets = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).stdout
        #expect(budgets.contains("\"spent\" : \"72.00\"") && budgets.contains("\"spent\" : \"40.00\""), "\(budgets)")
    }

    @Test func listsShowASplitOnceAndABudgetsListItsLines() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["add", "Costco", "120", "--split", "groceries=80,name=Food,tag=fresh", "--split", "household=rest", "--date", "2026-03-10"])
        let json = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(json.count == 1)
        let lines = try #require(json.first?["lines"] as? [[String: Any]])
        #expect(lines.map { $0["budget"] as? String } == ["Groceries", "Household"])
        #expect(lines.map { $0["amount"] as? String } == ["80.00", "40.00"])
        #expect(lines.map { $0["name"] as? String } == ["Food", "Costco"])
        let text = try sandbox.ok(["expense", "list"]).stdout
        #expect(text.contains("↳ Food") && text.contains("↳ Costco"), "\(text)")
        let household = try sandbox.ok(["expense", "list", "--budget", "household"]).stdout
        #expect(household.contains("Costco (split)") && household.contains("40.00") && !household.contains("80.00"), "\(household)")
    }

    @Test func splitUnsplitAndUndo() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["add", "Market", "50", "-b", "Groceries", "--date", "2026-03-10"])
        let split = try sandbox.ok(["expense", "split", "1", "--split", "groceries=30", "--split", "household=rest"])
        #expect(split.stdout.contains("Household: 20.00"), "\(split.stdout)")
        try sandbox.ok(["expense", "unsplit", "1", "--budget", "household"])
        var budgets = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).stdout
        #expect(budgets.contains("\"spent\" : \"50.00\""), "\(budgets)")
        try sandbox.ok(["undo"])
        budgets = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).stdout
        #expect(budgets.contains("\"spent\" : \"30.00\"") && budgets.contains("\"spent\" : \"20.00\""), "\(budgets)")
        // A new amount keeps a percentage; fixed lines that no longer fit are refused with the fix.
        let edit = try sandbox.run(["expense", "edit", "1", "--amount", "10"])
        #expect(edit.status == 64)
        #expect(edit.stderr.contains("tally expense split"), "\(edit.stderr)")
    }

    @Test func aRefundLowersItsBudgetBelowZeroIfNeedBeAndRoundTripsThroughTheBackup() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["add", "Kettle", "39.99", "-b", "Household", "--date", "2026-03-10"])
        let refund = try sandbox.ok(["refund", "Returned kettle", "39.99", "-b", "household", "--date", "2026-04-02", "--of", "1"])
        #expect(refund.stdout.contains("refund of #1 of 39.99 into Household"), "\(refund.stdout)")
        #expect(refund.stdout.contains("Household: 139.99 remaining of 100.00 for 2026-04."), "\(refund.stdout)")
        try sandbox.ok(["add", "Costco", "120", "--split", "groceries=60%", "--split", "household=rest", "--date", "2026-03-11"])
        try sandbox.ok(["refund", "Returned pan", "10", "-b", "household", "--date", "2026-04-03", "--of", "3"])
        let exported = try sandbox.ok(["export", "--format", "json"]).stdout
        #expect(exported.contains("\"version\": 10"), "\(exported.prefix(200))")
        let file = sandbox.directory.appendingPathComponent("backup.json").path
        try exported.write(toFile: file, atomically: true, encoding: .utf8)
        // A restore numbers expenses by date, so the second generation is the fixed point.
        let copy = try Sandbox()
        try copy.ok(["import", file])
        let restored = try copy.ok(["export", "--format", "json"]).stdout
        #expect(restored.contains("\"lines\": [{\"budget\": \"Groceries\", \"amount\": \"72.00\", \"share\": \"60%\"}"), "\(restored)")
        #expect(restored.contains("\"refund\": true, \"refundOf\": 1"), "\(restored)")
        // Costco, #3 before, is #2 once restored by date: the refund's link follows it.
        #expect(restored.contains("\"name\": \"Returned pan\"") && restored.contains("\"refund\": true, \"refundOf\": 2"), "\(restored)")
        try restored.write(toFile: file, atomically: true, encoding: .utf8)
        let again = try Sandbox()
        try again.ok(["import", file])
        #expect(try again.ok(["export", "--format", "json"]).stdout == restored)
    }
}
