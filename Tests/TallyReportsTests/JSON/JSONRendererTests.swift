import Foundation
import TallyCore
import Testing
@testable import TallyReports

struct JSONRendererTests {
    @Test func matchesTheGoldenFile() throws {
        let report = try Fixtures.report(Fixtures.store())
        try Golden.check(JSONRenderer().render(report), against: "report.json")
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
}
