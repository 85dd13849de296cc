import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// The month report shows each budget's goal in every format, from the one `GoalFigures`.
@Suite struct GoalRenderingTests {
    /// November 2026: Holiday saves 100.00 a month from July toward 1,200.00 by June 2027
    /// (400.00 carried in, on track); Car sets 150.00 aside every month on 100.00 (behind 50.00);
    /// Food has no target.
    static func store() throws -> InMemoryStore {
        let store = InMemoryStore(clock: Fixtures.clock)
        _ = try store.addBudget(Budget(
            name: "Holiday", limit: Fixtures.money("100"), rollover: .surplus, start: Month(unsafe: "2026-07"),
            target: BudgetTarget(amount: Fixtures.money("1200"), by: Month(unsafe: "2027-06")), createdAt: Fixtures.clock()))
        _ = try store.addBudget(Budget(
            name: "Car", limit: Fixtures.money("100"), target: BudgetTarget(amount: Fixtures.money("150")), createdAt: Fixtures.clock()))
        let food = try store.addBudget(Budget(name: "Food", limit: Fixtures.money("300"), createdAt: Fixtures.clock()))
        _ = try store.addExpense(
            Expense(name: "Market", amount: Fixtures.money("20"), date: Day(parsing: "2026-11-03"), budgetID: food.id ?? 0, createdAt: Fixtures.clock()))
        return store
    }

    @Test func textHasAGoalsSection() throws {
        let text = TextRenderer().render(try Fixtures.report(Self.store()))
        #expect(text.contains("""
            Goals
            Car: goal 150.00 every month: funded 100.00, needs 150.00 this period, behind 50.00
            Holiday: goal 1,200.00 by 2027-06: funded 500.00, needs 100.00 this period, on-track
            """))
        #expect(!TextRenderer().render(try Fixtures.report(Fixtures.store())).contains("Goals"))
    }

    @Test func jsonPutsAGoalOnEachBudgetWithATarget() throws {
        let json = JSONRenderer().render(try Fixtures.report(Self.store()))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let budgets = try #require(object["budgets"] as? [[String: Any]])
        let goals = Dictionary(uniqueKeysWithValues: budgets.map { ($0["name"] as? String ?? "", $0["goal"] as? [String: Any]) })
        #expect(goals.keys.contains("Food") && (goals["Food"] ?? nil) == nil)
        let holiday = try #require(goals["Holiday"] ?? nil)
        #expect(holiday["targetBy"] as? String == "2027-06" && holiday["every"] is NSNull)
        #expect(holiday["funded"] as? String == "500.00" && holiday["needed"] as? String == "100.00")
        #expect(holiday["status"] as? String == "on-track" && holiday["periodsLeft"] as? Int == 8)
        let car = try #require(goals["Car"] ?? nil)
        #expect(car["every"] as? String == "month" && car["shortfall"] as? String == "50.00" && car["status"] as? String == "behind")
    }

    @Test func htmlListsTheGoals() throws {
        let html = try HTMLRenderer().render(try Fixtures.report(Self.store()))
        #expect(html.contains("<h3 class=\"goals-title\">Goals</h3>"))
        #expect(html.contains("<li class=\"goal behind\"><span class=\"what\"><span class=\"name\">Car</span><span class=\"sub\">150.00 every month · funded 100.00</span></span><span class=\"amount\">needs 150.00 <span class=\"goal-status\">behind 50.00</span></span></li>"))
        #expect(html.contains("1,200.00 by 2027-06 · funded 500.00"))
        #expect(!(try HTMLRenderer().render(try Fixtures.report(Fixtures.store()))).contains("<h3 class=\"goals-title\">"))
    }

    @Test func pngLaysOutAGoalLineEach() throws {
        let report = try Fixtures.report(Self.store())
        let layout = DashboardLayout(report: report)
        let titleY = try #require(layout.goalsTitleY)
        #expect(layout.goalLines.map(\.progress) == [.behind, .onTrack])
        #expect(layout.goalLines.allSatisfy { $0.baseline > titleY && $0.baseline < layout.height })
        #expect(layout.goalLines[0].text.hasPrefix("Car: goal 150.00 every month"))
        #expect(DashboardLayout(report: try Fixtures.report(Fixtures.store())).goalsTitleY == nil)
        let png = try PNGRenderer().render(report)
        let image = try #require(DecodedImage(png))
        #expect(Double(image.height) == layout.height)
    }
}

/// The goals list fits a phone's width: nothing in it makes the page scroll sideways.
@Suite(.enabled(if: Browser.path != nil || ProcessInfo.processInfo.environment["CI"] != nil))
struct GoalBrowserTests {
    @Test(arguments: [390, 800])
    func goalsFitThePage(width: Int) throws {
        let browser = try #require(Browser.path, "chromium is not installed; install Debian's chromium package")
        let directory = try TemporaryDirectory()
        let probe = """
            <script>
            const items = [...document.querySelectorAll('.goals li')];
            const wide = items.filter(li => li.scrollWidth > li.clientWidth + 1).length;
            const page = document.documentElement.scrollWidth > window.innerWidth + 1;
            document.body.setAttribute('data-goals', items.length + ' ' + wide + ' ' + page);
            </script>
            """
        let html = try HTMLRenderer().render(Fixtures.report(GoalRenderingTests.store())).replacingOccurrences(of: "</body>", with: probe + "</body>")
        let page = directory.path("goals.html")
        try Data(html.utf8).write(to: URL(fileURLWithPath: page))
        let dom = try Browser.run(
            browser, ["--dump-dom", "--window-size=\(width),900", URL(fileURLWithPath: page).absoluteString], profile: directory.path("profile"))
        #expect(dom.status == 0)
        #expect(dom.output.contains("data-goals=\"2 0 false\""), "\(dom.output.components(separatedBy: "data-goals=").dropFirst().first?.prefix(40) ?? "no probe ran")")
    }
}
