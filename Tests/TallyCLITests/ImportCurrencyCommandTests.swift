import Foundation
import TallyTestSupport
import Testing

/// `tally import` with a mapped currency column: rows converted into the ledger's currency at
/// the table's rate on their day (or their rate cell), all or nothing.
@Suite(.ownThreads) struct ImportCurrencyCommandTests {
    static let columns = "date=Date,name=Name,amount=Amount,budget=Budget,currency=Currency,rate=Rate"

    func ledger() throws -> Sandbox {
        // Made once through the real `tally` and copied into each test.
        try Sandbox.seeded("importCurrency.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            try sandbox.prepare(["budget", "add", "Travel", "--limit", "500"])
            try ForeignAmountCommandTests.importRates(into: sandbox)
        }
    }

    func file(_ sandbox: Sandbox, _ name: String, _ rows: [String]) throws -> String {
        let url = sandbox.directory.appendingPathComponent(name)
        try Data((["Date,Name,Amount,Budget,Currency,Rate"] + rows).joined(separator: "\n").appending("\n").utf8).write(to: url)
        return url.path
    }

    static let trip = [
        "2026-03-08,Ramen,4500,Travel,JPY,",  // Sunday: Friday's rate, 4500 / 161.54 = 27.857 → 27.86
        "2026-03-09,Taxi,1200,Travel,jpy,0.0063",  // the rate charged: 7.56
        "2026-03-09,Museum,12.50,Travel,USD,",  // 12.50 / 1.0841 = 11.530 → 11.53
        "2026-03-09,Bread,2.50,Travel,EUR,",  // the ledger's own: as it is
        "2026-03-09,Water,1.20,Travel,,",
    ]

    @Test func rowsAreConvertedAtTheirDaysRateAndKeepTheirOriginal() throws {
        let sandbox = try ledger()
        let path = try file(sandbox, "trip.csv", Self.trip)
        let imported = try sandbox.ok(["import", path, "--columns", Self.columns]).stdout
        #expect(imported.hasPrefix("Imported 5 expenses"), "\(imported)")
        let list = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        let byName = Dictionary(uniqueKeysWithValues: list.compactMap { row in (row["name"] as? String).map { ($0, row) } })
        #expect(byName["Ramen"]?["amount"] as? String == "27.86")
        #expect((byName["Ramen"]?["originalAmount"] as? String) == "4500" && (byName["Ramen"]?["currency"] as? String) == "JPY")
        #expect(byName["Ramen"]?["rate"] as? String == "0.006190417234" && byName["Ramen"]?["rateSource"] as? String == "table")
        #expect(byName["Taxi"]?["amount"] as? String == "7.56" && byName["Taxi"]?["rateSource"] as? String == "given")
        #expect(byName["Museum"]?["amount"] as? String == "11.53")
        #expect(byName["Bread"]?["amount"] as? String == "2.50" && byName["Bread"]?["originalAmount"] == nil)
        #expect(byName["Water"]?["amount"] as? String == "1.20" && byName["Water"]?["rate"] == nil)

        // The same file again imports nothing, even after the table changed: rows are known by
        // what the file says, not by what they converted to.
        try sandbox.ok(["rates", "set", "2026-03-07", "JPY", "EUR", "0.0065"])
        let again = try sandbox.ok(["import", path, "--columns", Self.columns]).stdout
        #expect(again.hasPrefix("Imported 0 expenses") && again.contains("5 rows already there"), "\(again)")
        // A table-rated row follows `rates reapply` like any other.
        try sandbox.ok(["rates", "reapply"])
        let ramen = try sandbox.ok(["expense", "list", "--json"]).jsonArray.first { $0["name"] as? String == "Ramen" }
        #expect(ramen?["amount"] as? String == "29.25")
    }

    @Test func aDryRunShowsTheConvertedAmounts() throws {
        let sandbox = try ledger()
        let path = try file(sandbox, "trip.csv", Self.trip)
        let before = try sandbox.databaseSnapshot()
        let dry = try sandbox.ok(["import", path, "--columns", Self.columns, "--dry-run"]).stdout
        // The first line names the sandbox's path, which changes from run to run.
        #expect(dry.hasPrefix("Dry run: would import 5 expenses from "), "\(dry)")
        try expectGolden(dry.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n"), named: "import-currency-dry-run.txt")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func missingRatesAreListedOnOneLineAndNothingIsImported() throws {
        let sandbox = try ledger()
        let path = try file(sandbox, "early.csv", [
            "2026-03-01,Ramen,4500,Travel,JPY,", "2026-03-02,Sushi,3000,Travel,JPY,", "2026-03-04,Cab,20,Travel,USD,",
            "2026-03-09,Museum,12.50,Travel,USD,", "2026-03-01,Taxi,1200,Travel,JPY,0.0063", "2026-03-02,Water,1.20,Travel,,",
        ])
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["import", path, "--columns", Self.columns])
        #expect(outcome.status == 1 && outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("missing rates: JPY→EUR on 2026-03-01 to 2026-03-02; USD→EUR on 2026-03-04"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("tally rates import FILE"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        // A dry run fails the same way.
        let dry = try sandbox.run(["import", path, "--columns", Self.columns, "--dry-run"])
        #expect(dry.status == 1 && dry.stderr == outcome.stderr)
    }

    /// Without `--columns`, a header's own `currency` column is read as a mapped one: never
    /// left out, which would take its rows' amounts 1:1.
    @Test func theDefaultHeadersCurrencyColumnConvertsOrListsWhatIsMissing() throws {
        let sandbox = try ledger()
        let early = sandbox.directory.appendingPathComponent("early.csv")
        try Data("date,name,amount,budget,currency\n2026-03-01,Ramen,4500,Travel,JPY\n2026-03-02,Cab,20,Travel,USD\n".utf8).write(to: early)
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["import", early.path])
        #expect(outcome.status == 1 && outcome.stderr.contains("missing rates: JPY→EUR on 2026-03-01; USD→EUR on 2026-03-02"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        let trip = sandbox.directory.appendingPathComponent("trip.csv")
        try Data("date,name,amount,budget,currency,rate\n2026-03-08,Ramen,4500,Travel,JPY,\n2026-03-09,Taxi,1200,Travel,JPY,0.0063\n".utf8).write(to: trip)
        #expect(try sandbox.ok(["import", trip.path]).stdout.hasPrefix("Imported 2 expenses"))
        let amounts = try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["amount"] as? String }
        #expect(amounts.sorted() == ["27.86", "7.56"])
    }

    @Test func badCurrenciesAmountsAndRatesAreUsageErrorsThatWriteNothing() throws {
        let sandbox = try ledger()
        let before = try sandbox.databaseSnapshot()
        for (row, message) in [
            ("2026-03-09,Ramen,45,Travel,QQQ,", "column 'Currency', value 'QQQ'"),
            ("2026-03-09,Ramen,4500.5,Travel,JPY,", "line 3, column 'Amount', value '4500.5': its currency has no decimals (JPY)"),
            ("2026-03-09,Ramen,45,Travel,JPY,abc", "column 'Rate', value 'abc'"),
            ("2026-03-09,Ramen,45,Travel,JPY,0", "column 'Rate', value '0'"),
            ("2026-03-09,Ramen,45,Travel,EUR,1.5", "a rate needs an amount in another currency"),
        ] {
            let path = try file(sandbox, "bad.csv", ["2026-03-09,Tea,300,Travel,JPY,", row])
            let outcome = try sandbox.run(["import", path, "--columns", Self.columns])
            #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(row): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(row): \(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == before)
        // Without a ledger: a bad code is refused before one is created; a good one needs a
        // ledger currency, and none is created either.
        let empty = try Sandbox()
        let bad = try file(empty, "bad.csv", ["2026-03-09,Ramen,45,Travel,QQQ,"])
        #expect(try empty.run(["import", bad, "--columns", Self.columns, "--create-budgets", "--limit", "100"]).status == 64)
        let good = try file(empty, "good.csv", ["2026-03-09,Ramen,45,Travel,JPY,"])
        let outcome = try empty.run(["import", good, "--columns", Self.columns, "--create-budgets", "--limit", "100"])
        #expect(outcome.status == 1 && outcome.stderr.contains("tally settings set currency"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: empty.db))
    }

    @Test func aProfileKeepsTheCurrencyColumn() throws {
        let sandbox = try ledger()
        let jan = try file(sandbox, "jan.csv", ["2026-03-08,Ramen,4500,Travel,JPY,"])
        try sandbox.ok(["import", jan, "--columns", Self.columns, "--save-profile", "Card"])
        let feb = try file(sandbox, "feb.csv", ["2026-03-09,Museum,12.50,Travel,USD,"])
        try sandbox.ok(["import", feb, "--profile", "card"])
        let amounts = try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["amount"] as? String }
        #expect(amounts.sorted() == ["11.53", "27.86"])
    }

    /// `rates import` writes each batch in key order: of two lines for one day and pair, the
    /// file's later one is kept, as before.
    @Test func aRatesFileNamingADayTwiceKeepsItsLaterLine() throws {
        let sandbox = try Sandbox()
        let url = sandbox.directory.appendingPathComponent("rates.csv")
        try Data("date,from,to,rate\n2026-03-06,JPY,EUR,0.0061\n2026-03-05,USD,EUR,0.9\n2026-03-06,JPY,EUR,0.0062\n".utf8).write(to: url)
        try sandbox.ok(["rates", "import", url.path])
        let list = try sandbox.ok(["rates", "list", "--json"]).jsonArray
        #expect(list.count == 2)
        #expect(list.first { $0["from"] as? String == "JPY" }?["rate"] as? String == "0.0062")
    }
}
