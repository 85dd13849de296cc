import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct UnitPriceTests {
    private func figures(_ purchases: [(cents: Int64, quantity: Int64)]) throws -> UnitPriceFigures {
        var sum: UnitPriceFigures?
        for (index, purchase) in purchases.enumerated() {
            let expense = Expense(id: Int64(index), name: "Milk", amount: Money(cents: purchase.cents), quantity: purchase.quantity,
                                  date: try Day(parsing: "2026-11-01"), budgetID: 1)
            let one = try UnitPriceFigures(expense)
            sum = try sum.map { try $0.adding(one) } ?? one
        }
        return try #require(sum)
    }

    @Test func theAverageIsWeightedByQuantityAndRoundedHalfUpToTheCent() throws {
        // 3 at 1.00 and 1 at 1.01: 4.01 / 4 = 1.0025 → 1.00.
        #expect(try figures([(100, 3), (101, 1)]).average == Money(cents: 100))
        // 3 at 1.00 and 1 at 1.02: 4.02 / 4 = 1.005 → 1.01 (half up).
        #expect(try figures([(100, 3), (102, 1)]).average == Money(cents: 101))
        // 2 at 1.00 and 1 at 1.01: 3.01 / 3 = 1.00333 → 1.00; 1 at 1.00 and 2 at 1.01: 3.02 / 3 → 1.01.
        #expect(try figures([(100, 2), (101, 1)]).average == Money(cents: 100))
        #expect(try figures([(100, 1), (101, 2)]).average == Money(cents: 101))
        let milk = try figures([(119, 6), (99, 2), (149, 1)])
        #expect(milk.quantity == 9 && milk.total == Money(cents: 1_061) && milk.expenseCount == 3)
        #expect(milk.lowest == Money(cents: 99) && milk.highest == Money(cents: 149))
        // 10.61 / 9 = 1.17888… → 1.18.
        #expect(milk.average == Money(cents: 118))
    }

    @Test func namesMatchIgnoringCaseAndAccentsWithinTheDays() throws {
        let days = DayInterval(first: try Day(parsing: "2026-11-01"), last: try Day(parsing: "2026-11-30"))
        let expenses = [
            Expense(name: "Café au lait", amount: Money(cents: 350), quantity: 2, date: try Day(parsing: "2026-11-02"), budgetID: 1),
            Expense(name: "CAFE beans", amount: Money(cents: 1_200), date: try Day(parsing: "2026-11-02"), budgetID: 2),
            Expense(name: "Tea", amount: Money(cents: 300), date: try Day(parsing: "2026-11-02"), budgetID: 1),
            Expense(name: "cafe", amount: Money(cents: 280), date: try Day(parsing: "2026-12-01"), budgetID: 1),
        ]
        let byDay = try UnitPriceFigures.byDay(matching: "café", in: days, of: expenses)
        let day = try Day(parsing: "2026-11-02")
        #expect(byDay == [day: UnitPriceFigures(total: Money(cents: 1_900), quantity: 3, lowest: Money(cents: 350), highest: Money(cents: 1_200), expenseCount: 2)])
    }
}
