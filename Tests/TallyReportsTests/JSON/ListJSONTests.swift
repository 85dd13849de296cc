import Foundation
import TallyCore
import Testing
@testable import TallyReports

struct ListJSONTests {
    private let month = Month(unsafe: "2026-11")

    private func object(_ value: some Encodable) throws -> [String: Any] {
        let json = try ListJSON.encode(value)
        return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func budgetFiguresCarryThePeriodRolloverAndCap() throws {
        let store = try Fixtures.periodStore()
        let groceries = try object(ListJSON.BudgetFigures(store.status(ofBudgetNamed: "Groceries", in: month)))
        #expect(groceries["name"] as? String == "Groceries")
        #expect(groceries["period"] as? String == "monthly")
        #expect(groceries["month"] as? String == "2026-11")
        #expect(groceries["from"] as? String == "2026-11-25")
        #expect(groceries["to"] as? String == "2026-12-24")
        #expect(groceries["limit"] as? String == "400.00")
        #expect(groceries["carried"] as? String == "50.00")
        #expect(groceries["available"] as? String == "420.00")
        #expect(groceries["spent"] as? String == "180.00")
        #expect(groceries["remaining"] as? String == "240.00")
        #expect(groceries["share"] as? String == "0.4285")
        #expect(groceries["rollover"] as? String == "both")
        #expect(groceries["cap"] as? String == "420.00")

        let holidays = try object(ListJSON.BudgetFigures(store.status(ofBudgetNamed: "Holidays", in: month)))
        #expect(holidays["period"] as? String == "yearly")
        #expect(holidays["from"] as? String == "2026-01-25")
        #expect(holidays["rollover"] as? String == "none")
        #expect(holidays.keys.contains("cap"), "cap is there, as null")
        #expect(holidays["cap"] is NSNull)
    }

    @Test func budgetFiguresStillDecode() throws {
        let store = try Fixtures.periodStore()
        for status in try store.budgetStatuses(for: month) {
            let figures = ListJSON.BudgetFigures(status)
            let decoded = try JSONDecoder().decode(ListJSON.BudgetFigures.self, from: Data(ListJSON.encode(figures).utf8))
            #expect(decoded == figures)
        }
    }

    @Test func budgetDetailListsTheLimitsFromTheFirstPeriod() throws {
        let store = try Fixtures.periodStore()
        _ = try store.addBudget(
            Budget(name: "Rent", limit: Fixtures.money("1200"), start: Month(unsafe: "2026-01"),
                   limitChanges: [LimitChange(from: Month(unsafe: "2026-06"), limit: Fixtures.money("1250"))],
                   createdAt: Fixtures.clock()))
        let status = try store.status(ofBudgetNamed: "Rent", in: month)
        let detail = try object(ListJSON.BudgetDetail(status, firstPeriod: Month(unsafe: "2026-01"), expenses: []))
        let limits = try #require(detail["limits"] as? [[String: String]])
        #expect(limits == [["from": "2026-01", "limit": "1200.00"], ["from": "2026-06", "limit": "1250.00"]])
        #expect(detail["limit"] as? String == "1250.00")
        #expect(detail["name"] as? String == "Rent")
        #expect((detail["expenses"] as? [Any])?.isEmpty == true)

        let groceries = try store.status(ofBudgetNamed: "Groceries", in: month)
        let expenses = try store.expenses(ExpenseQuery(budgetID: groceries.budget.id, days: groceries.days))
        let single = try object(ListJSON.BudgetDetail(groceries, firstPeriod: Month(unsafe: "2026-10"), expenses: expenses))
        #expect(single["limits"] as? [[String: String]] == [["from": "2026-10", "limit": "400.00"]])
        #expect(single["carried"] as? String == "50.00")
        #expect((single["expenses"] as? [[String: Any]])?.map { $0["total"] as? String } == ["120.00", "60.00"])
    }
}
