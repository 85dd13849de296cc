import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// Hand-computed figures of `Fixtures.store()` over September–November 2026.
struct RangeReportBuilderTests {
    static let range = (try? PeriodRange(from: Month(unsafe: "2026-09"), to: Month(unsafe: "2026-11")))!

    static func report(_ options: RangeReportBuilder.Options = .init(), store: InMemoryStore? = nil) throws -> RangeReport {
        try RangeReportBuilder(store: store ?? Fixtures.store()).report(for: range, options: options)
    }

    private func row(_ report: RangeReport, _ name: String) throws -> RangeReport.Row {
        try #require(report.rows.first { $0.name == name })
    }

    @Test func eachBudgetHasAColumnPerPeriodThenItsTotalAndAverage() throws {
        let report = try Self.report()
        #expect(report.periods.map(\.month.isoString) == ["2026-09", "2026-10", "2026-11"])
        #expect(report.rows.map(\.name) == ["Eating out", "Groceries", "Rent"])
        let eatingOut = try row(report, "Eating out")
        #expect(eatingOut.cells.map(\.spent.plainString) == ["61.00", "0.00", "165.75"])
        #expect(eatingOut.cells.map { $0.available?.plainString } == ["150.00", "150.00", "150.00"])
        #expect(eatingOut.cells.map { $0.share?.basisPoints } == [4_066, 0, 11_050])
        #expect(eatingOut.total.plainString == "226.75" && eatingOut.average.plainString == "75.58")
        #expect(eatingOut.level(at: 2) == .over)
        let groceries = try row(report, "Groceries")
        #expect(groceries.cells.map(\.spent.plainString) == ["0.00", "310.45", "329.90"])
        #expect(report.total.cells.map(\.spent.plainString) == ["61.00", "1510.45", "1695.65"])
        #expect(report.total.cells.map { $0.available?.plainString } == ["1750.00", "1750.00", "1750.00"])
        #expect(report.total.total.plainString == "3267.10" && report.total.average.plainString == "1089.03")
        #expect(report.total.available?.plainString == "5250.00")
        #expect(report.comparison == nil && report.total.change == nil)
    }

    @Test func availableIncludesWhatEarlierPeriodsCarriedIn() throws {
        let range = try PeriodRange(from: Month(unsafe: "2026-10"), to: Month(unsafe: "2026-11"))
        let store = try Fixtures.periodStore()
        let report = try RangeReportBuilder(store: store).report(for: range)
        #expect(report.periods.map { PeriodText.range($0.days) } == ["25 Oct – 24 Nov 2026", "25 Nov – 24 Dec 2026"])
        let groceries = try #require(report.rows.first { $0.name == "Groceries" })
        // Spent 350 of 400 in 2026-10 and carries 50 in; the cap leaves 420.
        #expect(groceries.cells.map(\.spent.plainString) == ["350.00", "180.00"])
        #expect(groceries.cells.map { $0.available?.plainString } == ["400.00", "420.00"])
        let eatingOut = try #require(report.rows.first { $0.name == "Eating out" })
        #expect(eatingOut.cells.map { $0.available?.plainString } == ["150.00", "120.00"])
        // Each period's available is what the month report shows for it.
        for (index, period) in report.periods.enumerated() {
            for status in try store.budgetStatuses(for: period.month) {
                let line = try #require(report.rows.first { $0.name == status.budget.name })
                #expect(line.cells[index].available == status.available, "\(status.budget.name) \(period.month)")
            }
        }
    }

    @Test func comparisonsGiveTheChangeAndNoPercentageFromAZeroBase() throws {
        let report = try Self.report(.init(baseline: .previous))
        #expect(report.comparison == RangeReport.Comparison(baseline: .previous, range: try PeriodRange(from: Month(unsafe: "2026-06"), to: Month(unsafe: "2026-08"))))
        let rent = try row(report, "Rent")
        #expect(rent.change?.base.plainString == "1150.00" && rent.change?.amount.plainString == "1250.00")
        #expect(rent.change?.basisPoints == 10_870 && rent.change?.percentString == "+108.7%")
        let groceries = try row(report, "Groceries")
        #expect(groceries.change?.base == .zero && groceries.change?.amount.plainString == "640.35")
        #expect(groceries.change?.basisPoints == nil)
        #expect(report.total.change?.base.plainString == "1150.00" && report.total.change?.amount.plainString == "2117.10")

        let lastYear = try Self.report(.init(baseline: .lastYear))
        #expect(lastYear.comparison?.range == (try PeriodRange(from: Month(unsafe: "2025-09"), to: Month(unsafe: "2025-11"))))
        #expect(lastYear.rows.allSatisfy { $0.change?.base == .zero && $0.change?.basisPoints == nil })
    }

    @Test func tagsAsRowsCountAnExpenseInEachTagAndOnceInTheTotal() throws {
        let report = try Self.report(.init(kind: .tag))
        #expect(report.kind == .tag)
        #expect(report.rows.map(\.name) == ["home", "food", "friends", "local"])
        let november = 2
        let figures = Dictionary(uniqueKeysWithValues: report.rows.map { ($0.name, $0.cells[november].spent.plainString) })
        #expect(figures == ["home": "1200.00", "food": "384.15", "friends": "132.75", "local": "47.00"])
        // Pizza night is food and friends; Coffee beans has no tag.
        #expect(report.total.cells[november].spent.plainString == "1678.15")
        let rowsAdded = try Money.sum(report.rows.map { $0.cells[november].spent })
        #expect(rowsAdded.plainString == "1763.90")
        #expect(report.rows.allSatisfy { $0.available == nil && $0.cells.allSatisfy { $0.share == nil } })
    }

    @Test func budgetsAndATagNarrowTheReport() throws {
        let onlyGroceries = try Self.report(.init(budgets: ["groceries", "GROCERIES"]))
        #expect(onlyGroceries.rows.map(\.name) == ["Groceries"])
        #expect(onlyGroceries.total.total.plainString == "640.35")

        let food = try Self.report(.init(tag: " Food "))
        #expect(food.tag == "food")
        let groceries = try row(food, "Groceries")
        #expect(groceries.cells.map(\.spent.plainString) == ["0.00", "310.45", "312.40"])
        #expect(try row(food, "Rent").total == .zero)
        #expect(try row(food, "Eating out").cells.map(\.spent.plainString) == ["0.00", "0.00", "71.75"])

        let foodTag = try Self.report(.init(kind: .tag, budgets: ["Eating out"], tag: "food"))
        #expect(foodTag.rows.map(\.name) == ["food"])
        #expect(foodTag.total.total.plainString == "71.75")

        #expect(throws: TallyError.budgetNotFound("Travel")) { try Self.report(.init(budgets: ["Travel"])) }
    }
}
