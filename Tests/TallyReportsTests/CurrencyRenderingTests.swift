import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// The month's spending in other currencies shows in the PNG as in the text, JSON and HTML.
@Suite struct CurrencyRenderingTests {
    @Test func pngHasAByCurrencySectionOnlyWithForeignSpending() throws {
        var report = try Fixtures.report(Fixtures.store())
        #expect(DashboardLayout(report: report).currenciesTitleY == nil)
        let jpy = try Currency(code: "JPY")
        report.byCurrency = [
            CurrencySpending(original: CurrencyAmount(minorUnits: 12_500, currency: jpy), converted: try Fixtures.money("77.40"), expenseCount: 3)
        ]
        let layout = DashboardLayout(report: report)
        let titleY = try #require(layout.currenciesTitleY)
        #expect(layout.currencyLines.map(\.text) == ["12500 JPY = 77.40, 3 expenses"])
        #expect(layout.currencyLines.allSatisfy { $0.baseline > titleY && $0.baseline < layout.height })
        #expect(titleY > (layout.whyOverLines.last?.baseline ?? 0))
        let image = try #require(DecodedImage(try PNGRenderer().render(report)))
        #expect(Double(image.height) == layout.height)
        // Ink where the line is drawn.
        let baseline = layout.currencyLines[0].baseline
        let paper = image.pixel(x: DashboardLayout.margin, y: baseline + 8)
        var inked = 0
        for x in stride(from: DashboardLayout.margin, to: 300, by: 1) {
            for y in stride(from: baseline - 12, to: baseline + 2, by: 1) where image.pixel(x: x, y: y) != paper { inked += 1 }
        }
        #expect(inked > 50)
    }

    static func rangeReport() throws -> RangeReport {
        var report = try RangeReportBuilderTests.report(.init())
        report.byCurrency = [
            CurrencySpending(original: CurrencyAmount(minorUnits: 12_500, currency: try Currency(code: "JPY")), converted: try Fixtures.money("77.40"), expenseCount: 3),
            CurrencySpending(original: CurrencyAmount(minorUnits: 1_250, currency: try Currency(code: "USD")), converted: try Fixtures.money("11.53"), expenseCount: 1),
        ]
        return report
    }

    @Test func rangeCSVHasTheRangesCurrencyRowsAfterItsOwn() throws {
        let plain = RangeCSVRenderer().render(try RangeReportBuilderTests.report(.init()))
        #expect(!plain.contains(",currency,"))
        let report = try Self.rangeReport()
        let csv = RangeCSVRenderer().render(report)
        let span = "\(report.range.first.isoString)..\(report.range.last.isoString)"
        #expect(csv == plain + [
            "\(span),currency,JPY,original,12500", "\(span),currency,JPY,amount,77.40", "\(span),currency,JPY,expenses,3",
            "\(span),currency,USD,original,12.50", "\(span),currency,USD,amount,11.53", "\(span),currency,USD,expenses,1",
        ].joined(separator: "\n") + "\n")
    }

    @Test func rangePNGDrawsByCurrencyUnderTheTable() throws {
        let plain = try RangeReportBuilderTests.report(.init())
        let report = try Self.rangeReport()
        let before = RangeLayout(report: plain, withTable: true)
        let layout = RangeLayout(report: report, withTable: true)
        #expect(layout.height == before.height + RangeLayout.currencyGap + 2 * RangeLayout.currencyLineHeight)
        // The chart alone (the HTML page's) leaves it to the page's own table.
        #expect(RangeLayout(report: report, withTable: false).height == RangeLayout(report: plain, withTable: false).height)
        let data = try RangePNGRenderer().render(report)
        let image = try #require(DecodedImage(data))
        #expect(Double(image.height) == layout.height)
        // Ink in the band the section takes at the bottom, and none there without it.
        let paper = image.pixel(x: 2, y: 2)
        var inked = 0
        for x in stride(from: RangeLayout.margin, to: 320, by: 1) {
            for y in stride(from: before.height - RangeLayout.margin + 4, to: layout.height - RangeLayout.margin + 4, by: 1) where image.pixel(x: x, y: y) != paper {
                inked += 1
            }
        }
        #expect(inked > 100)
        try data.write(to: FileManager.default.temporaryDirectory.appendingPathComponent("range-by-currency.png"))
    }
}
