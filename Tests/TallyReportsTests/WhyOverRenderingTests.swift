import Foundation
import TallyCore
import Testing
@testable import TallyReports

/// Every format of the month report carries each flagged budget's explanation.
struct WhyOverRenderingTests {
    @Test func theBuilderExplainsOnlyBudgetsOverOrNearTheirLimit() throws {
        let report = try Fixtures.report(Fixtures.store())
        #expect(report.budgets.map { $0.whyOver != nil } == report.budgets.map { $0.level != .ok })
        let eatingOut = try #require(report.budgets.first { $0.name == "Eating out" }?.whyOver)
        // Only Tapas (61.00, September) in the three periods before: 20.33 on average.
        #expect(eatingOut.change.base.plainString == "20.33")
        #expect(eatingOut.largest.map(\.name) == ["Birthday dinner", "Pizza night", "Ramen"])
    }

    @Test func thePictureAndThePageSayWhy() throws {
        let report = try Fixtures.report(Fixtures.store())
        let sentences = report.budgets.compactMap { line in line.whyOver.map { WhyOverText.sentence(line.name, $0) } }
        #expect(sentences.count == 3)

        let layout = DashboardLayout(report: report)
        let title = try #require(layout.whyOverTitleY)
        #expect(title > layout.trendChart.maxY)
        #expect(layout.whyOverLines.filter { $0.level != nil }.count == 3)
        // Under each budget, the groups that grew, each with its own change.
        let grew = report.budgets.compactMap(\.whyOver).filter { !$0.grown.isEmpty }
        #expect(layout.whyOverLines.filter { $0.text.hasPrefix("Grew: ") }.count == grew.count && !grew.isEmpty)
        #expect(layout.whyOverLines.contains { $0.text.hasPrefix("Grew: " + WhyOverText.growth(grew[0].grown[0])) })
        #expect(Double(layout.height) > (layout.whyOverLines.last?.baseline ?? 0))
        // Every line fits inside the margins, in the weight it is drawn in.
        for line in layout.whyOverLines {
            let width = Typesetter.layout.width(of: line.text, size: line.level == nil ? 11.5 : DashboardLayout.amountSize, weight: line.level == nil ? .regular : .bold)
            #expect(width <= DashboardLayout.width - 2 * DashboardLayout.margin, "\(line.text)")
        }
        let image = try #require(DecodedImage(PNGRenderer().render(report)))
        #expect(image.height == Int(layout.height))
        // The over budget's sentence is drawn in the over colour.
        let over = try #require(layout.whyOverLines.first { $0.level == .over })
        var red = 0
        for x in stride(from: DashboardLayout.margin, to: 500, by: 1) {
            for y in stride(from: over.baseline - 12, to: over.baseline + 2, by: 1) where image.pixel(x: x, y: y) == 0xD64545 { red += 1 }
        }
        #expect(red > 20)

        let page = try HTMLRenderer().render(report)
        #expect(page.contains("Why over"))
        for sentence in sentences {
            let escaped = sentence.replacingOccurrences(of: "&", with: "&amp;")
            #expect(page.contains(escaped), "\(sentence)")
        }
    }
}
