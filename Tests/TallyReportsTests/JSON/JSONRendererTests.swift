import Foundation
import TallyCore
import Testing
@testable import TallyReports

struct JSONRendererTests {
    @Test func matchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.store())
        try Golden.check(JSONRenderer().render(report), against: "report.json")
    }

    @Test func aLedgerWithAccountsMatchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.accountsStore())
        try Golden.check(JSONRenderer().render(report), against: "report-accounts.json")
    }

    @Test func moneyInKeysAreAlwaysThereAndNullWithoutAFigure() throws {
        func object(_ report: MonthlyReport) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(JSONRenderer().render(report).utf8)) as? [String: Any])
        }
        let november = try object(Fixtures.report(Fixtures.accountsStore()))
        #expect(november["income"] as? String == "3200.00")
        #expect(november["saved"] as? String == "1504.35")
        #expect(november["savingsRate"] as? String == "0.4701")
        #expect(november["netWorth"] as? String == "9100.00")
        #expect(november["unbudgeted"] as? String == "1450.00")
        let plain = try object(Fixtures.report(Fixtures.store()))
        #expect(plain["income"] as? String == "0.00")
        #expect(plain["savingsRate"] is NSNull && plain["netWorth"] is NSNull)
        #expect(plain["unbudgeted"] as? String == "-1750.00")
    }

    @Test func amountsAreTwoDecimalStrings() throws {
        let json = try JSONRenderer().render(Fixtures.report(Fixtures.store()))
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(totals["spent"] as? String == "1695.65")
        #expect(totals["remaining"] as? String == "54.35")
        let budgets = try #require(object["budgets"] as? [[String: Any]])
        #expect(budgets.first?["remaining"] as? String == "-15.75")
        #expect(budgets.first?["over"] as? Bool == true)
        #expect(budgets.first?["share"] as? String == "1.1050")
        #expect((object["days"] as? [Any])?.count == 30)
    }

    @Test func thePeriodAndEveryBudgetsDaysPeriodCarriedAndAvailableAreThere() throws {
        let json = try JSONRenderer().render(Fixtures.report(Fixtures.periodStore()))
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["month"] as? String == "2026-11")
        #expect(object["from"] as? String == "2026-11-25")
        #expect(object["to"] as? String == "2026-12-24")
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.count == 30)
        #expect(days.first?["date"] as? String == "2026-11-25")
        let budgets = try #require(object["budgets"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: budgets.compactMap { budget in (budget["name"] as? String).map { ($0, budget) } })

        let groceries = try #require(byName["Groceries"])
        #expect(groceries["period"] as? String == "monthly")
        #expect(groceries["from"] as? String == "2026-11-25")
        #expect(groceries["to"] as? String == "2026-12-24")
        #expect(groceries["limit"] as? String == "400.00")
        #expect(groceries["carried"] as? String == "50.00")
        #expect(groceries["available"] as? String == "420.00")
        #expect(groceries["remaining"] as? String == "240.00")
        #expect(groceries["share"] as? String == "0.4285")
        #expect(groceries["status"] as? String == "ok")

        let eatingOut = try #require(byName["Eating out"])
        #expect(eatingOut["carried"] as? String == "-30.00")
        #expect(eatingOut["available"] as? String == "120.00")
        #expect(eatingOut["remaining"] as? String == "-10.00")
        #expect(eatingOut["over"] as? Bool == true)
        #expect(eatingOut["status"] as? String == "over")

        let holidays = try #require(byName["Holidays"])
        #expect(holidays["period"] as? String == "yearly")
        #expect(holidays["from"] as? String == "2026-01-25")
        #expect(holidays["to"] as? String == "2026-12-24")
        let trip = try #require(byName["Paris trip"])
        #expect(trip["period"] as? String == "once")
        #expect(trip["from"] as? String == "2026-07-01")
        #expect(trip["to"] as? String == "2026-07-14")

        let totals = try #require(object["totals"] as? [String: Any])
        #expect(totals["limit"] as? String == "3950.00")
        #expect(totals["carried"] as? String == "20.00")
        #expect(totals["available"] as? String == "3940.00")
        #expect(totals["remaining"] as? String == "1610.00")
        #expect(totals["share"] as? String == "0.5913")
    }

    @Test func everyBudgetHasTheSameKeys() throws {
        let json = try JSONRenderer().render(Fixtures.report(Fixtures.periodStore()))
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let budgets = try #require(object["budgets"] as? [[String: Any]])
        let pace: Set = ["elapsed", "projected", "perDay"]
        let keys = Set(["name", "period", "from", "to", "limit", "carried", "available", "spent", "remaining", "share", "status", "over", "expenseCount"])
            .union(pace)
        // Only a budget over or past its warning level explains itself.
        #expect(budgets.allSatisfy { Set($0.keys) == ($0["status"] as? String == "ok" ? keys : keys.union(["whyOver"])) })
        #expect(budgets.contains { $0["whyOver"] != nil })
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(Set(totals.keys) == Set(["limit", "carried", "available", "spent", "remaining", "share", "status", "over", "expenseCount"]).union(pace))
        // A past period has no pace: its figures are `null`.
        #expect(budgets.allSatisfy { $0["elapsed"] is NSNull && $0["projected"] is NSNull && $0["perDay"] is NSNull })
    }
}
