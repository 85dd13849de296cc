import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// `--by`, `$TALLY_USER` and the login name on `add` and `import`; `expense list --by`; the
/// month report's per-person section; `by` through export and import.
@Suite(.ownThreads) struct WhoSpentItTests {
    static func withBudget() throws -> Sandbox {
        try Sandbox.seeded("who.withBudget") { try $0.prepare(["budget", "add", "Food", "--limit", "100"]) }
    }

    static func byOfEachExpense(_ sandbox: Sandbox) throws -> [String?] {
        try sandbox.ok(["expense", "list", "--json"]).jsonArray.map { $0["by"] as? String }
    }

    /// `--by` beats `$TALLY_USER`, which beats `LOGNAME`; `TALLY_USER` set and empty records no
    /// one; both readers of `add` (QuickAdd and ArgumentParser) agree.
    @Test func addTakesByThenTallyUserThenTheLoginName() throws {
        let sandbox = try Self.withBudget()
        let date = ["--date", "2026-03-10"]
        #expect(try sandbox.run(["add", "Bread", "2", "-b", "Food", "--by", "Anna"] + date).status == 0)
        #expect(try sandbox.run(["expense", "add", "Milk", "1", "-b", "Food", "--by", " Ben "] + date).status == 0)
        #expect(try sandbox.run(["add", "Jam", "3", "-b", "Food"] + date, environment: ["TALLY_USER": "Cleo", "LOGNAME": "x"]).status == 0)
        #expect(try sandbox.run(["add", "Tea", "4", "-b", "Food"] + date, environment: ["TALLY_USER": "", "LOGNAME": "dan"]).status == 0)
        // Without TALLY_USER the login name; with neither LOGNAME nor USER, the password database's.
        let unset = try sandbox.run(
            ["sh", "-c", "unset TALLY_USER; LOGNAME=eve \"$0\" add Rice 5 -b Food --date 2026-03-10 --db \"$1\"", Sandbox.tallyURL.path, sandbox.db],
            useDB: false, executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(unset.status == 0, "\(unset.stderr)")
        // An empty `--by` records no one; ArgumentParser reads it (QuickAdd declines empty values).
        #expect(try sandbox.run(["add", "Soup", "6", "--by", "", "-b", "Food"] + date, environment: ["TALLY_USER": "Cleo"]).status == 0)
        #expect(try Self.byOfEachExpense(sandbox) == ["Anna", "Ben", "Cleo", nil, "eve", nil])

        let list = try sandbox.ok(["expense", "list", "--by", "Anna"]).stdout
        #expect(list.contains("Bread") && !list.contains("Milk"), "\(list)")
        let table = try sandbox.ok(["expense", "list"]).stdout
        #expect(table.contains(" By") && table.contains("Cleo"), "a column once several people appear: \(table)")
        let alone = try sandbox.ok(["expense", "list", "--by", "Anna"]).stdout
        #expect(!alone.contains(" By"), "one person: no column: \(alone)")
        #expect(try sandbox.ok(["expense", "list", "--by", "Nobody"]).stdout == "No expenses match.\n")
    }

    @Test func aBadNameIsAUsageErrorAndWritesNothing() throws {
        let sandbox = try Self.withBudget()
        let before = try sandbox.databaseSnapshot()
        let long = String(repeating: "p", count: 101)
        for (arguments, environment) in [
            (["add", "Bread", "2", "-b", "Food", "--by", long], [String: String]()),
            (["add", "Bread", "2", "-b", "Food", "--by", "a\tb"], [:]),
            (["add", "Bread", "2", "-b", "Food"], ["TALLY_USER": "a\u{1}b"]),
            (["expense", "list", "--by", long], [:]),
        ] {
            let outcome = try sandbox.run(arguments, environment: environment)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("person name"), "\(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == before)
    }

    /// The month report lists who spent what only when more than one person appears.
    @Test func theMonthReportHasAPerPersonSectionWhenSeveralPeopleSpent() throws {
        let sandbox = try Self.withBudget()
        try sandbox.ok(["add", "Bread", "2", "-b", "Food", "--date", "2026-03-10", "--by", "Anna"])
        var json = try sandbox.ok(["report", "--month", "2026-03", "--format", "json"]).jsonObject
        #expect(json["people"] == nil, "one person: no section")
        #expect(!(try sandbox.ok(["report", "--month", "2026-03"]).stdout.contains("By person")))

        try sandbox.ok(["add", "Cheese", "7.50", "-b", "Food", "--date", "2026-03-11", "--by", "Ben"])
        try sandbox.ok(["add", "Milk", "1", "-b", "Food", "--date", "2026-03-12", "--by", "Anna"])
        try sandbox.ok(["add", "Salt", "0.50", "-b", "Food", "--date", "2026-03-12"])
        try sandbox.ok(["add", "Later", "99", "-b", "Food", "--date", "2026-04-01", "--by", "Cleo"])
        json = try sandbox.ok(["report", "--month", "2026-03", "--format", "json"]).jsonObject
        let people = try #require(json["people"] as? [[String: Any]])
        #expect(people.map { $0["by"] as? String } == ["Ben", "Anna", nil])
        #expect(people.map { $0["spent"] as? String } == ["7.50", "3.00", "0.50"])
        #expect(people.map { $0["expenses"] as? Int } == [1, 2, 1])
        #expect(people.first.map { $0.keys.sorted() } == ["by", "expenses", "spent"])

        let text = try sandbox.ok(["report", "--month", "2026-03"]).stdout
        #expect(text.contains("By person\n  Ben             7.50  1 expense\n  Anna            3.00  2 expenses\n  (not recorded)  0.50  1 expense\n"), "\(text)")
        let page = sandbox.directory.appendingPathComponent("report.html").path
        try sandbox.ok(["report", "--month", "2026-03", "--format", "html", "--output", page])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("By person") && html.contains("Ben") && html.contains("(not recorded)"), "\(html)")
    }

    /// JSON and CSV exports carry `by`, and an import reads it back; a file's `by` beats `--by`,
    /// which fills the rows that name no one.
    @Test func exportAndImportCarryWhoSpentIt() throws {
        let sandbox = try Self.withBudget()
        try sandbox.ok(["add", "Bread", "2", "-b", "Food", "--date", "2026-03-10", "--by", "Anna"])
        try sandbox.ok(["add", "Salt", "1", "-b", "Food", "--date", "2026-03-11"])
        let json = try sandbox.ok(["export", "--format", "json"]).stdout
        #expect(json.contains("\"version\": 5"), "\(json)")
        #expect(json.contains("\"tags\": [], \"by\": \"Anna\"}") && json.contains("\"tags\": [], \"by\": \"\"}"), "\(json)")
        let csv = try sandbox.ok(["export", "--format", "csv"]).stdout
        #expect(csv == "date,budget,name,amount,quantity,tags,by\n2026-03-10,Food,Bread,2.00,1,,Anna\n2026-03-11,Food,Salt,1.00,1,,\n")

        let backup = sandbox.directory.appendingPathComponent("backup.json")
        try Data(json.utf8).write(to: backup)
        let restored = try Sandbox()
        try restored.ok(["import", backup.path, "--by", "Zed"])
        #expect(try Self.byOfEachExpense(restored) == ["Anna", nil], "the document's by, even empty, wins")

        let file = sandbox.directory.appendingPathComponent("bank.csv")
        try Data("date,budget,name,amount,by\n2026-03-01,Food,Eggs,3.00,Ben\n2026-03-02,Food,Jam,4.00,\n".utf8).write(to: file)
        let imported = try Sandbox()
        try imported.ok(["import", file.path, "--by", "Zed", "--create-budgets", "--limit", "100"])
        #expect(try Self.byOfEachExpense(imported) == ["Ben", "Zed"])
        let bad = sandbox.directory.appendingPathComponent("bad.csv")
        try Data("date,budget,name,amount,by\n2026-03-01,Food,Eggs,3.00,\(String(repeating: "p", count: 101))\n".utf8).write(to: bad)
        let refused = try imported.run(["import", bad.path])
        #expect(refused.status != 0 && refused.stderr.contains("line 2") && refused.stderr.contains("by"), "\(refused.stderr)")
    }

    /// A backup written before `by` existed restores with no one recorded, whoever imports it.
    @Test func anOlderBackupRestoresWithNoOneRecorded() throws {
        let sandbox = try Sandbox()
        let backup = sandbox.directory.appendingPathComponent("v4.json")
        try Data("""
            {"version": 4, "budgets": [{"name": "Food", "limit": "100.00", "period": "monthly"}],
             "expenses": [{"id": 1, "name": "Bread", "amount": "2.00", "quantity": 1, "total": "2.00", "date": "2026-03-10", "budget": "Food", "tags": []}]}
            """.utf8).write(to: backup)
        try sandbox.ok(["import", backup.path, "--by", "Zed"])
        #expect(try Self.byOfEachExpense(sandbox) == [nil])
    }
}
