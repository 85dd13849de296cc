import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct WhyOverTests {
    private func expense(_ id: Int64, _ name: String, _ cents: Int64, _ date: String, tags: [String] = [], quantity: Int64 = 1) throws -> Expense {
        Expense(id: id, name: name, amount: Money(cents: cents), quantity: quantity, date: try Day(parsing: date), budgetID: 1, tags: tags)
    }

    /// Eating out averaged 48.40 over August–October, then delivery took off in November.
    @Test func theTagsAndNamesThatGrewMostExplainTheBudget() throws {
        let earlier = [
            [try expense(1, "Pizza", 2_000, "2026-10-04", tags: ["delivery"]), try expense(2, "Lunch", 3_000, "2026-10-10")],
            [try expense(3, "Lunch", 4_520, "2026-09-12")],
            [try expense(4, "Café", 1_000, "2026-08-02", tags: ["coffee"]), try expense(5, "Lunch", 3_000, "2026-08-20")],
        ]
        let november = [
            try expense(6, "Pizza", 1_960, "2026-11-02", tags: ["delivery"]),
            try expense(7, "Sushi", 2_400, "2026-11-09", tags: ["delivery"]),
            try expense(8, "pizza", 1_960, "2026-11-16", tags: ["delivery"]),
            try expense(9, "Curry", 1_520, "2026-11-23", tags: ["delivery"]),
            try expense(10, "Lunch", 1_000, "2026-11-24", quantity: 2),
        ]
        let why = try WhyOver(covered: november, expenses: november, earlier: earlier)
        // 98.40 against (50.00 + 45.20 + 40.00) / 3 = 45.06: 53.34 / 45.06 is +118.38 %, +118.4 % to the nearest.
        #expect(why.change.base == Money(cents: 4_506) && why.change.amount == Money(cents: 5_334))
        #expect(why.change.percentString == "+118.4%")
        #expect(why.grown.map { $0.phrase() } == ["4 expenses tagged delivery, 78.40", "2 expenses named Pizza, 39.20", "1 expense named Sushi, 24.00"])
        let delivery = try #require(why.grown.first)
        // delivery averaged 20.00 / 3 = 6.66 before.
        #expect(delivery.change.base == Money(cents: 666) && delivery.change.amount == Money(cents: 7_174))
        // Lunch went from 37.40 on average to 20.00: it did not grow, so it is not listed.
        #expect(!why.grown.contains { $0.name == "Lunch" })
        #expect(why.largest.map(\.id) == [7, 10, 8])
    }

    @Test func aBudgetWithoutEarlierSpendingHasNoPercentage() throws {
        let november = [try expense(1, "Hotel", 82_000, "2026-11-05", tags: ["trip"])]
        let why = try WhyOver(covered: november, expenses: november, earlier: [[], [], []])
        #expect(why.change.basisPoints == nil && why.change.amount == Money(cents: 82_000))
        #expect(why.grown.map { $0.phrase() } == ["1 expense tagged trip, 820.00", "1 expense named Hotel, 820.00"])
        let quiet = try WhyOver(covered: november, expenses: [], earlier: [[], [], []])
        #expect(quiet.grown.isEmpty && quiet.largest.map(\.id) == [1])
    }

    /// A store's groups of several periods merge into one per budget, name key and tag set,
    /// with the smallest spelling, as grouping the periods' expenses at once gives.
    @Test func groupsOfSeveralPeriodsMergeAsTheirExpensesGroup() throws {
        let october = [try expense(1, "pizza", 1_000, "2026-10-04", tags: ["delivery"]), try expense(2, "Lunch", 3_000, "2026-10-10")]
        let november = [
            try expense(3, "Pizza", 1_960, "2026-11-02", tags: ["delivery"]), try expense(4, "PIZZA", 500, "2026-11-03"),
            try expense(5, "Lunch", 1_000, "2026-11-24", quantity: 2),
        ]
        let merged = try SpendingGroup.merged(try SpendingGroup.grouping(october) + SpendingGroup.grouping(november))
        let atOnce = try SpendingGroup.grouping(october + november)
        #expect(Set(merged) == Set(atOnce) && merged.count == 3)
        let pizza = try #require(merged.first { $0.tags == ["delivery"] })
        #expect(pizza.name == "Pizza" && pizza.spent == Money(cents: 2_960) && pizza.count == 2)
        // Periods from the 25th: October 2026 runs from 25 October to 24 November.
        let calendar = try PeriodCalendar(monthStart: 25)
        let days = calendar.days(of: try Month(parsing: "2026-09")...Month(parsing: "2026-10"))
        let (first, last) = (try Day(parsing: "2026-09-25"), try Day(parsing: "2026-11-24"))
        #expect(days.first == first && days.last == last)
    }

    @Test func onlyBudgetsOverOrPastTheWarningLevelExplainThemselves() throws {
        let budget = Budget(id: 1, name: "Food", limit: Money(cents: 10_000))
        let days = Month.current(now: Date(timeIntervalSince1970: 1_790_000_000), in: TimeZone(identifier: "UTC") ?? .current).days
        func status(_ cents: Int64) throws -> BudgetStatus {
            try BudgetStatus(budget: budget, month: days.first.monthValue, days: days, limit: budget.limit, carried: .zero,
                             available: budget.limit, spent: Money(cents: cents), expenseCount: 1)
        }
        #expect(!WhyOver.applies(to: try status(7_999)))
        #expect(WhyOver.applies(to: try status(8_000)))
        #expect(WhyOver.applies(to: try status(10_001)))
    }
}
