import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Budget periods, rollover, limit history and pay-day months through the built `tally`.
@Suite(.ownThreads) struct PeriodCommandTests {
    /// Bad input: one line on stderr, nothing on stdout, exit 64, the database unchanged.
    static let usageErrors: [(arguments: [String], message: String)] = [
        (["budget", "add", "Trip", "--limit", "900", "--period", "once"], "--period once needs --from and --to"),
        (["budget", "add", "Trip", "--limit", "900", "--period", "once", "--from", "2026-07-01"], "--period once needs --from and --to"),
        (["budget", "add", "Food", "--limit", "400", "--from", "2026-07-01", "--to", "2026-07-14"], "--from and --to apply only to --period once"),
        (["budget", "add", "Trip", "--limit", "900", "--period", "once", "--from", "2026-07-01", "--to", "2026-07-14", "--rollover", "both"],
            "--rollover applies only to monthly and yearly budgets"),
        (["budget", "add", "Trip", "--limit", "900", "--period", "once", "--from", "2026-07-14", "--to", "2026-07-01"],
            "the range 2026-07-14 to 2026-07-01 ends before it starts"),
        (["budget", "add", "Food", "--limit", "400", "--cap", "0"], "budget cap 0.00 must be greater than 0"),
        (["budget", "add", "Food", "--limit", "400", "--cap", "-5"], "invalid value '-5'"),
        (["budget", "add", "Food", "--limit", "400", "--period", "weekly"], "weekly"),
        (["budget", "add", "Food", "--limit", "400", "--rollover", "always"], "always"),
        (["budget", "add", "Food", "--limit", "400", "--start", "2026-13"], "invalid month '2026-13'"),
        (["budget", "edit", "Rent", "--from", "2026-03"], "--from applies only with --limit"),
        (["budget", "edit", "Rent", "--cap", "10", "--no-cap"], "--cap and --no-cap cannot be used together"),
        (["budget", "edit", "Rent", "--limit", "900", "--from", "2025-01"], "the budget begins in 2026-01; its limit cannot change from 2025-01"),
        (["settings", "set", "month-start", "29"], "invalid month start 29: use a day from 1 to 28"),
        (["settings", "set", "month-start", "0"], "invalid month start 0: use a day from 1 to 28"),
        (["settings", "set", "month-start", "pay day"], "invalid month start 'pay day': use a day from 1 to 28"),
        (["settings", "set", "week-start", "1"], "week-start"),
        (["settings", "set", "currency", "EURO"], "unknown currency 'EURO': use an ISO 4217 code such as EUR, USD or GBP"),
        (["settings", "set", "currency", "XYZ"], "unknown currency 'XYZ'"),
    ]

    static func ledger() throws -> Sandbox {
        try Sandbox.seeded("period.ledger") { try $0.prepare(["budget", "add", "Rent", "--limit", "1000", "--start", "2026-01"]) }
    }

    @Test(arguments: usageErrors.indices)
    func badInputIsAUsageErrorAndChangesNothing(index: Int) throws {
        let (arguments, message) = Self.usageErrors[index]
        let sandbox = try Self.ledger()
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        #expect(outcome.isOneLineFailure, "\(arguments)")
        #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before, "\(arguments) changed the database")
    }

    @Test func settingsAreStoredWithTheLedger() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.ok(["settings", "show"]).stdout == "month-start 1\nwarn 80\ncurrency none\nhistory-days 365\ndefault-account none\nsnapshots 10\n")
        #expect(try sandbox.ok(["settings", "set", "month-start", "25"]).stdout == "Months now start on day 25.\n")
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["monthStart"] as? Int == 25)
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["currency"] is NSNull)
        #expect(try sandbox.ok(["settings", "set", "currency", "chf"]).stdout == "Amounts are now in CHF.\n")
        #expect(try sandbox.ok(["settings", "show"]).stdout == "month-start 25\nwarn 80\ncurrency CHF\nhistory-days 365\ndefault-account none\nsnapshots 10\n")
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["currency"] as? String == "CHF")
        #expect(try sandbox.ok(["settings", "set", "currency", "none"]).stdout == "Amounts now have no currency.\n")
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["currency"] is NSNull)
    }

    @Test func periodsStartOnPayDayEverywhereAMonthIsTaken() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["settings", "set", "month-start", "25"])
        try sandbox.ok(["budget", "add", "Food", "--limit", "400"])
        try sandbox.ok(["add", "Late October", "10", "-b", "food", "--date", "2026-11-24"])
        try sandbox.ok(["add", "November", "20", "-b", "food", "--date", "2026-11-25"])
        let october = try sandbox.ok(["budget", "list", "--month", "2026-10"])
        #expect(october.stdout.hasPrefix("Budgets for 2026-10 (25 Oct – 24 Nov 2026)\n"))
        let figures = try sandbox.ok(["budget", "list", "--month", "2026-10", "--json"]).jsonArray
        #expect(figures.first?["spent"] as? String == "10.00")
        #expect(figures.first?["from"] as? String == "2026-10-25")
        #expect(figures.first?["to"] as? String == "2026-11-24")
        let november = try sandbox.ok(["expense", "list", "--month", "2026-11", "--json"]).jsonArray
        #expect(november.map { $0["name"] as? String } == ["November"])
        let report = try sandbox.ok(["report", "--month", "2026-11", "--format", "json"]).jsonObject
        #expect(report["from"] as? String == "2026-11-25")
        #expect(report["to"] as? String == "2026-12-24")
    }

    @Test func monthPhrasesCountFromTheLedgersCurrentPeriod() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["settings", "set", "month-start", "25"])
        try sandbox.ok(["budget", "add", "Food", "--limit", "400"])
        let calendar = try PeriodCalendar(monthStart: 25)
        let current = calendar.period(containing: Day.today())
        for (phrase, period) in [("this", current), ("last", current.adding(months: -1)), ("-2", current.adding(months: -2))] {
            let figures = try sandbox.ok(["budget", "list", "--month", phrase, "--json"]).jsonArray.first ?? [:]
            #expect(figures["from"] as? String == calendar.days(of: period).first.isoString, "\(phrase)")
            #expect(figures["month"] as? String == period.isoString, "\(phrase)")
        }
        let report = try sandbox.ok(["report", "--month", "last", "--format", "json"]).jsonObject
        #expect(report["from"] as? String == calendar.days(of: current.adding(months: -1)).first.isoString)
    }

    @Test func rolloverCarriesLeftoverAndOverspendingFromTheHistory() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100", "--rollover", "both", "--start", "2026-01"])
        try sandbox.ok(["add", "January", "120", "-b", "food", "--date", "2026-01-10"])
        try sandbox.ok(["add", "February", "50", "-b", "food", "--date", "2026-02-10"])
        func figures(_ month: String) throws -> [String: Any] {
            try sandbox.ok(["budget", "list", "--month", month, "--json"]).jsonArray.first ?? [:]
        }
        #expect(try figures("2026-02")["carried"] as? String == "-20.00")
        #expect(try figures("2026-02")["available"] as? String == "80.00")
        #expect(try figures("2026-02")["remaining"] as? String == "30.00")
        #expect(try figures("2026-03")["carried"] as? String == "30.00")
        // Editing January changes what March carries in: it is computed, never stored.
        let january = try sandbox.ok(["expense", "list", "--month", "2026-01", "--json"]).jsonArray.first?["id"] as? Int ?? 0
        try sandbox.ok(["expense", "edit", String(january), "--amount", "100"])
        #expect(try figures("2026-03")["carried"] as? String == "50.00")
        // A cap bounds what a period may have available; surplus never carries a debt.
        try sandbox.ok(["budget", "edit", "food", "--rollover", "surplus", "--cap", "120"])
        #expect(try figures("2026-03")["available"] as? String == "120.00")
        #expect(try figures("2026-03")["carried"] as? String == "50.00")
        #expect(try figures("2026-03")["rollover"] as? String == "surplus")
        try sandbox.ok(["budget", "edit", "food", "--no-cap"])
        #expect(try figures("2026-03")["available"] as? String == "150.00")
        #expect(try figures("2026-03")["cap"] is NSNull)
    }

    @Test func aOnceBudgetCoversItsRangeAndRefusesOtherDays() throws {
        let sandbox = try Sandbox()
        let added = try sandbox.ok(["budget", "add", "Trip", "--limit", "900", "--period", "once", "--from", "2026-07-01", "--to", "2026-07-14"])
        #expect(added.stdout == "Added budget 'Trip' with a limit of 900.00 from 2026-07-01 to 2026-07-14.\n")
        try sandbox.ok(["add", "Hotel", "300", "-b", "trip", "--date", "2026-07-03"])
        let before = try sandbox.databaseSnapshot()
        let outside = try sandbox.run(["add", "Souvenir", "20", "-b", "trip", "--date", "2026-07-15"])
        #expect(outside.status == 1)
        #expect(outside.stderr == "tally: error: budget 'Trip' covers 2026-07-01 to 2026-07-14; 2026-07-15 is outside it\n")
        #expect(try sandbox.databaseSnapshot() == before)
        // In any month's view, a once budget shows its whole range.
        let figures = try sandbox.ok(["budget", "list", "--month", "2026-09", "--json"]).jsonArray.first ?? [:]
        #expect(figures["spent"] as? String == "300.00")
        #expect(figures["period"] as? String == "once")
        #expect(figures["from"] as? String == "2026-07-01")
    }

    @Test func aYearlyBudgetShowsItsYearToDate() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Car", "--limit", "1200", "--period", "yearly"])
        try sandbox.ok(["add", "Tyres", "400", "-b", "car", "--date", "2026-02-10"])
        try sandbox.ok(["add", "Service", "200", "-b", "car", "--date", "2026-06-10"])
        let march = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).jsonArray.first ?? [:]
        #expect(march["spent"] as? String == "400.00")
        #expect(march["remaining"] as? String == "800.00")
        #expect(march["from"] as? String == "2026-01-01")
        #expect(march["to"] as? String == "2026-03-31")
        let show = try sandbox.ok(["budget", "show", "car", "--month", "2026-12", "--json"]).jsonObject
        #expect(show["spent"] as? String == "600.00")
        #expect((show["limits"] as? [[String: Any]])?.first?["limit"] as? String == "1200.00")
    }
}
