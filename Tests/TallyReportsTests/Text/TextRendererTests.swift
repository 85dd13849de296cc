import TallyCore
import Testing
@testable import TallyReports

struct TextRendererTests {
    @Test func matchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.store())
        try Golden.check(TextRenderer().render(report), against: "report.txt")
    }

    @Test func aLedgerWithAccountsShowsMoneyInAndMatchesTheGoldenFile() throws {
        let text = TextRenderer().render(try Fixtures.report(Fixtures.accountsStore()))
        try Golden.check(text, against: "report-accounts.txt")
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("  Savings rate") && $0.hasSuffix(" 47.0%") })
        // A month without income says so instead of a rate.
        let april = TextRenderer().render(try Fixtures.report(Fixtures.accountsStore(), month: Month(unsafe: "2027-04")))
        #expect(april.split(separator: "\n").contains { $0.hasPrefix("  Savings rate") && $0.hasSuffix(" n/a") })
        // Without accounts there is no such section: the output stays as it was.
        #expect(!TextRenderer().render(try Fixtures.report(Fixtures.store())).contains("Money in"))
    }

    @Test func emptyMonthMatchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.store(), month: Month(unsafe: "2027-04"))
        try Golden.check(TextRenderer().render(report), against: "report-empty.txt")
    }

    @Test func aPeriodFromThe25thMatchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.periodStore())
        try Golden.check(TextRenderer().render(report), against: "report-periods.txt")
    }

    @Test func theTitleGivesThePeriodsDatesOnlyWhenItIsNotACalendarMonth() throws {
        let shifted = TextRenderer().render(try Fixtures.report(Fixtures.periodStore()))
        #expect(shifted.hasPrefix("November 2026 (25 Nov – 24 Dec) · 4 budgets · 6 expenses\n"))
        let december = TextRenderer().render(try Fixtures.report(Fixtures.periodStore(), month: Month(unsafe: "2026-12")))
        #expect(december.hasPrefix("December 2026 (25 Dec – 24 Jan) · "))
        let calendar = TextRenderer().render(try Fixtures.report(Fixtures.store()))
        #expect(calendar.hasPrefix("November 2026 · 3 budgets"))
    }

    @Test func carriedAndAvailableAreColumnsAndUsedIsAgainstAvailable() throws {
        let lines = TextRenderer().render(try Fixtures.report(Fixtures.periodStore())).split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("Budget") })
        #expect(header.split(separator: " ", omittingEmptySubsequences: true) == ["Budget", "Limit", "Carried", "Available", "Spent", "Remaining", "Used"])
        let groceries = try #require(lines.first { $0.hasPrefix("Groceries") })
        #expect(groceries.split(separator: " ").prefix(7) == ["Groceries", "400.00", "50.00", "420.00", "180.00", "240.00", "42%"])
        let eatingOut = try #require(lines.first { $0.hasPrefix("Eating out") })
        #expect(eatingOut.split(separator: " ").prefix(8) == ["Eating", "out", "150.00", "-30.00", "120.00", "130.00", "-10.00", "108%"])
        #expect(eatingOut.hasSuffix(" over"))
        let total = try #require(lines.first { $0.hasPrefix("Total") })
        #expect(total.split(separator: " ").prefix(7) == ["Total", "3,950.00", "20.00", "3,940.00", "2,330.00", "1,610.00", "59%"])
    }

    @Test func yearlyAndOnceBudgetsAreLabelledWithTheDaysTheyCover() throws {
        let text = TextRenderer().render(try Fixtures.report(Fixtures.periodStore()))
        #expect(text.contains("\nHolidays (year to date)  "))
        #expect(text.contains("\nParis trip (once)  "))
        #expect(text.contains("\nHolidays: year to date, 25 Jan – 24 Dec 2026.\n"))
        #expect(text.contains("\nParis trip: once, 1 Jul – 14 Jul 2026.\n"))
        #expect(!text.contains("Groceries:"), "a monthly budget's figures are the period's: no note")
        #expect(!TextRenderer().render(try Fixtures.report(Fixtures.store())).contains("year to date"))
    }

    @Test func colourOnlyWhenAsked() throws {
        let report = try Fixtures.report(Fixtures.store())
        #expect(!TextRenderer(useColor: false).render(report).contains("\u{1B}["))
        let coloured = TextRenderer(useColor: true).render(report)
        #expect(coloured.contains("\u{1B}[31m"))
    }

    @Test func wideNamesStayAligned() throws {
        let report = try Fixtures.report(Fixtures.internationalStore())
        let lines = TextRenderer().render(report).split(separator: "\n").map(String.init)
        let rows = lines.filter { $0.contains("%") }
        let percentColumns = rows.map { line in DisplayWidth.of(String(line[..<(line.firstIndex(of: "%") ?? line.endIndex)])) }
        #expect(Set(percentColumns).count == 1, "\(rows)")
    }

    @Test func longNamesAreShortened() throws {
        let report = try Fixtures.report(Fixtures.manyBudgets(3))
        let text = TextRenderer(maximumNameWidth: 20).render(report)
        #expect(text.contains("Budget 0 with a ver…"))
    }
}
