import Foundation
import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct DayTests {
    @Test func parsesExistingDays() throws {
        let day = try Day(parsing: "2024-02-29")
        #expect((day.year, day.month, day.day) == (2024, 2, 29))
        #expect(day.isoString == "2024-02-29")
        #expect(day.monthValue == (try Month(year: 2024, month: 2)))
    }

    @Test(arguments: [
        "", "2023-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-01", "26-01-01", "2026/01/01",
        "2026-01-01T00:00", " 2026-01-01", "０２０２-01-01", "0000-01-01", "2026-01-00", "2100-02-29",
    ])
    func rejectsInvalidDays(text: String) {
        #expect(throws: TallyError.invalidDate(text)) { try Day(parsing: text) }
    }

    @Test func ordersChronologically() throws {
        #expect(try Day(parsing: "2026-01-31") < Day(parsing: "2026-02-01"))
        #expect(try Day(parsing: "2025-12-31") < Day(parsing: "2026-01-01"))
    }

    @Test func todayIsTheDayFoundationSeesInTheLocalTimeZone() {
        let before = Day.today(now: Date(), in: .current)
        let today = Day.today()
        let after = Day.today(now: Date(), in: .current)
        #expect(today == before || today == after)
    }

    @Test func lastSecondOfAMonthBelongsToThatMonthInItsTimeZone() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // 2026-11-30 23:59:59 in New York is 2026-12-01 04:59:59 UTC.
        let lastSecond = Date(timeIntervalSince1970: 1_796_101_199)
        #expect(Day(lastSecond, in: zone) == (try Day(parsing: "2026-11-30")))
        #expect(Day(lastSecond.addingTimeInterval(1), in: zone) == (try Day(parsing: "2026-12-01")))
        #expect(Day(lastSecond, in: .gmt) == (try Day(parsing: "2026-12-01")))
    }
}

@Suite(.ownThreads) struct MonthTests {
    @Test func parsesAndDescribesItsDays() throws {
        let february = try Month(parsing: "2024-02")
        #expect(february.numberOfDays == 29)
        #expect(february.days.first == (try Day(parsing: "2024-02-01")))
        #expect(february.days.last == (try Day(parsing: "2024-02-29")))
        #expect(february.isoString == "2024-02")
        #expect(try Month(parsing: "2100-02").numberOfDays == 28)
    }

    @Test(arguments: ["", "2026-13", "2026-00", "2026-1", "2026/11", "2026-11-01", "November", "0000-01"])
    func rejectsInvalidMonths(text: String) {
        #expect(throws: TallyError.invalidMonth(text)) { try Month(parsing: text) }
    }

    @Test func addsMonthsAcrossYears() throws {
        let january = try Month(parsing: "2026-01")
        #expect(january.adding(months: -1) == (try Month(parsing: "2025-12")))
        #expect(january.adding(months: -5) == (try Month(parsing: "2025-08")))
        #expect(january.adding(months: 12) == (try Month(parsing: "2027-01")))
    }

    @Test func intervalIncludesBothEnds() throws {
        let days = try Month(parsing: "2026-11").days
        #expect(days.contains(try Day(parsing: "2026-11-01")))
        #expect(days.contains(try Day(parsing: "2026-11-30")))
        #expect(!days.contains(try Day(parsing: "2026-12-01")))
        #expect(!days.contains(try Day(parsing: "2026-10-31")))
    }

    @Test func intervalListsItsDaysAcrossMonthsYearsAndLeapDays() throws {
        let span = DayInterval(first: try Day(parsing: "2027-12-30"), last: try Day(parsing: "2028-03-01"))
        let days = Array(span)
        #expect(days.count == 63)
        #expect(days.prefix(3).map(\.isoString) == ["2027-12-30", "2027-12-31", "2028-01-01"])
        #expect(days.suffix(3).map(\.isoString) == ["2028-02-28", "2028-02-29", "2028-03-01"])
        #expect(zip(days, days.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Array(try Month(parsing: "2026-02").days).count == 28)
        #expect(Array(DayInterval(first: try Day(parsing: "9999-12-31"), last: try Day(parsing: "9999-12-31"))).count == 1)
        #expect(Array(DayInterval(first: try Day(parsing: "2026-01-02"), last: try Day(parsing: "2026-01-01"))).isEmpty)
    }
}
