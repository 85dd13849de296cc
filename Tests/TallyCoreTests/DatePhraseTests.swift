import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// Date and month phrases against fixed "today"s: month ends, year ends, leap days, Mondays.
@Suite(.ownThreads) struct DatePhraseTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let today: String
        let phrase: String
        let expected: String
        var testDescription: String { "'\(phrase)' on \(today)" }
    }

    static func cases(_ today: String, _ pairs: KeyValuePairs<String, String>) -> [Case] {
        pairs.map { Case(today: today, phrase: $0.key, expected: $0.value) }
    }

    static let dayCases: [Case] =
        // A Monday late in November.
        cases("2026-11-23", [
            "today": "2026-11-23", "TODAY": "2026-11-23", "yesterday": "2026-11-22", "tomorrow": "2026-11-24",
            "-3d": "2026-11-20", "-0d": "2026-11-23", "3d ago": "2026-11-20", "3 days ago": "2026-11-20",
            "1 day ago": "2026-11-22", "3 d ago": "2026-11-20", "-30d": "2026-10-24", "-365d": "2025-11-23",
            "mon": "2026-11-16", "monday": "2026-11-16", "last mon": "2026-11-16", "Last Monday": "2026-11-16",
            "sun": "2026-11-22", "sunday": "2026-11-22", "tue": "2026-11-17", "last fri": "2026-11-20",
            "friday": "2026-11-20", "sat": "2026-11-21", "wed": "2026-11-18", "thu": "2026-11-19", "thursday": "2026-11-19",
            "23": "2026-11-23", "20": "2026-11-20", "1": "2026-11-01", "01": "2026-11-01", "24": "2026-10-24",
            "31": "2026-10-31", "11-20": "2026-11-20", "11-23": "2026-11-23", "11-24": "2025-11-24", "1-5": "2026-01-05",
            "nov 20": "2026-11-20", "20 nov": "2026-11-20", "November 20": "2026-11-20", "20 NOVEMBER": "2026-11-20",
            "dec 1": "2025-12-01", "jan 1": "2026-01-01", "  nov   20 ": "2026-11-20", "2026-11-20": "2026-11-20",
            "2030-01-01": "2030-01-01",
        ])
        // Month ends: the 31st of January, a 30-day month, March after a short February.
        + cases("2026-01-31", ["-1d": "2026-01-30", "yesterday": "2026-01-30", "31": "2026-01-31", "tomorrow": "2026-02-01"])
        + cases("2026-11-30", ["31": "2026-10-31", "30": "2026-11-30", "-30d": "2026-10-31", "mon": "2026-11-23"])
        + cases("2026-03-01", [
            "30": "2026-01-30", "29": "2026-01-29", "28": "2026-02-28", "yesterday": "2026-02-28", "31": "2026-01-31",
            "feb 28": "2026-02-28", "mar 1": "2026-03-01", "mar 2": "2025-03-02",
        ])
        + cases("2028-03-01", ["29": "2028-02-29", "feb 29": "2028-02-29", "2-29": "2028-02-29", "yesterday": "2028-02-29", "30": "2028-01-30"])
        // Year ends.
        + cases("2026-01-03", [
            "jan 5": "2025-01-05", "jan 3": "2026-01-03", "dec 31": "2025-12-31", "12-25": "2025-12-25", "5": "2025-12-05",
            "-3d": "2025-12-31", "mon": "2025-12-29", "fri": "2026-01-02", "sat": "2025-12-27",
        ])
        + cases("2025-12-31", ["tomorrow": "2026-01-01", "dec 31": "2025-12-31", "jan 1": "2025-01-01"])
        // Mondays: on a Monday, `mon` is the Monday before.
        + cases("2026-01-05", ["mon": "2025-12-29", "last mon": "2025-12-29", "sun": "2026-01-04", "tue": "2025-12-30"])
        + cases("2027-03-01", ["mon": "2027-02-22", "monday": "2027-02-22", "sun": "2027-02-28", "28": "2027-02-28", "29": "2027-01-29"])
        // The edges of the years Tally keeps.
        + cases("0001-01-02", ["yesterday": "0001-01-01", "-1d": "0001-01-01", "jan 1": "0001-01-01", "1": "0001-01-01"])
        + cases("9999-12-30", ["tomorrow": "9999-12-31"])

    @Test(arguments: dayCases)
    func readsADayPhrase(_ example: Case) throws {
        let today = try Day(parsing: example.today)
        #expect(try Day(phrase: example.phrase, today: today).isoString == example.expected)
    }

    struct Failure: CustomTestStringConvertible, Sendable {
        let today: String
        let phrase: String
        let problem: TallyError.PhraseProblem
        var testDescription: String { "'\(phrase)' on \(today)" }
    }

    static let dayFailures: [Failure] = [
        Failure(today: "2027-03-01", phrase: "feb 29", problem: .noSuchDay(year: 2027)),
        Failure(today: "2028-01-15", phrase: "feb 29", problem: .noSuchDay(year: 2027)),
        Failure(today: "2027-03-01", phrase: "2-29", problem: .noSuchDay(year: 2027)),
        Failure(today: "2026-11-23", phrase: "feb 30", problem: .noSuchDay(year: nil)),
        Failure(today: "2026-11-23", phrase: "30 feb", problem: .noSuchDay(year: nil)),
        Failure(today: "2026-11-23", phrase: "apr 31", problem: .noSuchDay(year: nil)),
        Failure(today: "2026-11-23", phrase: "32", problem: .noSuchDay(year: nil)),
        Failure(today: "2026-11-23", phrase: "0", problem: .noSuchDay(year: nil)),
        Failure(today: "2026-11-23", phrase: "nov 0", problem: .noSuchDay(year: nil)),
        Failure(today: "2026-11-23", phrase: "-99999999d", problem: .outOfRange),
        Failure(today: "2026-11-23", phrase: "999999999 days ago", problem: .outOfRange),
        Failure(today: "0001-01-01", phrase: "yesterday", problem: .outOfRange),
        Failure(today: "0001-01-01", phrase: "-1d", problem: .outOfRange),
        Failure(today: "0001-01-01", phrase: "mon", problem: .outOfRange),
        Failure(today: "0001-01-05", phrase: "20", problem: .outOfRange),
        Failure(today: "0001-01-05", phrase: "dec 25", problem: .outOfRange),
        Failure(today: "9999-12-31", phrase: "tomorrow", problem: .outOfRange),
        Failure(today: "2026-11-23", phrase: "-1234567890d", problem: .outOfRange),
        Failure(today: "2026-11-23", phrase: "-99999999999999999999999999d", problem: .outOfRange),
    ] + [
        "", " ", "now", "yesterday yesterday", "last", "next fri", "this fri", "fri last", "mo", "mond", "-3", "3d",
        "+3d", "-3 d", "-3days", "3d ago ago", "3 weeks ago", "11-", "-20", "13-01", "0-10", "11-20-2026",
        "nov", "nov 20 2026", "20 20", "nov nov", "2026-3-1", "26-03-10", "2026/03/10", "2026-11", "today\n", "１",
        "dïa", "tomorrow\u{0}", "2026-11-20T00:00",
    ].map { Failure(today: "2026-11-23", phrase: $0, problem: .unknownForm) }

    @Test(arguments: dayFailures)
    func refusesADayPhrase(_ example: Failure) throws {
        let today = try Day(parsing: example.today)
        #expect(throws: TallyError.invalidPhrase(.date, example.phrase, example.problem)) {
            try Day(phrase: example.phrase, today: today)
        }
    }

    @Test func anISODayThatDoesNotExistKeepsItsMessage() throws {
        let today = try Day(parsing: "2026-11-23")
        #expect(throws: TallyError.invalidDate("2026-02-30")) { try Day(phrase: "2026-02-30", today: today) }
        #expect(throws: TallyError.invalidDate("0000-01-01")) { try Day(phrase: "0000-01-01", today: today) }
    }

    static let monthCases: [Case] =
        cases("2026-11-23", [
            "this": "2026-11", "THIS": "2026-11", "this month": "2026-11", "last": "2026-10", "last month": "2026-10",
            "-0": "2026-11", "-1": "2026-10", "-2": "2026-09", "-11": "2025-12", "-12": "2025-11", "-24": "2024-11",
            "nov": "2026-11", "November": "2026-11", "oct": "2026-10", "dec": "2025-12", "jan": "2026-01", "2026-11": "2026-11",
            "2027-01": "2027-01",
        ])
        // Year boundaries: in January, last month and December are last year's.
        + cases("2026-01-10", ["this": "2026-01", "last": "2025-12", "-2": "2025-11", "dec": "2025-12", "jan": "2026-01", "feb": "2025-02"])
        + cases("2025-12-31", ["dec": "2025-12", "last": "2025-11", "jan": "2025-01", "-12": "2024-12"])
        + cases("0001-03-01", ["-2": "0001-01", "jan": "0001-01"])

    @Test(arguments: monthCases)
    func readsAMonthPhrase(_ example: Case) throws {
        let current = try Day(parsing: example.today).monthValue
        #expect(try Month(phrase: example.phrase, current: current).isoString == example.expected)
    }

    static let monthFailures: [Failure] = [
        Failure(today: "0001-01-01", phrase: "last", problem: .outOfRange),
        Failure(today: "0001-01-01", phrase: "dec", problem: .outOfRange),
        Failure(today: "0001-03-01", phrase: "-3", problem: .outOfRange),
        Failure(today: "2026-11-23", phrase: "-99999", problem: .outOfRange),
        Failure(today: "2026-11-23", phrase: "-999999999", problem: .outOfRange),
        Failure(today: "2026-11-23", phrase: "-99999999999999999999999", problem: .outOfRange),
    ] + [
        "", "now", "next", "-", "+1", "2", "nov 20", "last year", "this week", "novem", "2026-1",
        "2026-11-01", "11", "-2m",
    ].map { Failure(today: "2026-11-23", phrase: $0, problem: .unknownForm) }

    @Test(arguments: monthFailures)
    func refusesAMonthPhrase(_ example: Failure) throws {
        let current = try Day(parsing: example.today).monthValue
        #expect(throws: TallyError.invalidPhrase(.month, example.phrase, example.problem)) {
            try Month(phrase: example.phrase, current: current)
        }
    }

    @Test func anISOMonthThatDoesNotExistKeepsItsMessage() throws {
        let current = try Month(year: 2026, month: 11)
        #expect(throws: TallyError.invalidMonth("2026-13")) { try Month(phrase: "2026-13", current: current) }
    }

    @Test func messagesNameThePhraseAndListTheForms() {
        #expect(TallyError.invalidPhrase(.date, "someday", .unknownForm).localizedDescription
            == "invalid date 'someday': use \(Day.phraseForms)")
        #expect(TallyError.invalidPhrase(.month, "someday", .unknownForm).localizedDescription
            == "invalid month 'someday': use \(Month.phraseForms)")
        #expect(TallyError.invalidPhrase(.date, "feb 29", .noSuchDay(year: 2027)).localizedDescription
            == "invalid date 'feb 29': there is no such day in 2027")
        #expect(TallyError.invalidPhrase(.date, "-99999999d", .outOfRange).localizedDescription
            == "invalid date '-99999999d': it falls outside the years 1 to 9999")
        #expect(!TallyError.invalidPhrase(.date, "a\nb", .unknownForm).localizedDescription.contains("\n"))
    }

    /// The civil-date arithmetic against Foundation's Gregorian calendar, on every 97th day of
    /// the years Tally keeps.
    @Test func ordinalsAndWeekdaysAgreeWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let first = try Day(parsing: "0001-01-01").ordinal
        let last = try Day(parsing: "9999-12-31").ordinal
        #expect(Day(ordinal: first - 1) == nil)
        #expect(Day(ordinal: last + 1) == nil)
        #expect(try Day(parsing: "1970-01-01").ordinal == 0)
        for ordinal in stride(from: first, through: last, by: 97) {
            let day = try #require(Day(ordinal: ordinal))
            #expect(day.ordinal == ordinal)
            if day.year >= 1600 {
                let date = Date(timeIntervalSince1970: Double(ordinal) * 86_400)
                let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
                #expect((parts.year, parts.month, parts.day) == (day.year, day.month, day.day))
                // Foundation counts Sunday as 1.
                #expect(((parts.weekday ?? 0) + 5) % 7 == day.weekday)
            }
        }
    }
}
