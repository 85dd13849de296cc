import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ReportCommandTests {
    private func sandboxWithSpending() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Café", "--limit", "40"])
        try sandbox.ok(["add", "Flat white", "4.50", "-b", "cafe", "--quantity", "10", "--date", "2026-11-03"])
        return sandbox
    }

    /// Templates and fonts must not be looked up next to the build folder or the working directory.
    @Test func worksFromAnotherFolderWithTheBinaryCopiedElsewhere() throws {
        let sandbox = try sandboxWithSpending()
        let fileManager = FileManager.default
        let bin = sandbox.directory.appendingPathComponent("bin")
        let elsewhere = sandbox.directory.appendingPathComponent("elsewhere")
        try fileManager.createDirectory(at: bin, withIntermediateDirectories: true)
        try fileManager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("tally")
        try fileManager.copyItem(at: Sandbox.tallyURL, to: copy)

        let html = try sandbox.run(["report", "--format", "html", "--month", "2026-11"], executable: copy, currentDirectory: elsewhere)
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout == "tally-report-2026-11.html\n")
        let page = try String(contentsOf: elsewhere.appendingPathComponent("tally-report-2026-11.html"), encoding: .utf8)
        #expect(page.contains("Café"))
        #expect(page.contains("45.00"))
        #expect(page.contains("data:image/png;base64,"))

        let png = try sandbox.run(["report", "--format", "png", "--month", "2026-11"], executable: copy, currentDirectory: elsewhere)
        #expect(png.status == 0, "\(png.stderr)")
        let image = try Data(contentsOf: elsewhere.appendingPathComponent("tally-report-2026-11.png"))
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func jsonReportShowsTheMonthsFigures() throws {
        let sandbox = try sandboxWithSpending()
        let report = try sandbox.ok(["report", "--format", "json", "--month", "2026-11"]).jsonObject
        #expect(report["month"] as? String == "2026-11")
        let budgets = report["budgets"] as? [[String: Any]] ?? []
        #expect(budgets.first?["spent"] as? String == "45.00")
        #expect(budgets.first?["remaining"] as? String == "-5.00")
        let totals = report["totals"] as? [String: Any] ?? [:]
        #expect(totals["limit"] as? String == "40.00")
    }

    @Test func badReportArgumentsAreOneLineUsageErrors() throws {
        let sandbox = try sandboxWithSpending()
        for arguments in [["--month", "2026-13"], ["--format", "pdf"], ["--scale", "3"], ["--template", "x.mustache"]] {
            let outcome = try sandbox.run(["report"] + arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure, "\(arguments): \(outcome.stderr)")
        }
    }
}

extension ReportCommandTests {
    /// Budgets past their warning level explain themselves by default, in every format; the
    /// text names each group that grew with its change against the periods before, and
    /// `--no-explain` leaves it out.
    @Test func whyOverShowsByDefaultInEveryFormat() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100", "--start", "2026-07"])
        try sandbox.ok(["budget", "add", "Rent", "--limit", "1000", "--start", "2026-07"])
        for (month, amount) in [("2026-08", "30"), ("2026-09", "40"), ("2026-10", "50")] {
            try sandbox.ok(["add", "Pizza", amount, "-b", "food", "--date", month + "-10", "--tag", "delivery"])
        }
        try sandbox.ok(["add", "Pizza", "70", "-b", "food", "--date", "2026-11-10", "--tag", "delivery"])
        try sandbox.ok(["add", "Sushi", "45", "-b", "food", "--date", "2026-11-12"])

        let text = try sandbox.ok(["report", "--month", "2026-11"]).stdout
        // 115.00 against (30 + 40 + 50) / 3 = 40.00; delivery 70.00 against 40.00.
        #expect(text.contains("""
            Why over
              Food +187.5% against the average of the 3 periods before
                1 expense named Sushi, 45.00, new
                1 expense tagged delivery, 70.00, +75.0%
                1 expense named Pizza, 70.00, +75.0%
                largest: Pizza 70.00 (2026-11-10), Sushi 45.00 (2026-11-12)
            """))
        #expect(!text.contains("Rent +"))
        #expect(try sandbox.ok(["report", "--month", "2026-11", "--explain"]).stdout == text)
        let quiet = try sandbox.ok(["report", "--month", "2026-11", "--no-explain"]).stdout
        #expect(!quiet.contains("Why over") && quiet.contains("Food"))

        let json = try sandbox.ok(["report", "--month", "2026-11", "--format", "json"]).jsonObject
        let food = try #require((json["budgets"] as? [[String: Any]])?.first { $0["name"] as? String == "Food" })
        let why = try #require(food["whyOver"] as? [String: Any])
        #expect(why["earlierAverage"] as? String == "40.00")
        #expect((why["largest"] as? [[String: Any]])?.first?["name"] as? String == "Pizza")
        #expect((json["budgets"] as? [[String: Any]])?.first { $0["name"] as? String == "Rent" }?["whyOver"] == nil)
        let quietJSON = try sandbox.ok(["report", "--month", "2026-11", "--format", "json", "--no-explain"]).jsonObject
        #expect((quietJSON["budgets"] as? [[String: Any]])?.allSatisfy { $0["whyOver"] == nil } == true)

        let page = sandbox.directory.appendingPathComponent("why.html").path
        try sandbox.ok(["report", "--month", "2026-11", "--format", "html", "--output", page])
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("Pizza 70.00 (2026-11-10)"))

        for flag in ["--explain", "--no-explain"] {
            let range = try sandbox.run(["report", "--from", "2026-08", "--to", "2026-11", flag])
            #expect(range.status == 64 && range.isOneLineFailure && range.stderr.contains("\(flag) is for the report of one month"))
        }
    }
}

extension ReportCommandTests {
    /// Money in: JSON always carries its keys; with an account the text gains its section, and
    /// a report over time gives the figures per period. Transfers count as neither income nor
    /// spending; the card's balance (what is owed) is taken from net worth.
    @Test func aLedgerWithAccountsReportsIncomeSavedAndNetWorth() throws {
        let sandbox = try sandboxWithSpending()
        let before = try sandbox.ok(["report", "--format", "json", "--month", "2026-11"]).jsonObject
        #expect(before["income"] as? String == "0.00" && before["saved"] as? String == "-45.00")
        #expect(before["savingsRate"] is NSNull && before["netWorth"] is NSNull)
        #expect(before["unbudgeted"] as? String == "-40.00")
        #expect(!(try sandbox.ok(["report", "--month", "2026-11"]).stdout.contains("Money in")))

        try sandbox.ok(["account", "add", "Checking", "--kind", "checking", "--opening", "1000", "--date", "2026-11-01"])
        try sandbox.ok(["account", "add", "Visa", "--kind", "credit", "--opening", "100", "--date", "2026-11-01"])
        try sandbox.ok(["income", "add", "Salary", "200", "--account", "checking", "--date", "2026-11-02"])
        try sandbox.ok(["transfer", "50", "--from", "Checking", "--to", "Visa", "--date", "2026-11-10"])
        let report = try sandbox.ok(["report", "--format", "json", "--month", "2026-11"]).jsonObject
        #expect(report["income"] as? String == "200.00" && report["saved"] as? String == "155.00")
        #expect(report["savingsRate"] as? String == "0.7750")
        // Checking 1,000 + 200 − 50, less the 50 still owed on the card.
        #expect(report["netWorth"] as? String == "1100.00")
        #expect(report["unbudgeted"] as? String == "160.00")
        let text = try sandbox.ok(["report", "--month", "2026-11"]).stdout
        #expect(text.contains("Money in\n"), "\(text)")
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("  Savings rate") && $0.hasSuffix(" 77.5%") }, "\(text)")

        let range = try sandbox.ok(["report", "--from", "2026-10", "--to", "2026-11", "--format", "json"]).jsonObject
        let periods = range["periods"] as? [[String: Any]] ?? []
        #expect(periods.map { $0["income"] as? String } == ["0.00", "200.00"])
        #expect(periods.first?["netWorth"] is NSNull && periods.first?["savingsRate"] is NSNull)
        #expect(periods.last?["netWorth"] as? String == "1100.00" && periods.last?["spending"] as? String == "45.00")
        let csv = try sandbox.ok(["report", "--from", "2026-10", "--to", "2026-11", "--format", "csv"]).stdout
        #expect(csv.contains("2026-11,money,ledger,netWorth,1100.00\n") && csv.contains("2026-11,money,ledger,savingsRate,0.7750\n"))
        #expect(try sandbox.ok(["report", "--from", "2026-10", "--to", "2026-11"]).stdout.contains("Savings rate"))
    }
}
