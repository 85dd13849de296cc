import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// A split receipt across two budgets and a refund in the month report's PNG and HTML: each line
/// counts in its own budget, the refund below zero, and the largest expenses show the receipt
/// once, whole, its split marked.
struct SplitRenderingTests {
    /// Groceries (200) holds Market 20.00 and Costco's 60% line, 72.00: 92.00. Household (30)
    /// holds Costco's rest, 48.00, less an 8.00 refund: 40.00, over.
    static func store() throws -> InMemoryStore {
        let clock = Fixtures.clock
        let store = InMemoryStore(clock: clock)
        let groceries = try store.addBudget(Budget(name: "Groceries", limit: Fixtures.money("200"), createdAt: clock()))
        let household = try store.addBudget(Budget(name: "Household", limit: Fixtures.money("30"), createdAt: clock()))
        _ = try store.addExpense(
            Expense(name: "Market", amount: Fixtures.money("20"), date: Day(parsing: "2026-11-05"), budgetID: groceries.id ?? 0, createdAt: clock()))
        var costco = try Expense(name: "Costco", amount: Fixtures.money("120"), date: Day(parsing: "2026-11-10"), budgetID: groceries.id ?? 0, createdAt: clock())
        costco.lines = [ExpenseLine(budgetID: groceries.id ?? 0, share: .percent(6000)), ExpenseLine(budgetID: household.id ?? 0, share: .rest)]
        _ = try store.addExpense(costco)
        var refund = try Expense(
            name: "Returned kettle", amount: Fixtures.money("8"), date: Day(parsing: "2026-11-12"), budgetID: household.id ?? 0, createdAt: clock())
        refund.isRefund = true
        _ = try store.addExpense(refund)
        return store
    }

    static func report() throws -> MonthlyReport {
        try Fixtures.report(store(), today: Day(parsing: "2026-11-30"))
    }

    @Test func theReportCountsEachLineInItsBudgetAndTheReceiptOnceInTheTopList() throws {
        let report = try Self.report()
        #expect(report.budgets.map(\.name) == ["Groceries", "Household"])
        #expect(report.budgets.map(\.spent) == [try Fixtures.money("92"), try Fixtures.money("40")])
        #expect(report.top.map(\.name) == ["Costco", "Market"])
        #expect(report.top.first?.budgetName == "split: Groceries, Household")
        #expect(report.top.first?.total == (try Fixtures.money("120")))
        let household = try #require(report.budgets.last?.whyOver)
        #expect(household.largest.map(\.name) == ["Costco"], "the refund is no expense")
    }

    @Test func thePNGDrawsEachBudgetsLinesAndMarksTheSplitInItsLargest() throws {
        let report = try Self.report()
        let data = try PNGRenderer().render(report)
        Previews.save(data, as: "split.png")
        let image = try #require(DecodedImage(data))
        let layout = DashboardLayout(report: report)
        #expect(image.height == Int(layout.height))
        #expect(report.budgets.map { DashboardLayout.amountText($0) } == ["92.00 / 200.00", "40.00 / 30.00"])
        let groceries = layout.rows[0]
        #expect(abs(groceries.fill.width / groceries.track.width - 0.46) < 0.0001)
        let over = UInt32(bitPattern: Palette.over.gdValue)
        #expect(image.pixel(x: groceries.fill.midX, y: groceries.fill.midY) != over)
        #expect(image.pixel(x: layout.rows[1].fill.midX, y: layout.rows[1].fill.midY) == over)
        let largest = layout.whyOverLines.filter { $0.text.hasPrefix("Largest: ") }.map(\.text)
        #expect(largest == ["Largest: Costco 120.00 (2026-11-10, split)"])
    }

    @Test func theHTMLListsTheReceiptOnceMarkedSplit() throws {
        let html = try HTMLRenderer().render(Self.report())
        #expect(html.components(separatedBy: "split: Groceries, Household").count == 2, "once in the largest expenses")
        #expect(html.contains("Largest: Costco 120.00 (2026-11-10, split)"))
        #expect(!html.contains("Returned kettle"), "a refund is in no largest list")
    }
}

/// The same page in headless Chromium: what a reader sees.
@Suite(.enabled(if: Browser.path != nil || ProcessInfo.processInfo.environment["CI"] != nil))
struct SplitBrowserTests {
    @Test func thePageShowsEachBudgetsLinesAndTheSplitReceiptOnce() throws {
        let browser = try #require(Browser.path, "chromium is not installed; install Debian's chromium package")
        let directory = try TemporaryDirectory()
        let page = directory.path("split.html")
        try Data(HTMLRenderer().render(SplitRenderingTests.report()).utf8).write(to: URL(fileURLWithPath: page))
        let url = URL(fileURLWithPath: page).absoluteString
        let dom = try Browser.run(browser, ["--dump-dom", url], profile: directory.path("profile-dom"))
        #expect(dom.status == 0)
        for figure in ["92.00", "40.00", "200.00", "30.00"] { #expect(dom.output.contains(figure), "\(figure)") }
        #expect(dom.output.components(separatedBy: "split: Groceries, Household").count == 2)
        #expect(dom.output.contains("(2026-11-10, split)"))
        let screenshot = directory.path("split-screenshot.png")
        let shot = try Browser.run(browser, ["--screenshot=\(screenshot)", "--window-size=1000,1400", url], profile: directory.path("profile-shot"))
        #expect(shot.status == 0)
        let data = try #require(FileManager.default.contents(atPath: screenshot))
        Previews.save(data, as: "split-screenshot.png")
        #expect(DecodedImage(data)?.width == 1000)
    }
}
