import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct RecurringCommandTests {
    /// Today as the `tally` the sandbox runs sees it (TZ=UTC).
    static var today: Day { Day(Date(), in: TimeZone(identifier: "UTC") ?? .current) }

    static func day(_ offset: Int) -> String { (Day(ordinal: today.ordinal + offset) ?? today).isoString }

    /// A Home budget with rent on day 31 since 2026-01-15, and a paid rent typed by hand.
    static func populated() throws -> Sandbox {
        try Sandbox.seeded("recurring.populated") { sandbox in
            try sandbox.prepare(["budget", "add", "Home", "--limit", "2000"])
            try sandbox.prepare(["recurring", "add", "Rent", "1200", "--budget", "home", "--every", "month", "--day", "31", "--start", "2026-01-15", "--tag", "Housing"])
            try sandbox.prepare(["add", "Rent by hand", "1250", "-b", "Home", "--date", "2026-02-26"])
        }
    }

    @Test func addConfirmsTheRuleAndListShowsEveryField() throws {
        let sandbox = try Self.populated()
        let list = try sandbox.ok(["recurring", "list", "--json"]).jsonArray
        #expect(list.count == 1)
        let rent = list[0]
        #expect(rent["id"] as? Int == 1 && rent["name"] as? String == "Rent" && rent["budget"] as? String == "Home")
        #expect(rent["amount"] as? String == "1200.00" && rent["quantity"] as? Int == 1 && rent["tags"] as? [String] == ["housing"])
        #expect(rent["every"] as? String == "month" && rent["interval"] as? Int == 1 && rent["day"] as? String == "31")
        #expect(rent["start"] as? String == "2026-01-15" && rent["until"] is NSNull && rent["lastPaid"] is NSNull)
        #expect(rent["next"] as? String == "2026-01-31")
        let table = try sandbox.ok(["recurring", "list"]).stdout
        #expect(table.contains("month on day 31") && table.contains("2026-01-31"))
    }

    @Test func postPostsOrMatchesEachOccurrenceOnceAndListRemembersThem() throws {
        let sandbox = try Self.populated()
        let preview = try sandbox.ok(["recurring", "post", "--through", "2026-03-31", "--dry-run"])
        #expect(preview.stdout == """
            Would post 2026-01-31 Rent (rule 1), 1,200.00 in Home
            Would match 2026-02-28 Rent (rule 1), 1,200.00 in Home to expense #1 of 2026-02-26, 1,250.00
            Would post 2026-03-31 Rent (rule 1), 1,200.00 in Home

            """)
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 1)
        let posted = try sandbox.ok(["recurring", "post", "--through", "2026-03-31"])
        #expect(posted.stdout.hasPrefix("Posted 2026-01-31 Rent (rule 1), 1,200.00 in Home as expense #2\n"))
        #expect(try sandbox.ok(["recurring", "post", "--through", "2026-03-31"]).stdout == "Nothing is due through 2026-03-31.\n")
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.compactMap { $0["date"] as? String } == ["2026-01-31", "2026-02-26", "2026-03-31"])
        #expect(expenses.filter { $0["name"] as? String == "Rent" }.allSatisfy { $0["tags"] as? [String] == ["housing"] })
        let rule = try sandbox.ok(["recurring", "list", "--json"]).jsonArray[0]
        #expect(rule["lastPaid"] as? String == "2026-03-31" && rule["next"] as? String == "2026-04-30")
    }

    /// Four processes posting at once: every occurrence is posted exactly once.
    @Test func processesPostingAtOnceNeverPostTwice() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Home", "--limit", "2000"])
        try sandbox.ok(["recurring", "add", "Coffee", "3", "--budget", "home", "--every", "day", "--start", "2026-01-01"])
        let script = #""$TALLY" recurring post --through 2026-03-31 --db "$1" >/dev/null"#
        let db = sandbox.db
        let results = Locked<[Outcome]>([])
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                if let outcome = try? Hardening.shell(script, arguments: [db]) { results.withLock { $0.append(outcome) } }
                group.leave()
            }
        }
        group.wait()
        let outcomes = results.withLock { $0 }
        #expect(outcomes.count == 4 && outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.map(\.stderr))")
        let dates = try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray.compactMap { $0["date"] as? String }
        #expect(dates.count == 90 && Set(dates).count == 90)
        #expect(try Hardening.sqlite3([db, "SELECT COUNT(*) FROM recurringPayment"]) == "90\n")
    }

    /// The weekly hotel of an October trip posts October only, and says what it left out, once a rule.
    @Test func postIntoAOnceBudgetPostsOnlyWithinItsRangeAndSaysSo() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Trip", "--limit", "500", "--period", "once", "--from", "2026-10-01", "--to", "2026-10-31"])
        let added = try sandbox.ok(["recurring", "add", "Hotel", "50", "-b", "Trip", "--every", "week", "--start", "2026-09-20"])
        #expect(added.stdout.hasSuffix("; next 2026-10-04\n"))
        let notPosted = "Not posted: 5 occurrences of Hotel (rule 1) from 2026-09-20 to 2026-11-15, outside the days of Trip, 2026-10-01 to 2026-10-31\n"
        let posted = try sandbox.ok(["recurring", "post", "--through", "2026-11-20"])
        #expect(posted.stdout == (4...7).map { "Posted 2026-10-\(String(format: "%02d", 7 * $0 - 24)) Hotel (rule 1), 50.00 in Trip as expense #\($0 - 3)\n" }.joined() + notPosted)
        #expect(try sandbox.ok(["recurring", "post", "--through", "2026-11-20"]).stdout == notPosted)
        let dates = try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["date"] as? String }
        #expect(dates == ["2026-10-04", "2026-10-11", "2026-10-18", "2026-10-25"])
        #expect(try sandbox.ok(["recurring", "list", "--json"]).jsonArray[0]["next"] is NSNull)
    }

    @Test func skipMakesOneOccurrenceNotDue() throws {
        let sandbox = try Self.populated()
        let skipped = try sandbox.ok(["recurring", "skip", "1", "--date", "2026-01-31"])
        #expect(skipped.stdout == "Skipped 'Rent' on 2026-01-31.\n")
        let posted = try sandbox.ok(["recurring", "post", "--through", "2026-01-31"])
        #expect(posted.stdout == "Nothing is due through 2026-01-31.\n")
        #expect(try sandbox.ok(["recurring", "list", "--json"]).jsonArray[0]["skips"] as? [String] == ["2026-01-31"])
    }

    @Test func editChangesTheGivenFieldsAndRemoveKeepsPostedExpenses() throws {
        let sandbox = try Self.populated()
        try sandbox.ok(["recurring", "post", "--through", "2026-01-31"])
        let edited = try sandbox.ok(["recurring", "edit", "1", "--amount", "1300", "--every", "week", "--day", "fri", "--until", "2026-12-31"])
        #expect(edited.stdout.hasPrefix("Updated recurring rule #1 Rent: 1,300.00 in Home, every week on fri from 2026-01-15 until 2026-12-31"))
        let rule = try sandbox.ok(["recurring", "list", "--json"]).jsonArray[0]
        #expect(rule["day"] as? String == "fri" && rule["amount"] as? String == "1300.00" && rule["lastPaid"] as? String == "2026-01-31")
        #expect(try sandbox.ok(["recurring", "remove", "1"]).stdout == "Removed recurring rule #1 'Rent'.\n")
        #expect(try sandbox.ok(["recurring", "list", "--json"]).jsonArray.isEmpty)
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 2)
    }

    @Test func upcomingListsOverdueFirstAsTextJSONAndICalendar() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Home", "--limit", "2000"])
        try sandbox.ok(["recurring", "add", "Gym; pool, sauna", "20", "--budget", "home", "--every", "week", "--start", Self.day(-10), "--quantity", "2"])
        let entries = try sandbox.ok(["upcoming", "--days", "7", "--json"]).jsonArray
        let dates = [Self.day(-10), Self.day(-3), Self.day(4)]
        #expect(entries.compactMap { $0["date"] as? String } == dates)
        #expect(entries.compactMap { $0["overdue"] as? Bool } == [true, true, false])
        #expect(entries.allSatisfy { $0["rule"] as? Int == 1 && $0["total"] as? String == "40.00" && $0["budget"] as? String == "Home" })
        #expect(entries.first?["name"] as? String == "Gym; pool, sauna")
        let text = try sandbox.ok(["upcoming", "--days", "7"]).stdout
        #expect(text.split(separator: "\n").dropFirst(2).first?.hasSuffix("OVERDUE") == true)
        #expect(try sandbox.ok(["upcoming", "--days", "3"]).stdout.components(separatedBy: "OVERDUE").count == 3)

        let ics = sandbox.directory.appendingPathComponent("bills.ics").path
        try sandbox.ok(["upcoming", "--days", "7", "--ics", ics])
        let bytes = try String(contentsOfFile: ics, encoding: .utf8)
        #expect(bytes.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!bytes.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(bytes.contains("SUMMARY:Gym\\; pool\\, sauna: 40.00\r\n"))
        try sandbox.ok(["upcoming", "--days", "7", "--ics", ics])
        #expect(try String(contentsOfFile: ics, encoding: .utf8).components(separatedBy: "UID:") .dropFirst().map { $0.prefix(30) }
            == bytes.components(separatedBy: "UID:").dropFirst().map { $0.prefix(30) })
    }

    /// A real iCalendar parser (Python's `icalendar`, Debian's python3-icalendar from
    /// `scripts/install-deps`) reads the file back: three events, their days, UIDs and summaries.
    @Test func aRealParserReadsTheICalendarFileBack() throws {
        let python = "/usr/bin/python3"
        let probe = try Hardening.shell(#""$1" -c 'import icalendar'"#, arguments: [python])
        try #require(probe.status == 0, "Python's icalendar is missing: run scripts/install-deps (python3-icalendar)")
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Home & Garden", "--limit", "2000"])
        let name = "Insurance, yearly; with a long name that needs folding — ünïcödé everywhere in it"
        try sandbox.ok(["recurring", "add", name, "20", "--budget", "home & garden", "--every", "day", "--interval", "3", "--start", Self.day(-3)])
        let ics = sandbox.directory.appendingPathComponent("bills.ics").path
        try sandbox.ok(["upcoming", "--days", "7", "--ics", ics])
        let script = """
            import sys, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            for event in calendar.walk('VEVENT'):
                print(event.get('DTSTART').dt.isoformat(), event.get('UID'), str(event.get('SUMMARY')), sep='|')
            """
        let outcome = try Hardening.shell(#""$1" -c "$2" "$3""#, arguments: [python, script, ics])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = [Self.day(-3), Self.day(0), Self.day(3), Self.day(6)].map { day in
            "\(day)|tally-rule-1-\(day.replacingOccurrences(of: "-", with: ""))@tally|\(name): 20.00"
        }
        #expect(outcome.stdout.split(separator: "\n").map(String.init) == expected)
    }

    @Test(arguments: [
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "month", "--interval", "0"], "invalid interval 0"),
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "month", "--interval", "-2"], "'-2'"),
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "month", "--day", "32"], "invalid day '32'"),
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "week", "--day", "someday"], "invalid day 'someday'"),
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "year", "--day", "3"], "takes no day"),
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "fortnight"], "fortnight"),
        (["recurring", "add", "Rent", "10", "--budget", "Home"], "--every"),
        (["recurring", "add", "Rent", "0", "--budget", "Home", "--every", "day"], "amount 0.00"),
        (["recurring", "add", "Rent", "10", "--budget", "Home", "--every", "day", "--start", "2026-02-02", "--until", "2026-02-01"],
         "ends on 2026-02-01"),
        (["recurring", "edit", "7", "--amount", "3"], "no recurring rule with id 7"),
        (["recurring", "edit", "1", "--every", "week", "--day", "31"], "invalid day '31'"),
        (["recurring", "edit", "1", "--start", "2027-01-01", "--until", "2026-01-01"], "ends on 2026-01-01"),
        (["recurring", "remove", "7"], "no recurring rule with id 7"),
        (["recurring", "skip", "1", "--date", "2026-02-27"], "not due on 2026-02-27"),
        (["recurring", "skip", "7", "--date", "2026-02-27"], "no recurring rule with id 7"),
        (["recurring", "post", "--through", "soon"], "invalid date 'soon'"),
        (["upcoming", "--days", "0"], "invalid number of days 0"),
    ])
    func badInputIsAUsageErrorThatWritesNothing(arguments: [String], message: String) throws {
        let sandbox = try Self.populated()
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)

        let fresh = try Sandbox()
        _ = try fresh.run(arguments)
        #expect(try fresh.databaseSnapshot().isEmpty, "no database is created")
    }

    @Test func anUnknownBudgetFailsAndWritesNothing() throws {
        let sandbox = try Self.populated()
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["recurring", "add", "Gym", "20", "--budget", "Sports", "--every", "week"])
        #expect(outcome.status == 1 && outcome.isOneLineFailure && outcome.stderr.contains("no budget named 'Sports'"))
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func ruleIDsCompleteForEditRemoveAndSkip() throws {
        let sandbox = try Self.populated()
        try sandbox.ok(["recurring", "add", "Gym", "20", "--budget", "home", "--every", "week"])
        for command in ["edit", "remove", "skip"] {
            let outcome = try sandbox.run(
                ["---completion", "recurring", command, "--", "positional@0", "3", "0", "tally", "recurring", command, "", "--db", sandbox.db],
                useDB: false)
            #expect(outcome.stdout == "1\n2\n", "\(command): \(outcome.stderr)")
        }
    }
}

@Suite(.ownThreads) struct RecurringExportTests {
    /// A JSON export carries the rules with their skips and paid occurrences; importing it into
    /// a new ledger gives the same rules, which post nothing already paid. CSV stays expenses only.
    @Test func aJSONBackupRoundTripsTheRulesAndCSVStaysExpensesOnly() throws {
        let sandbox = try RecurringCommandTests.populated()
        try sandbox.ok(["recurring", "add", "Gym", "20", "--budget", "home", "--every", "week", "--day", "tue", "--start", "2026-01-01", "--until", "2026-06-30"])
        try sandbox.ok(["recurring", "skip", "2", "--date", "2026-01-06"])
        try sandbox.ok(["recurring", "post", "--through", "2026-02-28"])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup))) as? [String: Any]
        #expect(document?["version"] as? Int == 4)
        #expect((document?["recurring"] as? [[String: Any]])?.count == 2)

        let restored = try Sandbox()
        try restored.ok(["import", backup])
        let before = try sandbox.ok(["recurring", "list", "--json"]).stdout
        #expect(try restored.ok(["recurring", "list", "--json"]).stdout == before)
        #expect(try restored.ok(["recurring", "post", "--through", "2026-02-28"]).stdout == "Nothing is due through 2026-02-28.\n")
        try restored.ok(["import", backup, "--force"])
        #expect(try restored.ok(["recurring", "list", "--json"]).jsonArray.count == 2)

        let csv = try sandbox.ok(["export", "--format", "csv"]).stdout
        #expect(!csv.contains("recurring") && csv.split(separator: "\n").first == "date,budget,name,amount,quantity,tags,by")
    }
}
