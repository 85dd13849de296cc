import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct PricesCommandTests {
    @Test func pricesShowsUnitPricesPerPeriodAsTextAndJSON() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        try sandbox.ok(["add", "Café crème", "3.20", "-b", "food", "--quantity", "2", "--date", "2026-10-03"])
        try sandbox.ok(["add", "CAFE", "3.50", "-b", "food", "--date", "2026-11-03"])
        try sandbox.ok(["add", "Tea", "2.00", "-b", "food", "--date", "2026-11-03"])
        let text = try sandbox.ok(["prices", "cafe", "--from", "2026-10", "--to", "2026-11"]).stdout
        #expect(text.hasPrefix("Unit prices of 'cafe', 2026-10 to 2026-11 (2 periods)\n"))
        #expect(text.contains("2026-11         1         1     3.50    3.50     3.50   +0.30  +9.4%"))
        let json = try sandbox.ok(["prices", "café", "--from", "2026-10", "--to", "2026-11", "--json"]).jsonObject
        let periods = json["periods"] as? [[String: Any]] ?? []
        #expect(periods.map { $0["average"] as? String } == ["3.20", "3.50"])
        #expect(periods.first?["quantity"] as? Int == 2)
    }

    @Test func badPricesArgumentsAreOneLineUsageErrors() throws {
        let sandbox = try Sandbox()
        for arguments in [["prices", " "], ["prices", "milk", "--from", "2026-11", "--to", "2026-10"], ["prices", "milk", "--from", "2016-01", "--to", "2026-12"], ["prices", "milk", "--to", "2026-13"], ["prices"]] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure, "\(arguments): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
    }
}
