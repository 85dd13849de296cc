import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

struct RangeRendererTests {
    private func report(_ options: RangeReportBuilder.Options = .init()) throws -> RangeReport {
        try RangeReportBuilderTests.report(options)
    }

    /// 30 budgets spending over 24 periods, one of them over its limit now and then.
    static func wideReport() throws -> RangeReport {
        let store = InMemoryStore(clock: Fixtures.clock)
        for index in 0..<30 {
            let name = index % 7 == 0 ? "Budget \(index) with a long name that will not fit" : "Budget \(index)"
            let budget = try store.addBudget(Budget(name: name, limit: Money(cents: Int64(5_000 + index * 1_000)), createdAt: Fixtures.clock()))
            var expenses: [Expense] = []
            for offset in 0..<24 {
                let month = Month(unsafe: "2025-01").adding(months: offset)
                expenses.append(
                    Expense(name: "Item", amount: Money(cents: Int64(1_000 + (index * 37 + offset * 53) % 6_000)),
                            date: month.firstDay, budgetID: budget.id ?? 0, tags: ["t\(index % 5)"], createdAt: Fixtures.clock()))
            }
            _ = try store.addExpenses(expenses)
        }
        let range = try PeriodRange(from: Month(unsafe: "2025-01"), to: Month(unsafe: "2026-12"))
        return try RangeReportBuilder(store: store).report(for: range)
    }

    @Test func textMatchesGolden() throws {
        try Golden.check(RangeTextRenderer().render(report()), against: "range.txt")
        try Golden.check(RangeTextRenderer().render(report(.init(kind: .tag, baseline: .previous))), against: "range-tags.txt")
    }

    @Test func aLedgerWithAccountsShowsMoneyInPerPeriod() throws {
        let range = try PeriodRange(from: Month(unsafe: "2026-10"), to: Month(unsafe: "2026-12"))
        let report = try RangeReportBuilder(store: Fixtures.accountsStore()).report(for: range)
        try Golden.check(RangeTextRenderer().render(report), against: "range-accounts.txt")
        try Golden.check(RangeCSVRenderer().render(report), against: "range-accounts.csv")
        try Golden.check(RangeJSONRenderer().render(report), against: "range-accounts.json")
        // Without accounts: no money-in table or CSV rows, but JSON keeps its keys.
        #expect(!RangeTextRenderer().render(try self.report()).contains("Money in"))
        #expect(!RangeCSVRenderer().render(try self.report()).contains(",money,"))
        let text = try RangeJSONRenderer().render(self.report())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let period = try #require((document["periods"] as? [[String: Any]])?.first)
        #expect(period["income"] as? String == "0.00" && period["spending"] as? String == "61.00")
        #expect(period["savingsRate"] is NSNull && period["netWorth"] is NSNull)
    }

    @Test func csvMatchesGoldenAndQuotesNames() throws {
        try Golden.check(RangeCSVRenderer().render(report(.init(baseline: .previous))), against: "range.csv")
        #expect(RangeCSVRenderer.field("Food, drinks") == "\"Food, drinks\"")
        #expect(RangeCSVRenderer.field("The \"good\" one") == "\"The \"\"good\"\" one\"")
        #expect(RangeCSVRenderer.field("Plain") == "Plain")
    }

    @Test func jsonHasTheIssuesShape() throws {
        let text = try RangeJSONRenderer().render(report(.init(baseline: .previous)))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["from"] as? String == "2026-09" && document["to"] as? String == "2026-11")
        let periods = try #require(document["periods"] as? [[String: Any]])
        #expect(periods.first?["period"] as? String == "2026-09")
        #expect(periods.first?["from"] as? String == "2026-09-01" && periods.first?["to"] as? String == "2026-09-30")
        let rows = try #require(document["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Eating out", "Groceries", "Rent"])
        let eatingOut = rows[0]
        #expect(eatingOut["total"] as? String == "226.75" && eatingOut["average"] as? String == "75.58")
        let cells = try #require(eatingOut["periods"] as? [[String: Any]])
        #expect(Set(cells[2].keys) == ["period", "spent", "available", "share"])
        #expect(cells[2]["spent"] as? String == "165.75" && cells[2]["available"] as? String == "150.00" && cells[2]["share"] as? String == "1.1050")
        let groceries = rows[1]
        #expect(groceries["base"] as? String == "0.00" && groceries["changeShare"] is NSNull)
        let total = try #require(document["total"] as? [String: Any])
        #expect(Set(total.keys) == ["name", "periods", "total", "average", "base", "change", "changeShare"])
        #expect(total["total"] as? String == "3267.10" && total["change"] as? String == "2117.10")

        let tags = try JSONSerialization.jsonObject(with: Data(RangeJSONRenderer().render(report(.init(kind: .tag))).utf8)) as? [String: Any]
        let tagCells = (tags?["rows"] as? [[String: Any]])?.first?["periods"] as? [[String: Any]]
        #expect(tagCells?.first?["available"] is NSNull && tagCells?.first?["share"] is NSNull)
        #expect(tags?["note"] as? String == RangeText.tagTotalNote && tags?["by"] as? String == "tag")
    }

    @Test func theChartStacksEachPeriodAndTheTableFollows() throws {
        let report = try report()
        let data = try RangePNGRenderer().render(report)
        Previews.save(data, as: "range.png")
        let image = try #require(DecodedImage(data))
        let layout = RangeLayout(report: report, withTable: true)
        #expect(image.width == Int(layout.width) && image.height == Int(layout.height))
        #expect(layout.tableTop > layout.chart.maxY)
        // Every row's colour appears in the chart's band.
        var colours = Set<UInt32>()
        for y in stride(from: layout.chart.y, to: layout.chart.maxY, by: 1) {
            for x in stride(from: layout.chart.x, to: layout.chart.maxX, by: 2) { colours.insert(image.pixel(x: x, y: y)) }
        }
        for index in report.rows.indices {
            #expect(colours.contains(UInt32(bitPattern: RangeLayout.color(ofRow: index).gdValue)), "row \(index)")
        }
        let scaled = try #require(DecodedImage(RangePNGRenderer(scale: 2).render(report)))
        #expect(scaled.width == image.width * 2 && scaled.height == image.height * 2)
    }

    /// October–December 2026 of `Fixtures.accountsStore()`: net worth 6,100, 9,100, −400.
    static func accountsReport() throws -> RangeReport {
        let range = try PeriodRange(from: Month(unsafe: "2026-10"), to: Month(unsafe: "2026-12"))
        return try RangeReportBuilder(store: Fixtures.accountsStore()).report(for: range)
    }

    @Test func theChartDrawsNetWorthAndSavingsRateOnceThereAreAccounts() throws {
        #expect(RangeLayout(report: try report(), withTable: true).moneyChart == nil)
        let report = try Self.accountsReport()
        let data = try RangePNGRenderer().render(report)
        Previews.save(data, as: "range-accounts.png")
        let image = try #require(DecodedImage(data))
        let layout = RangeLayout(report: report, withTable: true)
        let panel = try #require(layout.moneyChart)
        #expect(panel.y > layout.legendTop && layout.tableTop > panel.maxY)
        #expect(image.height == Int(layout.height))
        var colours: [UInt32: Int] = [:]
        for y in stride(from: panel.y, to: panel.maxY, by: 1) {
            for x in stride(from: panel.x, to: panel.maxX, by: 1) { colours[image.pixel(x: x, y: y), default: 0] += 1 }
        }
        // Net worth's line and points; the rate's bar above zero (November) and below (October, December).
        #expect(colours[UInt32(bitPattern: MoneyInChart.netWorthColor.gdValue)] ?? 0 > 20)
        #expect(colours[UInt32(bitPattern: MoneyInChart.rateColor.gdValue)] ?? 0 > 20)
        #expect(colours[UInt32(bitPattern: Palette.over.gdValue)] ?? 0 > 20)
        // The HTML page embeds the same panels in its chart and lists the figures in a table.
        let chart = RangeLayout(report: report, withTable: false)
        #expect(chart.moneyChart.map { chart.height >= $0.maxY } == true)
        let html = try RangeHTMLRenderer().render(report)
        for text in ["Money in", "Net worth", "Savings rate", "-1,410.45", "47.0%", "-140.0%", "9,100.00", "-400.00"] {
            #expect(html.contains(text), "\(text)")
        }
        #expect(!(try RangeHTMLRenderer().render(self.report())).contains("Money in"))
    }

    @Test func twentyFourPeriodsAndThirtyBudgetsStayReadable() throws {
        let report = try Self.wideReport()
        #expect(report.periods.count == 24 && report.rows.count == 30)
        let data = try RangePNGRenderer().render(report)
        Previews.save(data, as: "range-wide.png")
        let image = try #require(DecodedImage(data))
        let layout = RangeLayout(report: report, withTable: true)
        // Each period keeps a column wide enough for 1,234.56 at 11 points, and the table all its rows.
        #expect(Double(image.width) >= RangeLayout.nameWidth + 26 * RangeLayout.columnWidth)
        #expect(layout.height >= layout.tableTop + 31 * RangeLayout.rowHeight)
        #expect(image.height == Int(layout.height))
        let html = try RangeHTMLRenderer().render(report)
        for row in report.rows { #expect(html.contains(row.name)) }
    }

    @Test func htmlIsSelfContainedAndEscapesNames() throws {
        let store = try Fixtures.store()
        _ = try store.addBudget(Budget(name: "<script>alert(1)</script>", limit: Money(cents: 100), createdAt: Fixtures.clock()))
        let report = try RangeReportBuilder(store: store).report(for: RangeReportBuilderTests.range, options: .init(baseline: .lastYear))
        let page = try RangeHTMLRenderer().render(report)
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;script&gt;"))
        #expect(page.contains("data:image/png;base64,"))
        #expect(!page.contains("http://") && !page.contains("https://"))
        #expect(page.contains("1,695.65") && page.contains("Eating out"))
        #expect(page.contains("Base: the same periods a year earlier, 2025-09 to 2025-11."))
    }
}
