import TallyCore
import Testing
@testable import TallyReports

struct TextRendererTests {
    @Test func matchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.store())
        try Golden.check(TextRenderer().render(report), against: "report.txt")
    }

    @Test func emptyMonthMatchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.store(), month: Month(unsafe: "2027-04"))
        try Golden.check(TextRenderer().render(report), against: "report-empty.txt")
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
