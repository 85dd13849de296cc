import Foundation
import TallyCore
import TallyServer
import TallyUseCases
import Testing

/// `/api/` answers byte for byte what the CLI prints for the same ledger.
@Suite struct ServeAPITests {
    @Test func readsEqualTheCLIsJSON() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let month = Day.today().monthValue.isoString
        let pairs: [(String, [String])] = [
            ("/api/report?month=\(month)", ["report", "--month", month, "--format", "json"]),
            ("/api/budgets?month=\(month)", ["budget", "list", "--month", month, "--json"]),
            ("/api/expenses?month=\(month)&search=e&page=1", ["expense", "list", "--month", month, "--search", "e", "--page", "1", "--json"]),
            ("/api/expenses", ["expense", "list", "--json"]),
        ]
        for (path, arguments) in pairs {
            let answer = try await harness.request("GET", path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
            let cli = try harness.cli(arguments)
            #expect(!cli.isEmpty, "\(arguments)")
            #expect(answer.body == cli, "\(path) differs from tally \(arguments.joined(separator: " "))")
        }
        await harness.stop()
    }

    @Test func postAddsOneExpenseAndAnswersTheBudgetsFigures() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let before = try harness.expenseCount()
        let answer = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json"],
            body: #"{"name": "Milk", "amount": "1.25", "budget": "food", "tags": ["dairy"], "by": "Sam"}"#)
        #expect(answer.status == 201)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        let expense = try #require(json["expense"] as? [String: Any])
        let budget = try #require(json["budget"] as? [String: Any])
        #expect(expense["name"] as? String == "Milk" && expense["total"] as? String == "1.25" && expense["by"] as? String == "Sam")
        #expect(budget["name"] as? String == "Food" && budget["spent"] as? String == "16.75" && budget["remaining"] as? String == "283.25")
        #expect(try harness.expenseCount() == before + 1)

        let bad = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json"], body: #"{"name": "X", "amount": "-3", "budget": "Food"}"#)
        #expect(bad.status == 400)
        #expect(bad.body.contains("amount"))
        let unknown = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json"], body: #"{"name": "X", "amount": "3", "budget": "Nope"}"#)
        #expect(unknown.status == 400)
        let form = try await harness.request("POST", "/api/expenses", headers: ["Content-Type": "text/plain"], body: #"{"name": "X", "amount": "3", "budget": "Food"}"#)
        #expect(form.status == 415)
        #expect(try harness.expenseCount() == before + 1)
        await harness.stop()
    }

    /// Eight clients posting at once: every expense is there exactly once.
    @Test func concurrentQuickAddsAreEachSavedOnce() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let before = try harness.expenseCount()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<8 {
                group.addTask {
                    var created = 0
                    for index in 0..<25 {
                        let answer = try await harness.request(
                            "POST", "/api/expenses", headers: ["Content-Type": "application/json"],
                            body: #"{"name": "c\#(client)-\#(index)", "amount": "1", "budget": "Food"}"#)
                        if answer.status == 201 { created += 1 }
                    }
                    return created
                }
            }
            var total = 0
            for try await created in group { total += created }
            #expect(total == 200)
        }
        #expect(try harness.expenseCount() == before + 200)
        let ledger = harness.ledger
        defer { ledger.close() }
        let names = try ListExpenses(pageSize: 1000).run(in: ledger).expenses.map(\.name).filter { $0.contains("-") }
        #expect(Set(names).count == 200 && names.count == 200)
        await harness.stop()
    }
}
