import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct HistoryCommandTests {
    /// `log` with its times replaced, for a golden that does not depend on the clock.
    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d{4}-\d{2}-\d{2} \d{2}:\d{2}"#, with: "YYYY-MM-DD HH:MM", options: .regularExpression)
    }

    @Test func logListsEachChangeAndUndoRevertsThenRedoes() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Food"])
        var milk = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(milk.count == 1)
        try sandbox.ok(["expense", "edit", "1", "--amount", "3"])
        _ = try ImportExportTests.file(sandbox, "bank.csv", "date,budget,name,amount\n2026-01-01,Food,Shop,1.00\n2026-01-02,Fun,Cinema,9.00\n")
        let imported = try sandbox.run(["import", "bank.csv", "--create-budgets", "--limit", "50"], currentDirectory: sandbox.directory)
        #expect(imported.status == 0, "\(imported.stderr)")

        let log = try sandbox.ok(["log"]).stdout
        try expectGolden(Self.withoutTimes(log), named: "log.txt")
        let json = try sandbox.ok(["log", "--json", "--limit", "2"]).jsonArray
        #expect(json.map { $0["id"] as? Int } == [4, 3])
        #expect(json.first?["summary"] as? String == "import bank.csv: 1 budget, 2 expenses added")
        #expect((json.first?["command"] as? String)?.hasPrefix("import bank.csv --create-budgets --limit 50 --db ") == true)
        #expect(json.allSatisfy { $0["undone"] as? Bool == false && $0["undoes"] is NSNull })
        #expect((json.first?["when"] as? String).map { $0.hasSuffix("Z") && $0.count == 20 } == true, "ISO 8601 in UTC (TZ=UTC)")

        // A dry run says what it would do and changes nothing.
        let before = try sandbox.databaseSnapshot()
        #expect(try sandbox.ok(["undo", "--dry-run"]).stdout == "Would undo #4 import bank.csv: 1 budget, 2 expenses added: 1 budget, 2 expenses removed.\n")
        #expect(try sandbox.databaseSnapshot() == before)

        #expect(try sandbox.ok(["undo"]).stdout == "Undid #4 import bank.csv: 1 budget, 2 expenses added: 1 budget, 2 expenses removed.\n")
        #expect(try sandbox.ok(["budget", "list", "--json"]).jsonArray.map { $0["name"] as? String } == ["Food"])
        // Undoing again walks back: the edit.
        try sandbox.ok(["undo"])
        milk = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(milk.first?["amount"] as? String == "2.50")
        // An undo is a change: undoing it redoes, and the same file imports again after its undo.
        try sandbox.ok(["undo", "6"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.first?["amount"] as? String == "3.00")
        let again = try sandbox.run(["import", "bank.csv", "--create-budgets", "--limit", "50"], currentDirectory: sandbox.directory)
        #expect(again.stdout.hasPrefix("Imported 2 expenses"), "\(again.stderr)")
        let after = try sandbox.ok(["log", "--json"]).jsonArray
        #expect(after.map { $0["undone"] as? Bool } == [false, false, true, false, true, false, false, false])
        #expect(after.map { $0["undoes"] as? Int } == [nil, 6, 3, 4, nil, nil, nil, nil])
    }

    @Test(arguments: [
        (["undo", "9"], "no change set with id 9", Int32(64)),
        (["undo", "x"], "invalid change set id 'x'", 64),
        (["undo", "1"], "change set 1 cannot be undone alone: later change set 2 changed the same rows; undo it first", 1),
        (["log", "--limit", "0"], "invalid limit '0'", 64),
        (["log", "--since", "someday"], "someday", 64),
        (["settings", "set", "history-days", "0"], "invalid history length 0", 64),
    ])
    func badInputIsOneLineAndChangesNothing(arguments: [String], message: String, status: Int32) throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Food"])
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func withNoLedgerThereIsNothingToUndoAndNoneIsCreated() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["undo"])
        #expect(outcome.status == 1 && outcome.isOneLineFailure && outcome.stderr.contains("nothing to undo"), "\(outcome.stderr)")
        #expect(try sandbox.ok(["log"]).stdout == "No changes recorded.\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
    }

    @Test func historyDaysIsASettingShownWithTheOthers() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.ok(["settings", "set", "history-days", "30"]).stdout == "History now reaches back 30 days.\n")
        #expect(try sandbox.ok(["settings", "show"]).stdout.hasSuffix("history-days 30\ndefault-account none\nsnapshots 10\n"))
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["historyDays"] as? Int == 30)
    }
}
