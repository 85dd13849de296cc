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
}
