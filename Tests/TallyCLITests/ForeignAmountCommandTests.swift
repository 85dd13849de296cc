import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ForeignAmountCommandTests {
    static let ecb = "Date,USD,JPY,CYP,\n2026-03-09,1.0841,161.02,N/A,\n2026-03-06,1.0823,161.54,N/A,\n"

    /// Writes ``ecb`` into `sandbox` as the ECB's history file and imports it: the setup every
    /// ledger with rates shares.
    static func importRates(into sandbox: Sandbox) throws {
        let file = sandbox.directory.appendingPathComponent("eurofxref-hist.csv")
        try Data(ecb.utf8).write(to: file)
        try sandbox.prepare(["rates", "import", file.path])
    }

    func ledger() throws -> Sandbox {
        // Made once through the real `tally` and copied into each test.
        try Sandbox.seeded("foreignAmount.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            try sandbox.prepare(["budget", "add", "Eating Out", "--limit", "300"])
            let file = sandbox.directory.appendingPathComponent("eurofxref-hist.csv")
            try Data(Self.ecb.utf8).write(to: file)
            let imported = try sandbox.run(["rates", "import", file.path])
            guard imported.status == 0, imported.stdout == "Imported 4 rates.\n" else {
                throw Hardening.Failure("setup: rates import answered \(imported.status) \(imported.stdout) \(imported.stderr)")
            }
        }
    }

    @Test func anExpenseInAnotherCurrencyTakesTheRateOfItsDayAndKeepsItsOriginal() throws {
        let sandbox = try ledger()
        // Sunday the 8th takes Friday the 6th's rate, inverted: 4500 / 161.54 = 27.857 → 27.86.
        let added = try sandbox.ok(["add", "Dinner", "4500", "--currency", "JPY", "-b", "Eating Out", "--date", "2026-03-08"]).stdout
        #expect(added.contains("27.86 (4500 JPY at 0.006190417234 per JPY, from the rate table) in Eating Out\n"), "\(added)")
        try sandbox.ok(["add", "Taxi", "JPY 1200", "-b", "Eating Out", "--date", "2026-03-09", "--rate", "0.0063"])
        try sandbox.ok(["add", "Lunch", "¥980", "-b", "Eating Out", "--date", "2026-03-09"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Eating Out", "--date", "2026-03-09"])
        let list = try sandbox.ok(["expense", "list", "--month", "2026-03", "--json"]).jsonArray
        let dinner = try #require(list.first { $0["name"] as? String == "Dinner" })
        #expect(dinner["amount"] as? String == "27.86")
        #expect((dinner["originalAmount"] as? String) == "4500" && (dinner["currency"] as? String) == "JPY")
        #expect(dinner["rate"] as? String == "0.006190417234")
        #expect(dinner["rateSource"] as? String == "table")
        let taxi = try #require(list.first { $0["name"] as? String == "Taxi" })
        #expect(taxi["amount"] as? String == "7.56" && taxi["rateSource"] as? String == "given")
        let bread = try #require(list.first { $0["name"] as? String == "Bread" })
        #expect(bread["originalAmount"] == nil && bread["rate"] == nil && bread["rateSource"] == nil)
        let text = try sandbox.ok(["expense", "list", "--month", "2026-03"]).stdout
        #expect(text.contains("4500 JPY") && text.contains("0.0063 given"))
    }

    @Test func aMissingRateIsAnErrorNamingTheCurrencyDayAndCommandAndWritesNothing() throws {
        let sandbox = try ledger()
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["add", "Dinner", "4500 JPY", "-b", "Eating Out", "--date", "2026-03-01"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("JPY") && outcome.stderr.contains("2026-03-01") && outcome.stderr.contains("tally rates import"))
        #expect(try sandbox.databaseSnapshot() == before)
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
    }

    @Test func badForeignArgumentsAreOneLineUsageErrorsAndCreateNoDatabase() throws {
        let sandbox = try Sandbox()
        for arguments in [
            ["add", "Dinner", "4500.5 JPY", "-b", "x"], ["add", "Dinner", "4500", "--currency", "QQQ", "-b", "x"],
            ["add", "Dinner", "4500 JPY", "--currency", "USD", "-b", "x"], ["add", "Dinner", "12", "--rate", "2", "-b", "x"],
            ["add", "Dinner", "4500 JPY", "--rate", "-1", "-b", "x"], ["rates", "set", "2026-03-06", "JPY", "JPY", "1"],
            ["rates", "set", "2026-02-30", "JPY", "EUR", "1"], ["rates", "list", "--currency", "nope"],
            ["rates", "reapply", "--from", "2026-05", "--to", "2026-04"],
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(arguments): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
        // A file that is not rates fails with its line and writes no database either.
        let file = sandbox.directory.appendingPathComponent("bad.csv")
        try Data("Date,USD\n2026-03-06,abc\n".utf8).write(to: file)
        let outcome = try sandbox.run(["rates", "import", file.path])
        #expect(outcome.status == 1 && outcome.stderr.contains("line 2: invalid rate 'abc'"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
    }

    @Test func reapplyChangesOnlyTableRatesShowsEachBudgetAndUndoesAsOne() throws {
        let sandbox = try ledger()
        try sandbox.ok(["add", "Dinner", "4500 JPY", "-b", "Eating Out", "--date", "2026-03-08"])
        try sandbox.ok(["add", "Taxi", "1200 JPY", "-b", "Eating Out", "--date", "2026-03-08", "--rate", "0.0063"])
        try sandbox.ok(["rates", "set", "2026-03-07", "JPY", "EUR", "0.0065"])
        let dry = try sandbox.ok(["rates", "reapply", "--dry-run"]).stdout
        #expect(dry.contains("Eating Out") && dry.contains("27.86") && dry.contains("29.25") && dry.contains("nothing was written"), "\(dry)")
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["amount"] as? String } == ["27.86", "7.56"])
        try sandbox.ok(["rates", "reapply", "--from", "2026-03", "--to", "2026-03"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["amount"] as? String } == ["29.25", "7.56"])
        try sandbox.ok(["undo"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["amount"] as? String } == ["27.86", "7.56"])
        let rates = try sandbox.ok(["rates", "list", "--currency", "JPY", "--from", "2026-03-07", "--json"]).jsonArray
        #expect(rates.map { $0["rate"] as? String } == ["0.0065", "161.02"])
    }

    /// `rates set` and `rates import` are each one change: undo puts the table back as it was,
    /// a replaced rate included, and redo saves them again.
    @Test func undoTakesBackRateImportsAndSets() throws {
        let sandbox = try ledger()
        func rates() throws -> [String] {
            try sandbox.ok(["rates", "list", "--json"]).jsonArray.map { "\($0["day"] ?? "") \($0["from"] ?? "")\($0["to"] ?? "") \($0["rate"] ?? "")" }
        }
        let imported = try rates()
        try sandbox.ok(["rates", "set", "2026-03-09", "EUR", "JPY", "160"])
        try sandbox.ok(["rates", "set", "2026-03-10", "EUR", "JPY", "159"])
        #expect(try sandbox.ok(["log"]).stdout.contains("rates set 2026-03-10 EUR JPY 159: 1 rate added"))
        try sandbox.ok(["undo"])
        try sandbox.ok(["undo"])
        #expect(try rates() == imported)
        let log = try sandbox.ok(["log"]).stdout
        #expect(log.contains("eurofxref-hist.csv: 4 rates added"), "\(log)")
        let undoImport = try sandbox.run(["undo", "--dry-run"])
        #expect(undoImport.stdout.contains("4 rates removed"), "\(undoImport.stdout)")
        try sandbox.ok(["undo"])
        #expect(try rates().isEmpty)
    }
}

extension ForeignAmountCommandTests {
    @Test func editingChangesTheCurrencyAmountOrRateAndConvertsAgain() throws {
        let sandbox = try ledger()
        try sandbox.ok(["add", "Dinner", "4500 JPY", "-b", "Eating Out", "--date", "2026-03-08"])
        func dinner() throws -> [String: Any] { try #require(try sandbox.ok(["expense", "list", "--json"]).jsonArray.first) }
        try sandbox.ok(["expense", "edit", "1", "--amount", "5000", "--currency", "JPY"])
        #expect(try dinner()["amount"] as? String == "30.95")
        try sandbox.ok(["expense", "edit", "1", "--rate", "0.0064"])
        #expect(try dinner()["amount"] as? String == "32.00" && (try dinner()["rateSource"] as? String) == "given")
        // A given rate stays when the day moves; the table's is taken again on request.
        try sandbox.ok(["expense", "edit", "1", "--date", "2026-03-09"])
        #expect(try dinner()["rate"] as? String == "0.0064")
        try sandbox.ok(["expense", "edit", "1", "--rate", "table"])
        #expect(try dinner()["rateSource"] as? String == "table" && (try dinner()["amount"] as? String) == "31.05")
        try sandbox.ok(["expense", "edit", "1", "--amount", "12.50"])
        #expect(try dinner()["amount"] as? String == "12.50" && (try dinner()["originalAmount"]) == nil)
        let outcome = try sandbox.run(["expense", "edit", "1", "--rate", "0.5"])
        #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(outcome.stderr)")
    }
}

extension ForeignAmountCommandTests {
    /// A JSON backup carries the rate table and each expense's original amount, rate and source
    /// (document version 9), and restoring it into an empty ledger gives both back exactly.
    @Test func aJSONBackupRoundTripsRatesAndOriginalAmounts() throws {
        let sandbox = try ledger()
        try sandbox.ok(["add", "Dinner", "4500 JPY", "-b", "Eating Out", "--date", "2026-03-08"])
        try sandbox.ok(["add", "Taxi", "12.40 USD", "-b", "Eating Out", "--date", "2026-03-09", "--rate", "0.92"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Eating Out", "--date", "2026-03-09"])
        let backup = sandbox.directory.appendingPathComponent("backup.json")
        try sandbox.ok(["export", "--format", "json", "--output", backup.path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: backup)) as? [String: Any])
        #expect(document["version"] as? Int == 9)
        #expect((document["rates"] as? [[String: String]])?.count == 4)
        let expenses = document["expenses"] as? [[String: Any]] ?? []
        #expect((expenses.first?["original"] as? [String: String]) == ["amount": "4500", "currency": "JPY"])
        #expect(expenses.first?["rateSource"] as? String == "table")
        #expect(expenses.last?["original"] == nil)

        let restored = try Sandbox()
        try restored.ok(["import", backup.path])
        #expect(try restored.ok(["expense", "list", "--json"]).stdout == sandbox.ok(["expense", "list", "--json"]).stdout)
        #expect(try restored.ok(["rates", "list", "--json"]).stdout == sandbox.ok(["rates", "list", "--json"]).stdout)
        // A ledger without foreign amounts or rates still writes its older version.
        let plain = try Sandbox()
        try plain.ok(["budget", "add", "Food", "--limit", "10"])
        try plain.ok(["add", "Bread", "2.50", "-b", "Food"])
        let plainBackup = plain.directory.appendingPathComponent("plain.json")
        try plain.ok(["export", "--format", "json", "--output", plainBackup.path])
        let plainDocument = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: plainBackup)) as? [String: Any])
        #expect((plainDocument["version"] as? Int ?? 0) < 9)
    }
}

extension ForeignAmountCommandTests {
    /// Month and range reports add "by currency" only when the period has expenses in other
    /// currencies: each currency's original total and its ledger-currency equivalent.
    @Test func reportsShowSpendingByCurrency() throws {
        let sandbox = try ledger()
        try sandbox.ok(["add", "Dinner", "4500 JPY", "-b", "Eating Out", "--date", "2026-03-08"])
        try sandbox.ok(["add", "Lunch", "JPY 980", "-b", "Eating Out", "--date", "2026-03-09", "--quantity", "2"])
        try sandbox.ok(["add", "Taxi", "12.40 USD", "-b", "Eating Out", "--date", "2026-03-09", "--rate", "0.92"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Eating Out", "--date", "2026-03-09"])
        let json = try sandbox.ok(["report", "--month", "2026-03", "--format", "json"]).jsonObject
        let byCurrency = json["byCurrency"] as? [[String: Any]] ?? []
        #expect(byCurrency.map { $0["currency"] as? String } == ["JPY", "USD"])
        #expect(byCurrency.first?["original"] as? String == "6460" && byCurrency.first?["expenses"] as? Int == 2)
        #expect(byCurrency.last?["amount"] as? String == "11.41")
        let text = try sandbox.ok(["report", "--month", "2026-03"]).stdout
        #expect(text.contains("By currency") && text.contains("6460 JPY") && text.contains("12.40 USD"), "\(text)")
        let range = try sandbox.ok(["report", "--from", "2026-02", "--to", "2026-03", "--format", "json"]).jsonObject
        #expect((range["byCurrency"] as? [[String: Any]])?.count == 2)
        // A period without foreign spending has no such section.
        try sandbox.ok(["add", "Milk", "1.20", "-b", "Eating Out", "--date", "2026-04-02"])
        #expect(try sandbox.ok(["report", "--month", "2026-04", "--format", "json"]).jsonObject["byCurrency"] == nil)
        #expect(try !sandbox.ok(["report", "--month", "2026-04"]).stdout.contains("By currency"))
    }
}

extension ForeignAmountCommandTests {
    /// A sign names the currency, and the locale's decimal comma reads as in any amount; the
    /// HTML report lists the currency too.
    @Test func aSignAndADecimalCommaReadUnderTheLocaleAndHTMLShowsTheCurrency() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["settings", "set", "currency", "USD"])
        try sandbox.ok(["budget", "add", "Trip", "--limit", "500"])
        try sandbox.ok(["rates", "set", "2026-03-06", "EUR", "USD", "1.0823"])
        try sandbox.ok(["add", "Coffee", "€12,50", "-b", "Trip", "--date", "2026-03-07", "--locale", "de_DE"])
        let coffee = try #require(try sandbox.ok(["expense", "list", "--json"]).jsonArray.first)
        #expect((coffee["originalAmount"] as? String) == "12.50" && (coffee["currency"] as? String) == "EUR")
        // 12.50 × 1.0823 = 13.52875, to the cent.
        #expect(coffee["amount"] as? String == "13.53")
        let html = sandbox.directory.appendingPathComponent("march.html")
        try sandbox.ok(["report", "--month", "2026-03", "--format", "html", "--output", html.path])
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("By currency") && page.contains("12.50 EUR"))
        let rangeHTML = sandbox.directory.appendingPathComponent("range.html")
        try sandbox.ok(["report", "--from", "2026-02", "--to", "2026-03", "--format", "html", "--output", rangeHTML.path])
        let rangePage = try String(contentsOf: rangeHTML, encoding: .utf8)
        #expect(rangePage.contains("By currency") && rangePage.contains("12.50 EUR"))
    }
}

extension ForeignAmountCommandTests {
    /// A rate file with a bad line after good ones saves none of them: the ledger's file stays byte for byte.
    @Test func aBadRateFileLeavesTheLedgerAsItWas() throws {
        let sandbox = try ledger()
        let before = try sandbox.databaseSnapshot()
        let file = sandbox.directory.appendingPathComponent("rates.csv")
        try Data("date,from,to,rate\n2026-03-10,JPY,EUR,0.0061\n2026-03-11,JPY,EUR,N/A\n".utf8).write(to: file)
        let outcome = try sandbox.run(["rates", "import", file.path])
        #expect(outcome.status == 1 && outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("line 3: invalid rate 'N/A'"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }
}
