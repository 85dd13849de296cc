import Foundation
import TallyCore
import TallyServer
import TallyUseCases
import Testing

/// The views and the forms, through the same use cases as the CLI.
@Suite struct ServeFormTests {
    @Test func everyViewAnswersWithSecurityHeadersAndEscapesNames() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        for path in ["/", "/budgets", "/expenses", "/range", "/upcoming", "/add", "/expenses?search=%3Cscript%3E"] {
            let answer = try await harness.request("GET", path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true, "\(path)")
            #expect(answer.header("Content-Security-Policy")?.contains("script-src") == false)
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            #expect(answer.header("Access-Control-Allow-Origin") == nil)
            #expect(!answer.body.contains("<script"), "\(path) shows markup unescaped")
            #expect(!answer.body.contains("alert(1)</"), "\(path)")
        }
        let budgets = try await harness.request("GET", "/budgets").body
        #expect(budgets.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;"))
        let month = try await harness.request("GET", "/?month=\(Day.today().monthValue.adding(months: -1).isoString)")
        #expect(month.status == 200)
        #expect(try await harness.request("GET", "/?month=nonsense").status == 400)
        await harness.stop()
    }

    /// Quick add shows what the budget has left; edit and remove change the row; undo reverts.
    @Test func addEditRemoveAndUndo() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let csrf = try await harness.csrf()
        #expect(csrf.count == 64)
        let added = try await harness.post("/add", form: ["csrf": csrf, "amount": "20.50", "name": "Groceries", "budget": "Food", "tags": "weekly", "by": "Sam"])
        #expect(added.status == 303)
        let location = try #require(added.header("Location"))
        #expect(location.hasPrefix("/add?added="))
        let page = try await harness.request("GET", location).body
        // Food: 300 − 3.50 − 12.00 − 20.50.
        #expect(page.contains("<strong id=\"remaining\" class=\"ok\">264.00</strong>"))
        let id = String(location.dropFirst("/add?added=".count))

        let edit = try await harness.request("GET", "/expenses/\(id)/edit")
        #expect(edit.status == 200 && edit.body.contains("value=\"20.50\""))
        let edited = try await harness.post("/expenses/\(id)/edit", form: ["csrf": csrf, "amount": "30", "name": "Groceries", "budget": "Food", "date": Day.today().isoString])
        #expect(edited.status == 303)
        let ledger = harness.ledger
        #expect(try ledger.perform { try $0.expense(id: Int64(id) ?? 0) }.amount == (try Money(parsing: "30")))
        ledger.close()

        let undone = try await harness.post("/undo", form: ["csrf": csrf])
        #expect(undone.status == 303)
        let again = harness.ledger
        #expect(try again.perform { try $0.expense(id: Int64(id) ?? 0) }.amount == (try Money(parsing: "20.50")))
        again.close()

        let removed = try await harness.post("/expenses/\(id)/remove", form: ["csrf": csrf])
        #expect(removed.status == 303)
        let list = try await harness.request("GET", "/expenses").body
        #expect(!list.contains("Groceries"))

        let bad = try await harness.post("/add", form: ["csrf": csrf, "amount": "abc", "name": "X", "budget": "Food"])
        #expect(bad.status == 400 && bad.body.contains("invalid amount"))
        await harness.stop()
    }
}
