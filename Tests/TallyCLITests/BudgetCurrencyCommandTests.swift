import Foundation
import TallyTestSupport
import Testing

/// `budget add/edit --currency`: a budget in its own currency, its figures in it on every surface.
@Suite(.ownThreads) struct BudgetCurrencyCommandTests {
    func ledger() throws -> Sandbox {
        // Made once through the real `tally` and copied into each test.
        try Sandbox.seeded("budgetCurrency.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            try sandbox.prepare(["budget", "add", "Food", "--limit", "300"])
            try ForeignAmountCommandTests.importRates(into: sandbox)
        }
    }

    @Test func aTripBudgetInYenCountsEachExpenseAtItsDaysRateAndShowsBothCurrencies() throws {
        let sandbox = try ledger()
        let added = try sandbox.ok(["budget", "add", "Japan", "--limit", "300000", "--currency", "JPY"]).stdout
        #expect(added.contains("300,000 JPY"), "\(added)")
        // Paid in yen: 4500 JPY exactly. 27.86 EUR on Sunday the 8th at Friday's 161.54: 4500.5044 → 4501.
        try sandbox.ok(["add", "Dinner", "4500 JPY", "-b", "Japan", "--date", "2026-03-08"])
        let museum = try sandbox.ok(["add", "Museum", "27.86", "-b", "Japan", "--date", "2026-03-08"]).stdout
        #expect(museum.contains("JPY remaining of 300,000 JPY"), "\(museum)")
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Food", "--date", "2026-03-09"])
        let list = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).jsonArray
        let japan = try #require(list.first { $0["name"] as? String == "Japan" })
        #expect(japan["currency"] as? String == "JPY")
        #expect(japan["limit"] as? String == "300000.00")
        #expect(japan["spent"] as? String == "9001.00")
        #expect(japan["ledgerSpent"] as? String == "55.72")
        #expect(japan["remaining"] as? String == "290999.00")
        let food = try #require(list.first { $0["name"] as? String == "Food" })
        #expect(food["currency"] == nil && food["ledgerSpent"] == nil)
        let text = try sandbox.ok(["budget", "show", "Japan", "--month", "2026-03"]).stdout
        #expect(text.contains("9,001 JPY") && text.contains("300,000 JPY") && text.contains("JPY; spent €55.72"), "\(text)")
        let table = try sandbox.ok(["budget", "list", "--month", "2026-03"]).stdout
        #expect(table.contains("9,001 JPY (€55.72)"), "\(table)")

        // The month report: totals in euros count Japan's 55.72 and leave its limit out.
        let report = try sandbox.ok(["report", "--month", "2026-03", "--format", "json"]).jsonObject
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["spent"] as? String == "58.22")
        #expect(totals["limit"] as? String == "300.00")
        let lines = try #require(report["budgets"] as? [[String: Any]])
        #expect(lines.first { $0["name"] as? String == "Japan" }?["ledgerSpent"] as? String == "55.72")
        let reportText = try sandbox.ok(["report", "--month", "2026-03"]).stdout
        #expect(reportText.contains("Totals leave out") && reportText.contains("Japan's (JPY)"), "\(reportText)")

        // Undo takes the budget's currency back like any change.
        try sandbox.ok(["budget", "edit", "Japan", "--currency", "none", "--limit", "2000"])
        #expect(try sandbox.ok(["budget", "list", "--json"]).jsonArray.first { $0["name"] as? String == "Japan" }?["currency"] == nil)
        try sandbox.ok(["undo"])
        #expect(try sandbox.ok(["budget", "list", "--json"]).jsonArray.first { $0["name"] as? String == "Japan" }?["currency"] as? String == "JPY")
    }

    @Test func anExpenseTheBudgetCouldNotCountIsRefusedUpFront() throws {
        let sandbox = try ledger()
        try sandbox.ok(["budget", "add", "Japan", "--limit", "300000", "--currency", "JPY"])
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["add", "Early", "5", "-b", "Japan", "--date", "2026-03-01"])
        #expect(outcome.status == 1 && outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("EUR to JPY") && outcome.stderr.contains("2026-03-01"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func aBudgetCurrencyNeedsALedgerCurrency() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "add", "Japan", "--limit", "300000", "--currency", "JPY"])
        #expect(outcome.status == 1 && outcome.isOneLineFailure && outcome.stderr.contains("settings set currency"), "\(outcome.stderr)")
    }

    @Test func badBudgetCurrenciesAreOneLineUsageErrorsAndCreateNoDatabase() throws {
        let sandbox = try Sandbox()
        for arguments in [
            ["budget", "add", "Japan", "--limit", "300000.5", "--currency", "JPY"],
            ["budget", "add", "Japan", "--limit", "300000", "--currency", "QQQ"],
            ["budget", "add", "Japan", "--limit", "300000", "--currency", "XAU"],
            ["budget", "add", "Japan", "--limit", "300000", "--cap", "0.5", "--currency", "JPY"],
            ["budget", "edit", "Japan", "--limit", "1.5", "--currency", "JPY"],
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(arguments): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
    }

    @Test func aBackupCarriesTheBudgetsCurrencyAndRoundTripsByteForByte() throws {
        let sandbox = try ledger()
        try sandbox.ok(["budget", "add", "Japan", "--limit", "300000", "--currency", "JPY"])
        try sandbox.ok(["add", "Dinner", "4500 JPY", "-b", "Japan", "--date", "2026-03-08"])
        let exported = try sandbox.ok(["export", "--format", "json"]).stdout
        #expect(exported.contains("\"version\": 11") && exported.contains("\"currency\": \"JPY\""), "\(exported)")
        let file = sandbox.directory.appendingPathComponent("backup.json")
        try Data(exported.utf8).write(to: file)
        let restored = try Sandbox()
        try restored.ok(["import", file.path])
        #expect(try restored.ok(["export", "--format", "json"]).stdout == exported)
    }
}
