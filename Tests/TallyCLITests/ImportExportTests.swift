import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ImportExportTests {
    /// Writes `text` into the sandbox and returns its path.
    static func file(_ sandbox: Sandbox, _ name: String, _ text: String) throws -> String {
        let url = sandbox.directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func withBudgets() throws -> Sandbox {
        try Sandbox.seeded("import.withBudgets") { sandbox in
            try sandbox.prepare(["budget", "add", "Food", "--limit", "300"])
            try sandbox.prepare(["budget", "add", "Café", "--limit", "40"])
        }
    }

    /// Names may not hold line breaks, so the multi-line fields sit in a column Tally ignores.
    static let rfc4180 = #"""
        date,budget,name,amount,quantity,tags,note
        2026-03-01,Food,"Apples, red",2.50,4,fruit;Market,
        2026-03-02,cafe,"Say ""cheese""",3.10,,,"two
        lines, ""quoted"""
        2026-03-03,FOOD,Two,1.00,1,a; b,"
        "
        2026-03-04,Café,Plain,12,2,,

        """#

    @Test func anRFC4180FileImportsEveryQuotedShape() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let path = try ImportExportTests.file(sandbox, "rfc.csv", ImportExportTests.rfc4180)
        let outcome = try sandbox.ok(["import", path])
        #expect(outcome.stdout.hasPrefix("Imported 4 expenses from '"))
        #expect(outcome.stdout.contains("'; skipped 0 rows; 0 rows already there; created 0 budgets; "))
        #expect(outcome.stderr.isEmpty)
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.map { $0["name"] as? String } == ["Apples, red", "Say \"cheese\"", "Two", "Plain"])
        #expect(expenses.map { $0["budget"] as? String } == ["Food", "Café", "Food", "Café"])
        #expect(expenses.map { $0["quantity"] as? Int } == [4, 1, 1, 2])
        #expect(expenses.map { $0["tags"] as? [String] } == [["fruit", "market"], [], ["a", "b"], []])
    }

    @Test func aBOMAndCRLFLineEndingsAreRead() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let text = "\u{FEFF}date,budget,name,amount,quantity,tags\r\n2026-03-01,Food,Bread,2.50,1,daily\r\n2026-03-02,Food,\"Milk, eggs\",1.20,2,\r\n"
        let path = try ImportExportTests.file(sandbox, "bom.csv", text)
        try sandbox.ok(["import", path])
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.map { $0["name"] as? String } == ["Bread", "Milk, eggs"])
        #expect(expenses.map { $0["tags"] as? [String] } == [["daily"], []])
        #expect(expenses.first?["date"] as? String == "2026-03-01")
    }

    @Test func aBadRowInTheMiddleImportsNothingAndNamesLineColumnAndValue() throws {
        let sandbox = try ImportExportTests.withBudgets()
        try sandbox.ok(["add", "Kept", "1", "-b", "food", "--date", "2026-03-01"])
        var lines = ["date,budget,name,amount,quantity,tags"]
        for index in 1...500 { lines.append("2026-03-\(String(format: "%02d", index % 28 + 1)),Food,Item \(index),1.00,1,") }
        lines.insert("2026-03-05,Food,Broken,12;50,1,", at: 251)
        let path = try ImportExportTests.file(sandbox, "bad.csv", lines.joined(separator: "\n") + "\n")
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["import", path])
        #expect(outcome.isOneLineFailure)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("tally: error: line 252, column 'amount', value '12;50': "))
        #expect(try sandbox.databaseSnapshot() == before)
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 1)
    }

    @Test func unknownBudgetsAreListedAndCreateBudgetsCreatesThem() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let path = try ImportExportTests.file(sandbox, "new.csv", """
            date,budget,name,amount,quantity,tags
            2026-03-01,Zoo,Ticket,12,1,
            2026-03-02,Bakery,Bread,2,1,
            2026-03-03,food,Apples,3,1,
            2026-03-04,zoo,Ticket,12,1,

            """)
        let before = try sandbox.dump(month: "2026-03")
        let refused = try sandbox.run(["import", path])
        #expect(refused.isOneLineFailure)
        #expect(refused.stderr == "tally: error: the file names 2 budgets that do not exist: 'Bakery', 'Zoo'; add them first or use --create-budgets --limit AMOUNT\n")
        #expect(try sandbox.dump(month: "2026-03") == before)

        let usage = try sandbox.run(["import", path, "--limit", "50"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--limit only applies with --create-budgets"))
        #expect(try sandbox.run(["import", path, "--create-budgets"]).status == 64)

        let outcome = try sandbox.ok(["import", path, "--create-budgets", "--limit", "50"])
        #expect(outcome.stdout.contains("created 2 budgets ('Zoo', 'Bakery')"))
        let budgets = try sandbox.ok(["budget", "list", "--json", "--month", "2026-03"]).jsonArray
        #expect(budgets.map { $0["name"] as? String } == ["Bakery", "Café", "Food", "Zoo"])
        #expect(budgets.map { $0["limit"] as? String } == ["50.00", "40.00", "300.00", "50.00"])
        #expect(budgets.map { $0["expenseCount"] as? Int } == [1, 0, 1, 2])
    }

    @Test func aDryRunWritesNothingAndDoesNotCreateTheDatabase() throws {
        let sandbox = try Sandbox()
        let path = try ImportExportTests.file(sandbox, "dry.csv", """
            date,budget,name,amount,quantity,tags
            2026-03-01,Food,Bread,2.50,1,
            2026-03-02,Food,Refund,-4.00,1,

            2026-03-03,Rent,March,900,1,

            """)
        let outcome = try sandbox.run(["import", path, "--dry-run", "--create-budgets", "--limit", "100"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("Dry run: would import 2 expenses from '"))
        #expect(outcome.stdout.contains("'; nothing was written.\n"))
        #expect(outcome.stdout.contains("Food           1\nRent           1\n"))
        #expect(outcome.stdout.contains("Skipped 2 rows (incoming money: 1, blank line: 1)."))
        #expect(outcome.stdout.contains("Would create 2 budgets with a limit of 100.00: 'Food', 'Rent'."))
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))

        try sandbox.ok(["budget", "add", "Food", "--limit", "10"])
        let before = try sandbox.databaseSnapshot()
        let refused = try sandbox.run(["import", path, "--dry-run"])
        #expect(refused.stderr == "tally: error: the file names 1 budget that does not exist: 'Rent'; add it first or use --create-budgets --limit AMOUNT\n")
        try sandbox.ok(["import", path, "--dry-run", "--create-budgets", "--limit", "100"])
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func rowsImportedBeforeAreLeftOutUnlessForced() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let header = "date,budget,name,amount\n"
        let coffees = "2026-03-01,Café,Coffee,2.50\n2026-03-01,Café,Coffee,2.50\n2026-03-01,Café,Coffee,2.50\n"
        let path = try ImportExportTests.file(sandbox, "once.csv", header + coffees)
        #expect(try sandbox.ok(["import", path]).stdout.contains("'; skipped 0 rows; 0 rows already there; "))
        let before = try sandbox.dump(month: "2026-03")
        let again = try sandbox.ok(["import", path])
        #expect(again.stdout.hasPrefix("Imported 0 expenses from '") && again.stdout.contains("; 3 rows already there; "), "\(again.stdout)")
        #expect(try sandbox.dump(month: "2026-03") == before)

        // An overlapping file: one more identical coffee that day, and the next day's bread.
        let overlap = try ImportExportTests.file(
            sandbox, "overlap.csv", header + coffees + "2026-03-01,Café,COFFEE,2.50\n2026-03-02,Food,Bread,1.20\n")
        let dry = try sandbox.ok(["import", overlap, "--dry-run"]).stdout
        #expect(dry.hasPrefix("Dry run: would import 2 expenses") && dry.contains("Already there: 3 rows."), "\(dry)")
        #expect(dry.split(separator: "\n").filter { $0.hasSuffix("  duplicate") }.count == 3, "\(dry)")
        #expect(try sandbox.ok(["import", overlap]).stdout.hasPrefix("Imported 2 expenses"))
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 5)

        // Another column layout is another account: its identical purchase is real.
        let card = try ImportExportTests.file(sandbox, "card.csv", "date,name,amount,budget\n2026-03-01,Coffee,2.50,Café\n")
        #expect(try sandbox.ok(["import", card]).stdout.hasPrefix("Imported 1 expense "))

        try sandbox.ok(["import", path, "--force"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 9)
    }

    @Test func aJSONBackupImportedTwiceIsRefusedUnlessForced() throws {
        let sandbox = try ImportExportTests.withBudgets()
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Food", "--date", "2026-03-01"])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        try sandbox.ok(["import", backup])
        let refused = try sandbox.run(["import", backup])
        #expect(refused.isOneLineFailure)
        #expect(refused.stderr.contains("' was already imported on "))
        #expect(refused.stderr.hasSuffix("(1 expense); use --force to import it again\n"))
        try sandbox.ok(["import", backup, "--force"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 3)
    }

    @Test func aBankExportWithColumnsDateFormatAndNegativeExpenses() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let path = try ImportExportTests.file(sandbox, "bank.csv", """
            Buchungstag;Verwendungszweck;Betrag;Kategorie
            03.01.2026;Supermarkt;-45.99;
            04.01.2026;Salary;2500.00;
            05.01.2026;Espresso Bar;-3.20;Café
            06.01.2026;Hold;0.00;

            """.replacingOccurrences(of: ";", with: ","))
        let arguments = [
            "import", path, "--columns", "date=Buchungstag,name=Verwendungszweck,amount=Betrag,budget=Kategorie",
            "--date-format", "dd.MM.yyyy", "--expense-sign", "negative", "--budget", "Food",
        ]
        let outcome = try sandbox.ok(arguments)
        #expect(outcome.stdout.contains("'; skipped 2 rows (incoming money: 1, zero amount: 1); 0 rows already there; created 0 budgets; "))
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.map { $0["name"] as? String } == ["Supermarkt", "Espresso Bar"])
        #expect(expenses.map { $0["amount"] as? String } == ["45.99", "3.20"])
        #expect(expenses.map { $0["date"] as? String } == ["2026-01-03", "2026-01-05"])
        #expect(expenses.map { $0["budget"] as? String } == ["Food", "Café"])

        // Line numbers count physical lines, so a quoted line break moves them on.
        let shifted = try ImportExportTests.file(sandbox, "bank2.csv", """
            Buchungstag,Verwendungszweck,Betrag,Kategorie,Notiz
            03.01.2026,Shop,-1.00,,"two
            lines"
            31.02.2026,Shop,-1.00,,

            """)
        let failed = try sandbox.run(["import", shifted] + arguments.dropFirst(2))
        #expect(failed.stderr.hasPrefix("tally: error: line 4, column 'Buchungstag', value '31.02.2026': "))
    }

    @Test func aBankExportNeedsItsColumnsAndDateFormat() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let path = try ImportExportTests.file(sandbox, "bank.csv", "Booked,Payee,Amount\n31.01.2026,Shop,-1.00\n")
        let missing = try sandbox.run(["import", path, "--budget", "Food"])
        #expect(missing.isOneLineFailure)
        let badOption = try sandbox.run(["import", path, "--columns", "date=Booked,what=Payee"])
        #expect(badOption.status == 64)
        let badDate = try sandbox.run([
            "import", path, "--columns", "date=Booked,name=Payee,amount=Amount", "--budget", "Food", "--expense-sign", "negative",
        ])
        #expect(badDate.stderr.hasPrefix("tally: error: line 2, column 'Booked', value '31.01.2026': "))
        try sandbox.ok([
            "import", path, "--columns", "date=Booked,name=Payee,amount=Amount", "--budget", "Food", "--expense-sign", "negative",
            "--date-format", "dd.MM.yyyy",
        ])
    }

    @Test func csvRoundTripIsByteIdentical() throws {
        let source = try Sandbox()
        try source.ok(["demo", "--expenses", "300", "--months", "4"])
        try source.ok(["budget", "add", "Quoted, \"odd\" name", "--limit", "5"])
        try source.ok(["add", "Say \"hi\", twice", "1.05", "-b", "quoted, \"odd\" name", "--date", "2026-01-15", "--tag", "x"])
        try source.ok(["add", " spaced", "2", "-b", "Rent", "--date", "2026-01-15", "--quantity", "3"])
        let first = try source.ok(["export"]).stdout
        #expect(first.hasPrefix("date,budget,name,amount,quantity,tags,by\n"))

        let target = try Sandbox()
        let path = try ImportExportTests.file(target, "export.csv", first)
        try target.ok(["import", path, "--create-budgets", "--limit", "100"])
        let second = try target.ok(["export"]).stdout
        #expect(second == first)

        let output = target.directory.appendingPathComponent("again.csv").path
        #expect(try target.ok(["export", "--output", output]).stdout.hasPrefix("Exported 302 expenses to '"))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self) == first)
    }

    @Test func jsonRoundTripRestoresBudgetsAndExpenses() throws {
        let source = try Sandbox()
        try source.ok(["demo", "--expenses", "200", "--months", "3"])
        try source.ok(["budget", "add", "Empty", "--limit", "12.34"])
        let output = source.directory.appendingPathComponent("backup.json").path
        try source.ok(["export", "--output", output])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        #expect((document["expenses"] as? [Any])?.count == 200)

        let target = try Sandbox()
        try target.ok(["import", output])
        for month in ["2026-01", "2026-06", "2026-11", "2027-02"] {
            #expect(try target.ok(["budget", "list", "--json", "--month", month]).stdout
                == source.ok(["budget", "list", "--json", "--month", month]).stdout)
        }
        func withoutIDs(_ sandbox: Sandbox) throws -> [[String: String]] {
            try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray.map { item in
                item.filter { $0.key != "id" }.mapValues { "\($0)" }
            }
        }
        #expect(try withoutIDs(target) == withoutIDs(source))
        #expect(try target.ok(["export", "--format", "csv"]).stdout == source.ok(["export", "--format", "csv"]).stdout)
    }

    @Test func exportFiltersByBudgetAndMonthAndNeverLeavesHalfAFile() throws {
        let sandbox = try ImportExportTests.withBudgets()
        try sandbox.ok(["add", "Bread", "2", "-b", "food", "--date", "2026-03-10"])
        try sandbox.ok(["add", "Cake", "4", "-b", "café", "--date", "2026-03-11", "--tag", "sweet", "--tag", "Treat"])
        try sandbox.ok(["add", "Apples", "3", "-b", "food", "--date", "2026-04-01"])
        #expect(try sandbox.ok(["export", "--budget", "FOOD", "--month", "2026-03"]).stdout
            == "date,budget,name,amount,quantity,tags,by\n2026-03-10,Food,Bread,2.00,1,,\n")
        #expect(try sandbox.ok(["export", "--month", "2026-03"]).stdout.hasSuffix("2026-03-11,Café,Cake,4.00,1,sweet;treat,\n"))
        let json = try sandbox.ok(["export", "--format", "json", "--budget", "café"]).jsonObject
        #expect((json["budgets"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Café"])
        #expect((json["expenses"] as? [[String: Any]])?.first?["total"] as? String == "4.00")

        let missing = sandbox.directory.appendingPathComponent("no/such/folder/out.csv").path
        let failed = try sandbox.run(["export", "--output", missing])
        #expect(failed.isOneLineFailure)
        let unknown = try sandbox.run(["export", "--budget", "Nope", "--output", sandbox.directory.appendingPathComponent("x.csv").path])
        #expect(unknown.stderr == "tally: error: no budget named 'Nope'\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("x.csv").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func theFormatFollowsTheExtensionUnlessGiven() throws {
        let sandbox = try ImportExportTests.withBudgets()
        let path = try ImportExportTests.file(sandbox, "data.txt", "date,budget,name,amount\n2026-03-01,Food,Bread,2.50\n")
        let unknown = try sandbox.run(["import", path])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("use --format csv, json, ofx, camt053, mt940 or qif"))
        try sandbox.ok(["import", path, "--format", "csv"])
        let json = try ImportExportTests.file(sandbox, "data.json", "date,budget\n")
        let notJSON = try sandbox.run(["import", json])
        #expect(notJSON.isOneLineFailure)
        #expect(notJSON.stderr.contains("not a Tally JSON document"))
    }
}
