import Foundation
import Testing

@Suite struct AlertCommandTests {
    @Test func addPrintsOneLineWhenAnExpenseCrossesTheWarningOrTheLimitAndNothingOtherwise() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Groceries", "--limit", "450"])
        let below = try sandbox.ok(["add", "Market", "300", "-b", "groceries", "--date", "2026-03-02"])
        #expect(below.stdout.split(separator: "\n").count == 2)
        let crossing = try sandbox.ok(["add", "Market", "74", "-b", "groceries", "--date", "2026-03-03"])
        #expect(crossing.stdout.split(separator: "\n").last == "Groceries: 83 % of 450.00 used — past the 80 % warning")
        let again = try sandbox.ok(["add", "Bread", "1", "-b", "groceries", "--date", "2026-03-04"])
        #expect(again.stdout.split(separator: "\n").count == 2, "no repeated warning")
        let over = try sandbox.ok(["add", "Feast", "100", "-b", "groceries", "--date", "2026-03-05"])
        #expect(over.stdout.split(separator: "\n").last == "Groceries: 105 % of 450.00 used — over the limit")
        // Through ArgumentParser (`expense add` is not QuickAdd's), the same line.
        try sandbox.ok(["budget", "add", "Fun", "--limit", "100", "--warn", "50"])
        let slow = try sandbox.ok(["expense", "add", "Cinema", "50", "--budget", "fun", "--date", "2026-03-05"])
        #expect(slow.stdout.split(separator: "\n").last == "Fun: 50 % of 100.00 used — past the 50 % warning")
    }

    @Test func theLedgerDefaultAppliesToBudgetsAddedAfterItAndEditChangesOne() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Before", "--limit", "100"])
        #expect(try sandbox.ok(["settings", "set", "warn", "60"]).stdout == "Budgets added from now on warn at 60 %.\n")
        try sandbox.ok(["budget", "add", "After", "--limit", "100"])
        try sandbox.ok(["add", "x", "65", "-b", "before", "--date", "2026-03-01"])
        try sandbox.ok(["add", "x", "65", "-b", "after", "--date", "2026-03-01"])
        let statuses = { try sandbox.ok(["budget", "list", "--json", "--month", "2026-03"]).jsonArray.compactMap { $0["status"] as? String } }
        // Listed by name: After (60 %, added after the change) is near; Before kept 80 %.
        #expect(try statuses() == ["near", "ok"])
        try sandbox.ok(["budget", "edit", "before", "--warn", "65"])
        #expect(try statuses() == ["near", "near"])
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["warn"] as? Int == 60)
    }

    @Test(arguments: [
        ["budget", "add", "Food", "--limit", "10", "--warn", "0"], ["budget", "add", "Food", "--limit", "10", "--warn", "101"],
        ["budget", "edit", "Rent", "--warn", "200"], ["settings", "set", "warn", "0"], ["settings", "set", "warn", "lots"],
    ])
    func aWarningLevelOutsideOneToAHundredIsAUsageErrorThatWritesNothing(arguments: [String]) throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Rent", "--limit", "1000"])
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("invalid warning level"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func aJSONBackupKeepsTheWarningLevels() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["settings", "set", "warn", "70"])
        try sandbox.ok(["budget", "add", "Rent", "--limit", "1000", "--warn", "95"])
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let restored = try Sandbox()
        try restored.ok(["import", backup])
        #expect(try restored.ok(["settings", "show"]).stdout == "month-start 1\nwarn 70\n")
        try restored.ok(["add", "x", "250", "-b", "food", "--date", "2026-03-01"])
        try restored.ok(["add", "x", "900", "-b", "rent", "--date", "2026-03-01"])
        let statuses = try restored.ok(["budget", "list", "--json", "--month", "2026-03"]).jsonArray.compactMap { $0["status"] as? String }
        #expect(statuses == ["near", "ok"])
    }
}
