import Foundation
import TallyCore
import TallyServer
import TallyUseCases
import Testing

/// Budgets and import rules from the browser: each form is the CLI's use case, needs `manage`
/// and a matching anti-forgery token, and shows hostile names escaped.
@Suite struct ServeManageTests {
    func budgets(_ harness: Harness) throws -> [Budget] {
        let ledger = harness.ledger
        defer { ledger.close() }
        return try ListBudgets(period: .current, today: Day.today()).run(in: ledger).statuses.map(\.budget)
    }

    func rules(_ harness: Harness) throws -> [ImportRule] {
        let ledger = harness.ledger
        defer { ledger.close() }
        return try ListRules().run(in: ledger)
    }

    @Test func addEditAndRemoveABudgetAndARule() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let csrf = try await harness.csrf()
        let form = try await harness.request("GET", "/budgets/new")
        #expect(form.status == 200 && form.body.contains("name=\"limit\""))

        let added = try await harness.post(
            "/budgets/new", form: ["csrf": csrf, "name": "Café & Co", "limit": "45.50", "period": "monthly", "rollover": "surplus", "cap": "100", "warn": "90"])
        #expect(added.status == 303)
        #expect(added.header("Location") == "/budgets?done=budget-added")
        let cafe = try #require(try budgets(harness).first { $0.name == "Café & Co" })
        let (limit, cap) = (try Money(parsing: "45.50"), try Money(parsing: "100"))
        #expect(cafe.limit == limit && cafe.rollover == .surplus && cafe.cap == cap && cafe.warn == 90)
        let list = try await harness.request("GET", "/budgets?done=budget-added").body
        #expect(list.contains("Added the budget.") && list.contains("Café &amp; Co") && list.contains("/budgets/\(cafe.id ?? 0)/edit"))

        // Bad values come back on the form with the rule's message, and write nothing.
        let bad = try await harness.post("/budgets/new", form: ["csrf": csrf, "name": "Broken", "limit": "-5"])
        #expect(bad.status == 400 && bad.body.contains("value=\"Broken\""))
        let once = try await harness.post("/budgets/new", form: ["csrf": csrf, "name": "Trip", "limit": "500", "period": "once"])
        #expect(once.status == 400)
        #expect(try budgets(harness).allSatisfy { $0.name != "Broken" && $0.name != "Trip" })

        let edited = try await harness.post(
            "/budgets/\(cafe.id ?? 0)/edit", form: ["csrf": csrf, "name": "Coffee", "limit": "60", "rollover": "none", "cap": "", "warn": "90"])
        #expect(edited.status == 303)
        let coffee = try #require(try budgets(harness).first { $0.id == cafe.id })
        #expect(coffee.name == "Coffee" && coffee.rollover == RolloverPolicy.none && coffee.cap == nil)
        let month = Day.today().monthValue.isoString
        #expect(try harness.cli(["budget", "list", "--month", month, "--json"]).contains("\"60.00\""))

        // A rule for it, then gone again.
        let rule = try await harness.post("/rules", form: ["csrf": csrf, "pattern": "starbucks", "budget": "Coffee", "tags": "out", "rename": "Coffee shop"])
        #expect(rule.status == 303)
        let saved = try #require(try rules(harness).first)
        #expect(saved.pattern == "starbucks" && saved.budget == "Coffee" && saved.tags == ["out"] && saved.rename == "Coffee shop")
        #expect(try await harness.request("GET", "/rules").body.contains("starbucks"))
        let badRule = try await harness.post("/rules", form: ["csrf": csrf, "pattern": "/[unclosed/", "budget": "Coffee"])
        #expect(badRule.status == 400)
        #expect(try rules(harness).count == 1)
        #expect(try await harness.post("/rules/\(saved.id ?? 0)/remove", form: ["csrf": csrf]).status == 303)
        #expect(try rules(harness).isEmpty)

        // A budget with expenses is kept unless the box is ticked.
        let food = try #require(try budgets(harness).first { $0.name == "Food" })
        let refused = try await harness.post("/budgets/\(food.id ?? 0)/remove", form: ["csrf": csrf])
        #expect(refused.status == 400)
        #expect(try budgets(harness).contains { $0.name == "Food" })
        #expect(try await harness.post("/budgets/\(coffee.id ?? 0)/remove", form: ["csrf": csrf]).status == 303)
        #expect(try budgets(harness).allSatisfy { $0.id != coffee.id })
        // Undone as on the command line.
        #expect(try await harness.post("/undo", form: ["csrf": csrf]).status == 303)
        #expect(try budgets(harness).contains { $0.id == coffee.id })
        #expect(try await harness.request("GET", "/budgets/999999/edit").status == 404)
        await harness.stop()
    }

    @Test func viewAndAddTokensAreRefusedAndWriteNothing() async throws {
        let (harness, view, add, manage) = try await ServeSecurityTests.served()
        let before = try budgets(harness).count
        let food = try #require(try budgets(harness).first { $0.name == "Food" })
        for token in [view, add] {
            let headers = ["Authorization": "Bearer \(token)"]
            let csrf = try await harness.csrf(["Authorization": "Bearer \(add)"])
            let posts: [(String, [String: String])] = [
                ("/budgets/new", ["name": "Sneaky", "limit": "10"]), ("/budgets/\(food.id ?? 0)/edit", ["name": "Food", "limit": "1"]),
                ("/budgets/\(food.id ?? 0)/remove", ["expenses": "remove"]), ("/rules", ["pattern": "x", "budget": "Food"]),
            ]
            for (path, form) in posts {
                let answer = try await harness.post(path, form: form.merging(["csrf": csrf]) { $1 }, headers: headers)
                #expect(answer.status == 403, "\(path)")
            }
            #expect(try await harness.request("GET", "/budgets/new", headers: headers).status == 403)
            let page = try await harness.request("GET", "/budgets", headers: headers).body
            #expect(!page.contains("/budgets/new") && !page.contains("/edit\""))
        }
        #expect(try budgets(harness).count == before)
        #expect(try budgets(harness).first { $0.name == "Food" }?.limit == food.limit)
        #expect(try rules(harness).isEmpty)
        // The same form with a manage token goes through; without its anti-forgery token it does not.
        let boss = ["Authorization": "Bearer \(manage)"]
        #expect(try await harness.post("/budgets/new", form: ["name": "Sneaky", "limit": "10"], headers: boss).status == 403)
        let csrf = try await harness.csrf(boss)
        #expect(try await harness.post("/budgets/new", form: ["csrf": csrf, "name": "Fine", "limit": "10"], headers: boss).status == 303)
        #expect(try budgets(harness).count == before + 1)
        await harness.stop()
    }

    @Test func hostileNamesAreEscapedOnTheManagePages() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let csrf = try await harness.csrf()
        let hostile = try #require(try budgets(harness).first { $0.name == Harness.hostile })
        #expect(try await harness.post("/rules", form: ["csrf": csrf, "pattern": "<img src=x onerror=alert(2)>", "budget": Harness.hostile, "rename": Harness.hostile]).status == 303)
        for path in ["/budgets/\(hostile.id ?? 0)/edit", "/rules", "/budgets"] {
            let page = try await harness.request("GET", path)
            #expect(page.status == 200, "\(path)")
            #expect(!page.body.contains("<script") && !page.body.contains("<img"), "\(path)")
            #expect(page.body.contains("&lt;script&gt;"), "\(path)")
        }
        await harness.stop()
    }
}
