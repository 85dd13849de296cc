import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct AlertCommandTests {
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
        #expect(try restored.ok(["settings", "show"]).stdout == "month-start 1\nwarn 70\ncurrency none\nhistory-days 365\ndefault-account none\nsnapshots 10\n")
        try restored.ok(["add", "x", "250", "-b", "food", "--date", "2026-03-01"])
        try restored.ok(["add", "x", "900", "-b", "rent", "--date", "2026-03-01"])
        let statuses = try restored.ok(["budget", "list", "--json", "--month", "2026-03"]).jsonArray.compactMap { $0["status"] as? String }
        #expect(statuses == ["near", "ok"])
    }
}

@Suite(.ownThreads) struct CheckCommandTests {
    static var today: Day { Day(Date(), in: TimeZone(identifier: "UTC") ?? .current) }

    @Test func exitCodesFollowTheMonitoringPluginConvention() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        let calm = try sandbox.run(["check"])
        #expect(calm.status == 0 && calm.stdout.isEmpty && calm.stderr.isEmpty)
        try sandbox.ok(["add", "Market", "250", "-b", "food"])
        let warned = try sandbox.run(["check"])
        #expect(warned.status == 1 && warned.stdout.hasPrefix("Food: "), "\(warned.stdout)")
        let quiet = try sandbox.run(["check", "--quiet"])
        #expect(quiet.status == 1 && quiet.stdout.isEmpty)
        try sandbox.run(["add", "Feast", "100", "-b", "food"])
        let over = try sandbox.run(["check", "--json"])
        #expect(over.status == 2)
        #expect(over.jsonArray.first?["level"] as? String == "over" && over.jsonArray.first?["name"] as? String == "Food")
        #expect(over.jsonArray.first?["elapsed"] is String && over.jsonArray.first?["perDay"] as? String == "0.00")
    }

    @Test func aBillStillDueMakesABudgetProjectedOver() throws {
        // A bill due on the period's last day that will not fit what is left.
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Home", "--limit", "1000"])
        try sandbox.ok(["budget", "add", "Fun", "--limit", "1000"])
        try sandbox.ok(["recurring", "add", "Rent", "1200", "--budget", "home", "--every", "month", "--day", "31", "--start", Self.today.isoString])
        let check = try sandbox.run(["check", "--json"])
        let levels = check.jsonArray.compactMap { $0["level"] as? String }
        #expect(check.status == 1 && levels == ["ok", "projected-over"], "\(check.stdout)")
        #expect(check.jsonArray.last?["perDay"] as? String == "0.00")
        #expect(try sandbox.run(["check"]).stdout.contains("Home: projected-over"))
    }

    @Test func newOnlySpeaksOncePerCrossingAndItsExitCodeOnlyOfWhatItReports() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        try sandbox.ok(["add", "Market", "250", "-b", "food"])
        let first = try sandbox.run(["check", "--new-only"])
        #expect(first.status == 1 && first.stdout.hasPrefix("Food: warning"))
        let second = try sandbox.run(["check", "--new-only"])
        #expect(second.status == 0 && second.stdout.isEmpty)
        #expect(try sandbox.run(["check"]).status == 1, "a plain check still tells")
        try sandbox.run(["add", "Feast", "100", "-b", "food"])
        let third = try sandbox.run(["check", "--new-only", "--json"])
        #expect(third.status == 2 && third.jsonArray.count == 1 && third.jsonArray.first?["level"] as? String == "over")
    }

    @Test func errorsExitThreeAndBadArgumentsSixtyFour() throws {
        let sandbox = try Sandbox()
        let notADatabase = sandbox.directory.appendingPathComponent("junk.sqlite")
        try Data(repeating: 7, count: 4096).write(to: notADatabase)
        let broken = try sandbox.run(["check", "--db", notADatabase.path], useDB: false)
        #expect(broken.status == 3 && broken.isOneLineFailure, "\(broken.stderr)")
        let usage = try sandbox.run(["check", "--quiet", "--json"])
        #expect(usage.status == 64 && usage.isOneLineFailure)
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    @Test func budgetListAndShowCarryThePaceInTheCurrentPeriodOnly() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        let current = try sandbox.ok(["budget", "list", "--json"]).jsonArray[0]
        #expect(current["elapsed"] is String && current["perDay"] is String)
        let past = try sandbox.ok(["budget", "list", "--json", "--month", "2020-01"]).jsonArray[0]
        #expect(past["elapsed"] is NSNull && past["projected"] is NSNull && past["perDay"] is NSNull)
        #expect(try sandbox.ok(["budget", "list"]).stdout.contains("Per day"))
        #expect(try !sandbox.ok(["budget", "list", "--month", "2020-01"]).stdout.contains("Per day"))
        #expect(try sandbox.ok(["budget", "show", "food"]).stdout.contains("Per day"))
        #expect(try sandbox.ok(["budget", "show", "food", "--json"]).jsonObject["perDay"] as? String != nil)
        let report = try sandbox.ok(["report", "--format", "json"]).jsonObject
        #expect((report["totals"] as? [String: Any])?["perDay"] is String)
        #expect(try sandbox.ok(["report"]).stdout.contains("Pace: "))
        let html = sandbox.directory.appendingPathComponent("report.html").path
        try sandbox.ok(["report", "--format", "html", "--output", html])
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains(#"data-label="Per day""#))
        try sandbox.ok(["report", "--format", "html", "--month", "2020-01", "--output", html])
        #expect(try !String(contentsOfFile: html, encoding: .utf8).contains(#"data-label="Per day""#))
    }
}
