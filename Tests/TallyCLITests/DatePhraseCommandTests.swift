import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Dates and months as people say them, through the built binary (which runs with `TZ=UTC`).
@Suite(.ownThreads) struct DatePhraseCommandTests {
    /// The day the binary sees as today, `offset` days on; a run that straddles midnight UTC
    /// may see either of two, so both are returned.
    static func days(_ offset: Int) -> [String] {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let before = Day.today(now: Date(), in: utc)
        let after = Day.today(now: Date().addingTimeInterval(60), in: utc)
        return [before, after].compactMap { Day(ordinal: $0.ordinal + offset)?.isoString }
    }

    static func months(_ offset: Int) -> [String] {
        days(0).compactMap { text in (try? Day(parsing: text))?.monthValue.adding(months: offset).isoString }
    }

    @Test(arguments: [
        (["add", "Bread", "2", "-b", "groceries", "--date", "yesterday"], -1),
        (["add", "Bread", "2", "-b", "groceries", "--date", "-3d"], -3),
        (["add", "Bread", "2", "-b", "groceries", "--date=-3d"], -3),
        (["add", "--date", "-3d", "Bread", "2", "-b", "groceries"], -3),
        (["expense", "add", "Bread", "2", "-b", "groceries", "--date", "3d ago"], -3),
        (["expense", "add", "Bread", "2", "--date", "Today", "-b", "groceries"], 0),
    ])
    func addPrintsTheDayAPhraseResolvedTo(arguments: [String], offset: Int) throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.ok(arguments)
        let line = String(outcome.stdout.split(separator: "\n").first ?? "")
        #expect(Self.days(offset).contains { line.hasPrefix("Added expense #1 \($0) Bread: 2.00 in Groceries") }, "\(line)")
        let listed = try sandbox.ok(["expense", "list", "--json"])
        let date = listed.jsonArray.first?["date"] as? String
        #expect(Self.days(offset).contains(date ?? ""), "\(listed.stdout)")
    }

    @Test func aWeekdayIsTheOneBeforeToday() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.ok(["add", "Bread", "2", "-b", "groceries", "--date", "last fri"])
        let candidates = (-7)...(-1)
        let fridays = candidates.flatMap { Self.days($0) }.filter { (try? Day(parsing: $0))?.weekday == 4 }
        #expect(fridays.contains { outcome.stdout.hasPrefix("Added expense #1 \($0) ") }, "\(outcome.stdout)")
    }

    @Test func editPrintsTheDayAPhraseResolvedTo() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        try sandbox.ok(["add", "Bread", "2", "-b", "groceries", "--date", "2026-03-02"])
        let outcome = try sandbox.ok(["expense", "edit", "1", "--date", "-1d"])
        #expect(Self.days(-1).contains { outcome.stdout == "Updated expense #1 \($0) Bread: 2.00 in Groceries\n" }, "\(outcome.stdout)")
    }

    @Test func budgetAddPrintsTheDaysItsPhrasesResolvedTo() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["budget", "add", "Trip", "--limit", "300", "--period", "once", "--from", "-3d", "--to", "today"])
        let ranges = zip(Self.days(-3), Self.days(0)).map { "from \($0) to \($1)" }
        #expect(ranges.contains { outcome.stdout.contains($0) }, "\(outcome.stdout)")
        let started = try sandbox.ok(["budget", "add", "Food", "--limit", "300", "--start", "-2"])
        #expect(Self.months(-2).contains { started.stdout.contains("starting \($0)") }, "\(started.stdout)")
    }

    @Test(arguments: [["--month", "last"], ["--month", "-1"], ["--month=-1"], ["--month", "LAST"]])
    func budgetListTakesARelativeMonth(month: [String]) throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.ok(["budget", "list", "--json"] + month)
        let months = outcome.jsonArray.compactMap { $0["month"] as? String }
        #expect(months.count == 2, "\(outcome.stdout)")
        #expect(months.allSatisfy { Self.months(-1).contains($0) }, "\(outcome.stdout)")
        let table = try sandbox.ok(["budget", "list"] + month)
        #expect(Self.months(-1).contains { table.stdout.contains($0) }, "\(table.stdout)")
    }

    @Test(arguments: [
        (["add", "Bread", "2", "-b", "groceries", "--date", "someday"], "invalid date 'someday': use today, yesterday"),
        (["add", "Bread", "2", "-b", "groceries", "--date", "feb 30"], "invalid date 'feb 30': there is no such day"),
        (["add", "Bread", "2", "-b", "groceries", "--date", "-99999999d"], "invalid date '-99999999d': it falls outside the years 1 to 9999"),
        (["add", "Bread", "2", "-b", "groceries", "--date", "--tag"], "invalid date '--tag'"),
        (["expense", "edit", "1", "--date", "next fri"], "invalid date 'next fri'"),
        (["budget", "add", "Trip", "--limit", "9", "--period", "once", "--from", "soon", "--to", "today"], "invalid date 'soon'"),
        (["budget", "list", "--month", "next"], "invalid month 'next': use this, last, -2, a month name (nov) or YYYY-MM"),
        (["expense", "list", "--month", "-99999"], "invalid month '-99999': it falls outside the years 1 to 9999"),
        (["report", "--month", "novembre"], "invalid month 'novembre'"),
        (["budget", "edit", "groceries", "--limit", "5", "--from", "yesterday"], "invalid month 'yesterday'"),
    ])
    func aBadPhraseIsAOneLineUsageErrorThatChangesNothing(arguments: [String], message: String) throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        try sandbox.ok(["add", "Bread", "2", "-b", "groceries", "--date", "2026-03-02"])
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("tally: error: " + message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    /// A phrase such as `-2` or `-3d` is not the negative number the hint is about; an amount still is.
    @Test func theNegativeNumberHintStillNamesTheAmount() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let add = try sandbox.run(["add", "Bread", "-5", "-b", "groceries", "--date", "-3d"])
        #expect(add.stderr == "tally: error: invalid value '-5': amounts, quantities, ids and pages cannot be negative\n")
        let list = try sandbox.run(["expense", "list", "--month", "-2", "--page", "-1"])
        #expect(list.stderr == "tally: error: invalid value '-1': amounts, quantities, ids and pages cannot be negative\n")
    }
}
