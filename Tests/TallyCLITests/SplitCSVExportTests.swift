import Foundation
import TallyTestSupport
import Testing

/// `export --format csv` of splits, refunds and expenses in other currencies, and its import back.
@Suite(.ownThreads) struct SplitCSVExportTests {
    static let header =
        "date,budget,name,amount,quantity,tags,by,account,to,id,line amount,share,line name,line tags,refund of,original,currency,rate,rate source,kind\n"

    /// A EUR ledger with a split (percentages), a split of a quantity with a line of its own name and
    /// tags, refunds with and without the expense they return, and JPY expenses at a table rate and a
    /// given one, one of them split; added in date order, so ids are the same after a restore.
    static func ledger() throws -> Sandbox {
        try Sandbox.seeded("splitcsv.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            for (name, limit) in [("Groceries", "300"), ("Household", "100"), ("Eating Out", "200")] {
                try sandbox.prepare(["budget", "add", name, "--limit", limit])
            }
            try ForeignAmountCommandTests.importRates(into: sandbox)
            try sandbox.prepare(["add", "Dinner", "4500", "--currency", "JPY", "-b", "Eating Out", "--date", "2026-03-08", "--tag", "trip"])
            try sandbox.prepare(["add", "Taxi", "JPY 1200", "-b", "Eating Out", "--date", "2026-03-09", "--rate", "0.0063"])
            try sandbox.prepare(["add", "Costco", "120", "--split", "groceries=60%", "--split", "household=rest", "--date", "2026-03-10", "--tag", "bulk"])
            try sandbox.prepare([
                "add", "Market", "10", "--quantity", "3", "--split", "groceries=20,name=Fruit,tag=fresh", "--split", "household=rest",
                "--date", "2026-03-11",
            ])
            try sandbox.prepare(["add", "Sushi", "JPY 9000", "--rate", "0.0062", "-b", "Eating Out", "--date", "2026-03-11"])
            try sandbox.prepare(["expense", "split", "5", "--split", "eating out=50%", "--split", "groceries=rest"])
            try sandbox.prepare(["refund", "Returned pan", "10", "-b", "household", "--date", "2026-03-12", "--of", "3"])
            try sandbox.prepare(["refund", "Deposit back", "5", "-b", "groceries", "--date", "2026-03-13"])
            try sandbox.prepare(["add", "Bread", "2.50", "-b", "Groceries", "--date", "2026-03-13"])
        }
    }

    /// The expenses of a JSON backup: what a restore must give back.
    static func expenses(_ sandbox: Sandbox) throws -> Substring {
        let json = try sandbox.ok(["export", "--format", "json"]).stdout
        let start = try #require(json.range(of: "\"expenses\": ["))
        return json[start.lowerBound...]
    }

    /// A ledger to import into: the same settings and budgets, nothing else.
    static func target() throws -> Sandbox {
        let target = try Sandbox()
        try target.ok(["settings", "set", "currency", "EUR"])
        for name in ["Groceries", "Household", "Eating Out"] { try target.ok(["budget", "add", name, "--limit", "1"]) }
        return target
    }

    @Test func aSplitIsARowPerLineARefundItsKindAndAForeignExpenseItsOriginal() throws {
        let csv = try Self.ledger().ok(["export"]).stdout
        #expect(csv == Self.header + """
            2026-03-08,Eating Out,Dinner,27.86,1,trip,,,,1,,,,,,4500,JPY,0.006190417234,table,expense
            2026-03-09,Eating Out,Taxi,7.56,1,,,,,2,,,,,,1200,JPY,0.0063,given,expense
            2026-03-10,Groceries,Costco,120.00,1,bulk,,,,3,72.00,60%,,,,,,,,expense
            2026-03-10,Household,Costco,120.00,1,bulk,,,,3,48.00,rest,,,,,,,,expense
            2026-03-11,Groceries,Market,10.00,3,,,,,4,20.00,20.00,Fruit,fresh,,,,,,expense
            2026-03-11,Household,Market,10.00,3,,,,,4,10.00,rest,,,,,,,,expense
            2026-03-11,Eating Out,Sushi,55.80,1,,,,,5,27.90,50%,,,,9000,JPY,0.0062,given,expense
            2026-03-11,Groceries,Sushi,55.80,1,,,,,5,27.90,rest,,,,9000,JPY,0.0062,given,expense
            2026-03-12,Household,Returned pan,10.00,1,,,,,6,,,,,3,,,,,refund
            2026-03-13,Groceries,Deposit back,5.00,1,,,,,7,,,,,,,,,,refund
            2026-03-13,Groceries,Bread,2.50,1,,,,,8,,,,,,,,,,expense

            """)
    }

    @Test func exportImportExportIsEqualAndTheBackupShowsTheSameExpenses() throws {
        let source = try Self.ledger()
        let first = try source.ok(["export"]).stdout
        let target = try Self.target()
        let path = try ImportExportTests.file(target, "export.csv", first)
        let imported = try target.ok(["import", path])
        #expect(imported.stdout.hasPrefix("Imported 8 expenses from '"), "\(imported.stdout)")
        #expect(try target.ok(["export"]).stdout == first)
        #expect(try Self.expenses(target) == Self.expenses(source))
        // Each line counts in its own budget, the refunds below zero.
        let budgets = try target.ok(["budget", "list", "--month", "2026-03", "--json"]).jsonArray
        let spent = Dictionary(uniqueKeysWithValues: budgets.map { ($0["name"] as? String ?? "", $0["spent"] as? String ?? "") })
        #expect(spent == ["Groceries": "117.40", "Household": "48.00", "Eating Out": "63.32"])
        // Undo takes the import back whole.
        try target.ok(["undo"])
        #expect(try target.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
        // Importing it twice finds every expense already there, the splits whole.
        try target.ok(["import", path, "--force"])
        let again = try target.ok(["import", path])
        #expect(again.stdout.contains("Imported 0 expenses") && again.stdout.contains("8 rows already there"), "\(again.stdout)")
        // A dry run counts a split once in each of its budgets.
        let dry = try Self.target().ok(["import", path, "--dry-run"]).stdout
        #expect(dry.hasPrefix("Dry run: would import 8 expenses from '"), "\(dry)")
        #expect(dry.contains("Eating Out         3\nGroceries          5\nHousehold          3\n"), "\(dry)")
    }

    /// The same file into a PostgreSQL ledger restores the same expenses.
    @Test func theRoundTripHoldsOnPostgreSQL() throws {
        let source = try Self.ledger()
        let first = try source.ok(["export"]).stdout
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "splitcsv").url
        let sandbox = try Sandbox()
        try sandbox.ok(["settings", "set", "currency", "EUR", "--db", url], useDB: false)
        for name in ["Groceries", "Household", "Eating Out"] { try sandbox.ok(["budget", "add", name, "--limit", "1", "--db", url], useDB: false) }
        let path = try ImportExportTests.file(sandbox, "export.csv", first)
        try sandbox.ok(["import", path, "--db", url], useDB: false)
        #expect(try sandbox.ok(["export", "--db", url], useDB: false).stdout == first)
        let json = try sandbox.ok(["export", "--format", "json", "--db", url], useDB: false).stdout
        let start = try #require(json.range(of: "\"expenses\": ["))
        #expect(try json[start.lowerBound...] == Self.expenses(source))
    }

    @Test func aChangedLineMakesTheWholeSplitNewNeverHalfOfIt() throws {
        let source = try Self.ledger()
        let csv = try source.ok(["export"]).stdout
        let target = try Self.target()
        try target.ok(["import", try ImportExportTests.file(target, "a.csv", csv)])
        let changed = csv
            .replacingOccurrences(of: "Costco,120.00,1,bulk,,,,3,72.00,60%", with: "Costco,120.00,1,bulk,,,,3,60.00,50%")
            .replacingOccurrences(of: "Costco,120.00,1,bulk,,,,3,48.00,rest", with: "Costco,120.00,1,bulk,,,,3,60.00,rest")
        let outcome = try target.ok(["import", try ImportExportTests.file(target, "b.csv", changed)])
        #expect(outcome.stdout.contains("Imported 1 expense ") && outcome.stdout.contains("7 rows already there"), "\(outcome.stdout)")
        let costco = try target.ok(["expense", "list", "--json"]).jsonArray.filter { $0["name"] as? String == "Costco" }
        #expect(costco.count == 2)
        #expect(costco.allSatisfy { ($0["lines"] as? [[String: Any]])?.count == 2 })
    }

    @Test func aBrokenSplitFailsOnOneLineNamingItAndWritesNothing() throws {
        let rows = """
            2026-03-10,Groceries,Costco,120.00,1,,,,,3,72.00,60%,,,,,,,,expense
            2026-03-10,Household,Costco,120.00,1,,,,,3,48.00,rest,,,,,,,,expense

            """
        let cases: [(String, String)] = [
            // Mixed dates.
            (rows.replacingOccurrences(of: "2026-03-10,Household", with: "2026-03-11,Household"), "line 3, column 'date', value '2026-03-11': differs from line 2"),
            // Fixed lines that do not add up to the total.
            (rows.replacingOccurrences(of: "72.00,60%", with: "72.00,72").replacingOccurrences(of: "48.00,rest", with: "40.00,40"),
             "the lines add up to 112.00, not the total 120.00"),
            // A line amount that is not its share.
            (rows.replacingOccurrences(of: "48.00,rest", with: "47.00,rest"), "line 3, column 'line amount', value '47.00': is not the line's share rest of the total 120.00 (48.00)"),
            // One line alone.
            (String(rows.split(separator: "\n")[0]) + "\n", "a split needs at least two lines"),
            // A line without its expense's id.
            (rows.replacingOccurrences(of: ",,,,,3,48.00", with: ",,,,,,48.00"), "line 3, column 'id', value '': a split's line needs its expense's id"),
            // Another amount on one line.
            (rows.replacingOccurrences(of: "Household,Costco,120.00", with: "Household,Costco,121.00"), "line 3, column 'amount', value '121.00': differs from line 2"),
            // A refund cannot be split.
            (rows.replacingOccurrences(of: "expense", with: "refund"), "a refund cannot be split"),
            // A foreign expense without its rate.
            ("2026-03-08,Eating Out,Dinner,27.86,1,,,,,1,,,,,,4500,JPY,,table,expense\n", "line 2, column 'original', value '4500': an amount in another currency needs original, currency, rate and rate source (rate is empty)"),
        ]
        for (body, message) in cases {
            let sandbox = try Sandbox()
            let path = try ImportExportTests.file(sandbox, "broken.csv", Self.header + body)
            let outcome = try sandbox.run(["import", path, "--create-budgets", "--limit", "100"])
            #expect(outcome.status != 0, "\(message)")
            #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.contains(message), "\(message): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.db), "\(message)")
        }
    }

    @Test func aLedgerWithoutSplitsRefundsOrOtherCurrenciesExportsAsBefore() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "10"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Food", "--date", "2026-03-13"])
        #expect(try sandbox.ok(["export"]).stdout == "date,budget,name,amount,quantity,tags,by\n2026-03-13,Food,Bread,2.50,1,,\n")
    }
}
