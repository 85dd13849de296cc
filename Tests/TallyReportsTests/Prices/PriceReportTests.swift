import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

struct PriceReportTests {
    /// Milk bought in September, November and December 2026 (none in October), at changing prices.
    static func store() throws -> InMemoryStore {
        let store = InMemoryStore(clock: Fixtures.clock)
        let food = try store.addBudget(Budget(name: "Food", limit: Money(cents: 40_000), createdAt: Fixtures.clock()))
        let purchases: [(String, Int64, Int64, String)] = [
            ("Milk", 119, 6, "2026-09-03"), ("Oat milk", 199, 1, "2026-09-20"),
            ("MILK", 129, 4, "2026-11-05"), ("Milk", 135, 2, "2026-11-28"),
            ("Milk chocolate", 250, 1, "2026-12-01"), ("Bread", 300, 1, "2026-11-05"),
        ]
        for (name, cents, quantity, date) in purchases {
            _ = try store.addExpense(Expense(name: name, amount: Money(cents: cents), quantity: quantity, date: Day(parsing: date),
                                             budgetID: food.id ?? 0, createdAt: Fixtures.clock()))
        }
        return store
    }

    static func report() throws -> PriceReport {
        try PriceReportBuilder(store: store()).report(matching: "milk", in: PeriodRange(from: Month(unsafe: "2026-09"), to: Month(unsafe: "2026-11")))
    }

    @Test func eachPeriodWithPurchasesComparesWithTheFirst() throws {
        let report = try Self.report()
        #expect(report.lines.map(\.month.isoString) == ["2026-09", "2026-11"])
        let september = report.lines[0]
        // (6 × 1.19 + 1.99) / 7 = 9.13 / 7 = 1.30428… → 1.30.
        #expect(september.figures.average == Money(cents: 130))
        #expect(september.figures.lowest == Money(cents: 119) && september.figures.highest == Money(cents: 199))
        #expect(september.change.amount == .zero)
        let november = report.lines[1]
        // (4 × 1.29 + 2 × 1.35) / 6 = 7.86 / 6 = 1.31.
        #expect(november.figures.average == Money(cents: 131) && november.figures.quantity == 6)
        #expect(november.change.amount == Money(cents: 1) && november.change.percentString == "+0.8%")
        #expect(report.overall?.expenseCount == 4 && report.overall?.quantity == 13)
    }

    @Test func textMatchesGoldenAndJSONHasEveryFigure() throws {
        let report = try Self.report()
        try Golden.check(PriceRenderers.text(report), against: "prices.txt")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(PriceRenderers.json(report).utf8)) as? [String: Any])
        #expect(json["search"] as? String == "milk" && json["from"] as? String == "2026-09" && json["to"] as? String == "2026-11")
        let periods = try #require(json["periods"] as? [[String: Any]])
        #expect(periods.map { $0["average"] as? String } == ["1.30", "1.31"])
        #expect(periods.last?["changeShare"] as? String == "0.0077" && periods.last?["lowest"] as? String == "1.29")
        let nothing = try PriceReportBuilder(store: Self.store()).report(matching: "coffee", in: PeriodRange(year: 2026))
        #expect(nothing.lines.isEmpty && nothing.overall == nil)
        #expect(PriceRenderers.text(nothing).contains("No expense named like 'coffee'"))
    }
}
