import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// `budget add/edit --target`, and the goal figures in `budget list/show`, `check`, `upcoming`,
/// the report and a JSON backup. Months viewed are in the past, so no pace depends on today.
@Suite(.ownThreads) struct BudgetGoalCommandTests {
    /// Holiday saves 100.00 a month from July 2026 toward 1,200.00 by June 2027, rolling over;
    /// Car sets 150.00 aside every month on a 100.00 limit, so it is behind by 50.00.
    static func funds() throws -> Sandbox {
        try Sandbox.seeded("budget.goals") { sandbox in
            try sandbox.prepare(["account", "add", "Savings", "--kind", "savings", "--opening", "400", "--date", "2026-07-01"])
            try sandbox.prepare([
                "budget", "add", "Holiday", "--limit", "100", "--rollover", "surplus", "--start", "2026-07", "--target", "1200", "--by", "2027-06",
                "--account", "savings",
            ])
            try sandbox.prepare(["budget", "add", "Car", "--limit", "100", "--target", "150", "--every", "month"])
            try sandbox.prepare(["budget", "add", "Food", "--limit", "300"])
        }
    }

    @Test func addConfirmsTheTarget() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["budget", "add", "Car", "--limit", "100", "--target", "100", "--every", "month"])
        #expect(outcome.stdout == "Added budget 'Car' with a monthly limit of 100.00, saving toward 100.00 every month.\n")
        let dated = try sandbox.ok(["budget", "add", "Trip", "--limit", "50", "--period", "yearly", "--target", "1000", "--by", "2028-06"])
        #expect(dated.stdout == "Added budget 'Trip' with a yearly limit of 50.00, saving toward 1,000.00 by 2028-06.\n")
    }

    @Test(arguments: [
        ["--target", "0", "--every", "month"],
        ["--target", "abc", "--every", "month"],
        ["--target", "2000000000", "--every", "month"],
        ["--target", "100"],
        ["--target", "100", "--by", "2027-13"],
        ["--target", "100", "--by", "2027-01", "--every", "month"],
        ["--target", "100", "--every", "year"],
        ["--target", "100", "--every", "fortnight"],
        ["--target", "none"],
        ["--by", "2027-01"],
        ["--account", "Savings"],
        ["--target", "100", "--every", "month", "--account", ""],
        ["--period", "once", "--from", "2026-07-01", "--to", "2026-07-10", "--target", "100", "--by", "2026-07"],
    ])
    func addRefusesBadGoalFlags(flags: [String]) throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "add", "Car", "--limit", "100"] + flags)
        #expect(outcome.status == 64, "\(flags): \(outcome.stderr)")
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    @Test func editRefusesContradictions() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let before = try sandbox.databaseSnapshot()
        for flags in [["--target", "none", "--by", "2027-01"], ["--target", "none", "--account", "savings"], ["--by", "2027-01", "--every", "month"]] {
            let outcome = try sandbox.run(["budget", "edit", "Car"] + flags)
            #expect(outcome.status == 64, "\(flags)")
            #expect(outcome.isOneLineFailure && outcome.stdout.isEmpty)
        }
        // What depends on the stored budget is the rules' error (exit 1): Food has no target yet.
        for (flags, message) in [
            (["--by", "2027-01"], "has no target yet: give its amount too"),
            (["--target", "100"], "has no target yet: say by which month"),
            (["--account", "savings"], "has no target: an account shows"),
            (["--target", "100", "--every", "year"], "renews monthly"),
            (["--target", "100", "--every", "month", "--account", "nope"], "no account named 'nope'"),
        ] {
            let outcome = try sandbox.run(["budget", "edit", "Food"] + flags)
            #expect(outcome.status == 1, "\(flags)")
            #expect(outcome.isOneLineFailure && outcome.stderr.contains(message), "\(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func listAndShowGiveTheGoalFigures() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        // September: 200.00 carried in; 1,000.00 left over the 10 periods through June.
        let budgets = try sandbox.ok(["budget", "list", "--month", "2026-09", "--json"]).jsonArray
        #expect(budgets.map { $0["name"] as? String } == ["Car", "Food", "Holiday"])
        let holiday = try #require(budgets[2]["goal"] as? [String: Any])
        #expect(holiday["target"] as? String == "1200.00")
        #expect(holiday["targetBy"] as? String == "2027-06")
        #expect(holiday["every"] is NSNull)
        #expect(holiday["funded"] as? String == "300.00")
        #expect(holiday["needed"] as? String == "100.00")
        #expect(holiday["status"] as? String == "on-track")
        #expect(holiday["shortfall"] as? String == "0.00")
        #expect(holiday["periodsLeft"] as? Int == 10)
        #expect(holiday["account"] as? String == "Savings")
        #expect(holiday["accountBalance"] as? String == "400.00")
        let car = try #require(budgets[0]["goal"] as? [String: Any])
        #expect(car["every"] as? String == "month" && car["targetBy"] is NSNull)
        #expect(car["status"] as? String == "behind" && car["shortfall"] as? String == "50.00")
        #expect(budgets[1]["goal"] == nil)

        let table = try sandbox.ok(["budget", "list", "--month", "2026-09"]).stdout
        #expect(table.contains("1,200.00 by 2027-06"))
        #expect(table.contains("behind 50.00"))
        #expect(table.contains("Savings, balance 400.00"))

        let shown = try sandbox.ok(["budget", "show", "Holiday", "--month", "2026-09"]).stdout
        for line in ["Target     1,200.00 by 2027-06", "Funded     300.00", "Needed     100.00 this period (10 periods left)", "Goal       on-track", "Account    Savings, balance 400.00"] {
            #expect(shown.contains(line), "\(shown)")
        }
        #expect(!shown.contains("Hint"))
        let json = try sandbox.ok(["budget", "show", "Holiday", "--month", "2026-09", "--json"]).jsonObject
        #expect((json["goal"] as? [String: Any])?["needed"] as? String == "100.00")
    }

    @Test func aSinkingFundWithoutRolloverIsHinted() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Gifts", "--limit", "50", "--target", "600", "--by", "2026-12", "--start", "2026-01"])
        let shown = try sandbox.ok(["budget", "show", "Gifts", "--month", "2026-09"]).stdout
        #expect(shown.contains("Hint: a sinking fund keeps what it saved only when it rolls over: --rollover surplus"))
        // Nothing carried: 600.00 over September to December.
        #expect(shown.contains("Needed     150.00 this period (4 periods left)"))
        #expect(shown.contains("Goal       behind 100.00"))
    }

    @Test func editSetsChangesAndRemovesTheTargetAndUndoRestoresIt() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let set = try sandbox.ok(["budget", "edit", "Food", "--target", "600", "--by", "2026-12"])
        #expect(set.stdout == "Updated budget 'Food': monthly limit 300.00; saving toward 600.00 by 2026-12.\n")
        let amount = try sandbox.ok(["budget", "edit", "Food", "--target", "900"])
        #expect(amount.stdout.hasSuffix("saving toward 900.00 by 2026-12.\n"))
        let removed = try sandbox.ok(["budget", "edit", "Food", "--target", "none"])
        #expect(removed.stdout == "Updated budget 'Food': monthly limit 300.00; no target.\n")
        #expect(try sandbox.ok(["budget", "show", "Food", "--month", "2026-09", "--json"]).jsonObject["goal"] == nil)
        try sandbox.ok(["undo"])
        let goal = try sandbox.ok(["budget", "show", "Food", "--month", "2026-09", "--json"]).jsonObject["goal"] as? [String: Any]
        #expect(goal?["target"] as? String == "900.00")
        // Undoing once more takes back the change of amount (redo is covered by the store contract).
        try sandbox.ok(["undo"])
        let earlier = try sandbox.ok(["budget", "show", "Food", "--month", "2026-09", "--json"]).jsonObject["goal"] as? [String: Any]
        #expect(earlier?["target"] as? String == "600.00")
    }

    @Test func removingTheAccountClearsTheLinkAndUndoBringsItBack() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let removed = try sandbox.ok(["account", "remove", "Savings", "--yes"])
        #expect(removed.stdout == "Removed account 'Savings'; the goal of 'Holiday' names no account now.\n")
        let goal = { () throws -> [String: Any]? in
            try sandbox.ok(["budget", "show", "Holiday", "--month", "2026-09", "--json"]).jsonObject["goal"] as? [String: Any]
        }
        #expect(try goal()?["account"] is NSNull)
        #expect(try goal()?["target"] as? String == "1200.00")
        try sandbox.ok(["undo"])
        #expect(try goal()?["account"] as? String == "Savings")
    }

    @Test func checkWarnsOfABudgetBehindItsGoal() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let outcome = try sandbox.run(["check"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("Car: warning, 0 % of 100.00 used, behind its goal by 50.00 (needs 150.00 this period)"))
        let alerts = try sandbox.run(["check", "--json"]).jsonArray
        let car = try #require(alerts.first { $0["name"] as? String == "Car" })
        #expect(car["level"] as? String == "warning")
        #expect((car["goal"] as? [String: Any])?["status"] as? String == "behind")
    }

    @Test func upcomingListsEachGoalsNeed() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let text = try sandbox.ok(["upcoming"]).stdout
        #expect(text.contains("Goals this period"))
        #expect(text.contains("150.00 every month"))
        #expect(text.contains("1,200.00 by 2027-06"))
        #expect(!text.contains("Food"))
    }

    @Test func theReportShowsTheGoals() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let text = try sandbox.ok(["report", "--month", "2026-09"]).stdout
        // Where the fund's money sits, with its balance at the period's end, as budget list shows it.
        #expect(text.contains("Holiday: goal 1,200.00 by 2027-06: funded 300.00, needs 100.00 this period, on-track; in Savings, balance 400.00"))
        #expect(text.contains("Car: goal 150.00 every month: funded 100.00, needs 150.00 this period, behind 50.00\n"))
        let json = try sandbox.ok(["report", "--month", "2026-09", "--format", "json"]).jsonObject
        let budgets = try #require(json["budgets"] as? [[String: Any]])
        let goals = budgets.compactMap { $0["goal"] as? [String: Any] }
        #expect(goals.compactMap { $0["status"] as? String } == ["behind", "on-track"])
        #expect(goals.map { $0["account"] as? String } == [nil, "Savings"] && goals.map { $0["accountBalance"] as? String } == [nil, "400.00"])
        #expect(goals.allSatisfy { $0.keys.contains("account") && $0.keys.contains("accountBalance") })
        let listed = try sandbox.ok(["budget", "list", "--month", "2026-09", "--json"]).jsonArray.first { $0["name"] as? String == "Holiday" }
        #expect((listed?["goal"] as? [String: Any])?["accountBalance"] as? String == "400.00")
    }

    @Test func aJSONBackupCarriesTheTargetsAndTheirAccount() throws {
        let sandbox = try BudgetGoalCommandTests.funds()
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup))) as? [String: Any])
        #expect(document["version"] as? Int == 8)
        let restored = try Sandbox()
        try restored.ok(["import", backup])
        let original = try sandbox.ok(["budget", "list", "--month", "2026-09", "--json"]).stdout
        #expect(try restored.ok(["budget", "list", "--month", "2026-09", "--json"]).stdout == original)
    }
}
