import Foundation
import TallyTestSupport
import Testing

/// Accounts, incomes, transfers and balance assertions through `export`, `import` and `db copy`.
@Suite(.ownThreads) struct AccountImportExportTests {
    /// An account of every kind (a negative opening, opening days, one archived), incomes with
    /// tags and who received them, transfers with and without a name, assertions, expenses.
    static func household() throws -> Sandbox {
        try Sandbox.seeded("accounts.household") { sandbox in
            try sandbox.prepare(["budget", "add", "Food", "--limit", "300"])
            try sandbox.prepare(["account", "add", "Visa", "--kind", "credit", "--opening", "300", "--date", "2026-10-15"])
            try sandbox.prepare(["account", "add", "Checking", "--kind", "checking", "--opening", "1200", "--date", "2026-11-01"])
            try sandbox.prepare(["account", "add", "Savings", "--kind", "savings", "--opening", "-20.50", "--date", "2026-06-01"])
            try sandbox.prepare(["account", "add", "Wallet", "--kind", "cash"])
            try sandbox.prepare(["account", "add", "Car loan", "--kind", "loan", "--opening", "9000", "--date", "2026-01-01"])
            try sandbox.prepare(["account", "archive", "Wallet"])
            // Added out of date order: the document lists them by date, and so does the copy.
            try sandbox.prepare(["income", "add", "Bonus", "100", "--account", "checking", "--date", "2026-11-20", "--tag", "Job"])
            try sandbox.prepare([
                "income", "add", "Salary", "3200", "--account", "checking", "--date", "2026-11-02", "--tag", "job", "--tag", "monthly",
                "--by", "Anna",
            ])
            try sandbox.prepare(["transfer", "250.50", "--from", "checking", "--to", "visa", "--date", "2026-11-06", "--name", "Card payment"])
            try sandbox.prepare(["transfer", "500", "--from", "Checking", "--to", "savings", "--date", "2026-11-05"])
            try sandbox.prepare(["reconcile", "Checking", "--balance", "3649.50", "--as-of", "2026-11-10"])
            try sandbox.prepare(["reconcile", "Visa", "--balance", "49.50", "--as-of", "2026-11-30"])
            try sandbox.prepare(["add", "Bread", "2.50", "-b", "Food", "--date", "2026-11-04", "--tag", "bakery"])
        }
    }

    static let views: [[String]] = [
        ["account", "list", "--json", "--all"], ["income", "list", "--json"], ["transfer", "list", "--json"],
        ["reconcile", "--list", "--json"], ["account", "show", "Checking", "--month", "2026-11", "--json"],
    ]

    /// A restored or copied ledger numbers its incomes and transfers afresh, in date order.
    static func same(_ view: [String], _ one: Sandbox, _ other: Sandbox, db: String? = nil) throws -> Bool {
        let theirs = try other.ok(view).stdout
        let ours = try db.map { try one.ok(view + ["--db", $0], useDB: false).stdout } ?? one.ok(view).stdout
        return PostgresCommandTests.withoutIDs(ours) == PostgresCommandTests.withoutIDs(theirs)
    }

    /// Export, import into an empty ledger, export again: byte for byte the same document, every
    /// account view the same, and one undo takes the whole import back.
    @Test func aJSONBackupRoundTripsAccountsIncomesTransfersAndAssertions() throws {
        let source = try Self.household()
        let first = try source.ok(["export", "--format", "json"]).stdout
        let document = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(document["version"] as? Int == 7)
        #expect((document["accounts"] as? [[String: Any]])?.map { $0["name"] as? String }
            == ["Car loan", "Checking", "Savings", "Visa", "Wallet"])
        #expect((document["incomes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Salary", "Bonus"])
        #expect(first.contains(#"{"name": "Wallet", "kind": "cash", "opening": "0.00", "archived": true}"#))
        #expect(first.contains(#"{"name": "Savings", "kind": "savings", "opening": "-20.50", "openingDate": "2026-06-01"}"#))

        let target = try Sandbox()
        let path = try ImportExportTests.file(target, "backup.json", first)
        try target.ok(["import", path])
        #expect(try target.ok(["export", "--format", "json"]).stdout == first)
        for view in Self.views { #expect(try Self.same(view, target, source), "\(view)") }
        #expect(try target.run(["check"]).status == source.run(["check"]).status)

        try target.ok(["undo"])
        #expect(try target.ok(["account", "list", "--json", "--all"]).jsonArray.isEmpty)
        #expect(try target.ok(["income", "list", "--json"]).jsonArray.isEmpty)
        #expect(try target.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
    }

    /// A bad entry, an entry naming an account neither the document nor the ledger has, or one
    /// before its account opened: one line naming it, nothing written, no database created.
    @Test func aBadAccountEntryImportsNothingAndCreatesNoLedger() throws {
        let cases: [(String, String)] = [
            (#""accounts": [{"name": "Bank", "kind": "bank", "opening": "0.00"}]"#, "accounts[0].kind 'bank': use checking, savings, credit, cash, loan"),
            (#""incomes": [{"name": "Pay", "amount": "5.00", "date": "2026-01-01", "account": "Nowhere", "tags": []}]"#,
             "incomes[0].account 'Nowhere': "),
            (#""accounts": [{"name": "Bank", "kind": "checking", "opening": "0.00", "openingDate": "2026-02-01"}], "#
                + #""incomes": [{"name": "Pay", "amount": "5.00", "date": "2026-01-31", "account": "bank", "tags": []}]"#,
             "incomes[0].date '2026-01-31': "),
            (#""transfers": [{"amount": "5.00", "date": "2026-01-31", "from": "Bank", "to": "bank"}]"#, "transfers[0].to 'bank': "),
        ]
        for (entries, message) in cases {
            let sandbox = try Sandbox()
            let text = #"{"version": 7, "budgets": [{"name": "Food", "limit": "10.00", "period": "monthly"}], "#
                + entries + #", "expenses": [{"id": 1, "name": "Bread", "amount": "1.00", "quantity": 1, "total": "1.00", "#
                + #""date": "2026-03-01", "budget": "Food", "tags": []}]}"#
            let path = try ImportExportTests.file(sandbox, "bad.json", text)
            // A dry run fails where the import does.
            let dry = try sandbox.run(["import", path, "--dry-run"])
            #expect(dry.status == 1 && dry.stderr.hasPrefix("tally: error: " + message), "\(dry.stderr)")
            let outcome = try sandbox.run(["import", path])
            #expect(outcome.status == 1, "\(entries)")
            #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.hasPrefix("tally: error: " + message), "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.db), "\(entries)")
        }
        // Into an existing ledger: untouched.
        let sandbox = try Self.household()
        let before = try sandbox.databaseSnapshot()
        let path = try ImportExportTests.file(sandbox, "bad.json", #"{"version": 7, "budgets": [], "incomes": [{"name": "Pay", "#
            + #""amount": "5.00", "date": "2026-10-01", "account": "Checking", "tags": []}], "expenses": []}"#)
        let earlyDry = try sandbox.run(["import", path, "--dry-run"])
        #expect(earlyDry.stderr.hasPrefix("tally: error: incomes[0].date '2026-10-01': "), "\(earlyDry.stderr)")
        let early = try sandbox.run(["import", path])
        #expect(early.isOneLineFailure && early.status == 1, "\(early.stderr)")
        #expect(early.stderr.hasPrefix("tally: error: incomes[0].date '2026-10-01': "), "\(early.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    /// Incomes and transfers follow the expenses under a `kind` column; a ledger without them
    /// exports as before. The expense rows of such a file import; its other rows are refused.
    @Test func csvExportsIncomesAndTransfersUnderAKindColumn() throws {
        let sandbox = try Self.household()
        let csv = try sandbox.ok(["export", "--format", "csv"]).stdout
        #expect(csv == """
            date,budget,name,amount,quantity,tags,by,account,to,kind
            2026-11-04,Food,Bread,2.50,1,bakery,,,,expense
            2026-11-02,,Salary,3200.00,,job;monthly,Anna,Checking,,income
            2026-11-20,,Bonus,100.00,,job,,Checking,,income
            2026-11-05,,,500.00,,,,Checking,Savings,transfer
            2026-11-06,,Card payment,250.50,,,,Checking,Visa,transfer

            """.replacingOccurrences(of: ",,,,expense", with: "," + (try Self.spender(sandbox)) + ",,,expense"))
        #expect(try sandbox.ok(["export", "--format", "csv", "--budget", "food"]).stdout.hasPrefix("date,budget,name,amount,quantity,tags,by\n"))

        let target = try Sandbox()
        try target.ok(["budget", "add", "Food", "--limit", "300"])
        let before = try target.databaseSnapshot()
        let refused = try target.run(["import", try ImportExportTests.file(target, "all.csv", csv)])
        #expect(refused.status == 1 && refused.isOneLineFailure, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("tally: error: line 3, column 'kind', value 'income': "), "\(refused.stderr)")
        #expect(try target.databaseSnapshot() == before)
        let expensesOnly = csv.split(separator: "\n").filter { !$0.hasSuffix(",income") && !$0.hasSuffix(",transfer") }
        try target.ok(["import", try ImportExportTests.file(target, "expenses.csv", expensesOnly.joined(separator: "\n") + "\n")])
        #expect(try target.ok(["expense", "list", "--json"]).jsonArray.map { $0["name"] as? String } == ["Bread"])
    }

    /// Who the sandbox records as having spent an expense added without `--by`.
    static func spender(_ sandbox: Sandbox) throws -> String {
        try sandbox.ok(["expense", "list", "--json"]).jsonArray.first?["by"] as? String ?? ""
    }

    /// `db copy` between files carries the accounts and every row naming them.
    @Test func dbCopyCarriesAccountsBetweenFiles() throws {
        let sandbox = try Self.household()
        let copy = sandbox.directory.appendingPathComponent("db/copy.sqlite").path
        let copied = try sandbox.run(["db", "copy", sandbox.db, copy], useDB: false)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("1 budgets, 1 expenses, 0 recurring rules and 5 accounts with their entries"), "\(copied.stdout)")
        for view in Self.views + [["export", "--format", "json"]] { #expect(try Self.same(view, sandbox, sandbox, db: copy), "\(view)") }
        // A destination with an account is not empty.
        let other = sandbox.directory.appendingPathComponent("db/other.sqlite").path
        try sandbox.ok(["account", "add", "Cash", "--kind", "cash", "--db", other], useDB: false)
        let refused = try sandbox.run(["db", "copy", sandbox.db, other], useDB: false)
        #expect(refused.status == 1 && refused.isOneLineFailure && refused.stderr.contains("not empty"), "\(refused.stderr)")
    }
}
