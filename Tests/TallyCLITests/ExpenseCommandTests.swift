import Foundation
import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct ExpenseCommandTests {
    static func withBudgets() throws -> Sandbox {
        try Sandbox.seeded("expense.withBudgets") { sandbox in
            try sandbox.prepare(["budget", "add", "Groceries", "--limit", "100"])
            try sandbox.prepare(["budget", "add", "Café", "--limit", "10"])
        }
    }

    @Test func addPrintsTheExpenseWithItsIdAndTheRemaining() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.ok([
            "expense", "add", "Apples", "2.50", "--budget", "groceries", "--quantity", "4", "--date", "2026-03-10",
            "--tag", "Fruit", "--tag", "food",
        ])
        #expect(outcome.stdout == """
            Added expense #1 2026-03-10 Apples: 2.50 × 4 = 10.00 in Groceries [food, fruit]
            Groceries: 90.00 remaining of 100.00 for 2026-03.

            """)
        #expect(outcome.stderr.isEmpty)
    }

    @Test func addAliasTakesShortBudgetAndMatchesIgnoringAccents() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.ok(["add", "Espresso", "2", "-b", "CAFE", "--date", "2026-03-10"])
        #expect(outcome.stdout.hasPrefix("Added expense #1 2026-03-10 Espresso: 2.00 in Café\n"))
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.first?["budget"] as? String == "Café")
    }

    /// The two zones are 26 hours apart, so at any moment they are on different days.
    @Test(arguments: ["Pacific/Kiritimati", "Etc/GMT+12"])
    func addWithoutADateUsesTodayInTheTimeZoneOfTZ(zone: String) throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let timeZone = try #require(TimeZone(identifier: zone))
        let before = Day.today(now: Date(), in: timeZone)
        let outcome = try sandbox.run(["add", "Tea", "1", "-b", "Groceries"], environment: ["TZ": zone])
        let after = Day.today(now: Date(), in: timeZone)
        let saved = [before, after].map { "Added expense #1 \($0.isoString) Tea: 1.00 in Groceries\n" }
        #expect(outcome.status == 0)
        #expect(saved.contains { (line: String) in outcome.stdout.hasPrefix(line) }, "\(outcome.stdout)")
    }

    /// Going over is said once, by the crossing line; the adds after it say only what is left.
    @Test func goingOverIsSaidOnceOnCrossing() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        try sandbox.ok(["add", "Espresso", "6", "-b", "café", "--date", "2026-03-10"])
        let outcome = try sandbox.run(["add", "Cake", "5.25", "-b", "café", "--date", "2026-03-11"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Café: -1.25 remaining of 10.00 for 2026-03.\nCafé: 112 % of 10.00 used — over the limit\n"), "\(outcome.stdout)")
        #expect(outcome.stderr.isEmpty)
        let later = try sandbox.run(["add", "Tea", "1", "-b", "café", "--date", "2026-03-12"])
        #expect(later.stdout.hasSuffix("Café: -2.25 remaining of 10.00 for 2026-03.\n"), "\(later.stdout)")
        #expect(later.stderr.isEmpty)
    }

    @Test func addToAnUnknownBudgetFailsAndAddsNothing() throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.run(["add", "Bread", "2", "-b", "Bakery", "--date", "2026-03-10"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "tally: error: no budget named 'Bakery'\n")
        #expect(outcome.stdout.isEmpty)
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
    }

    @Test(arguments: [
        ("-5", "invalid value '-5'"), ("1e3", "invalid amount '1e3'"), ("12,50", "invalid amount '12,50'"),
        ("12.345", "invalid amount '12.345'"), ("", "invalid amount ''"), ("1000000000.01", "out of range"),
        ("0", "must be greater than 0"), (" 12", "invalid amount"), ("+3", "invalid amount '+3'"),
    ])
    func badAmountsAreUsageErrorsThatChangeNothing(amount: String, message: String) throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        try sandbox.ok(["add", "Bread", "2", "-b", "groceries", "--date", "2026-03-10"])
        let before = try sandbox.databaseSnapshot()
        let dump = try sandbox.dump(month: "2026-03")
        let outcome = try sandbox.run(["add", "Bread", amount, "-b", "groceries", "--date", "2026-03-10"])
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        #expect(try sandbox.dump(month: "2026-03") == dump)
    }

    @Test(arguments: [
        (["--date", "2026-02-30"], "invalid date '2026-02-30'"),
        (["--date", "the day before"], "invalid date 'the day before'"),
        (["--date", "feb 30"], "invalid date 'feb 30'"),
        (["--quantity", "0"], "invalid quantity 0"),
        (["--quantity", "1000001"], "invalid quantity 1000001"),
        (["--tag", "a,b"], "invalid tag 'a,b'"),
    ])
    func badDatesQuantitiesAndTagsAreUsageErrors(extra: [String], message: String) throws {
        let sandbox = try ExpenseCommandTests.withBudgets()
        let outcome = try sandbox.run(["add", "Bread", "2", "-b", "groceries"] + extra)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func badMonthIsAUsageErrorWithTallysMessage() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "list", "--month", "2026-13"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "tally: error: invalid month '2026-13': use YYYY-MM\n")
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    /// Six expenses over two budgets and two months.
    static func populated() throws -> Sandbox {
        try Sandbox.seeded("expense.populated", from: withBudgets) { sandbox in
            try sandbox.prepare(["add", "Bread", "2.10", "-b", "groceries", "--date", "2026-03-02", "--tag", "bakery"])
            try sandbox.prepare(["add", "Café crème", "3.20", "-b", "cafe", "--date", "2026-03-02", "--tag", "coffee"])
            try sandbox.prepare(["add", "Apples", "2.50", "-b", "groceries", "--quantity", "4", "--date", "2026-03-05"])
            try sandbox.prepare(["add", "Cheese", "7.80", "-b", "groceries", "--date", "2026-02-27", "--tag", "dairy"])
            try sandbox.prepare(["add", "Espresso", "2.10", "-b", "cafe", "--date", "2026-03-05", "--tag", "coffee"])
            try sandbox.prepare(["add", "Bread rolls", "2.10", "-b", "groceries", "--date", "2026-03-07", "--tag", "bakery"])
        }
    }

    @Test func listJSONHasEveryField() throws {
        let sandbox = try ExpenseCommandTests.populated()
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.count == 6)
        let apples = try #require(expenses.first { $0["name"] as? String == "Apples" })
        #expect(apples["id"] as? Int == 3)
        #expect(apples["amount"] as? String == "2.50")
        #expect(apples["quantity"] as? Int == 4)
        #expect(apples["total"] as? String == "10.00")
        #expect(apples["date"] as? String == "2026-03-05")
        #expect(apples["budget"] as? String == "Groceries")
        #expect(apples["tags"] as? [String] == [])
        let bread = try #require(expenses.first { $0["name"] as? String == "Bread" })
        #expect(bread["tags"] as? [String] == ["bakery"])
    }

    @Test func listFiltersSortsAndPagesStably() throws {
        let sandbox = try ExpenseCommandTests.populated()
        func ids(_ arguments: [String]) throws -> [Int] {
            try sandbox.ok(["expense", "list", "--json"] + arguments).jsonArray.compactMap { $0["id"] as? Int }
        }
        #expect(try ids([]) == [4, 1, 2, 3, 5, 6])
        #expect(try ids(["--desc"]) == [6, 5, 3, 2, 1, 4])
        #expect(try ids(["--month", "2026-03"]) == [1, 2, 3, 5, 6])
        #expect(try ids(["--budget", "CAFÉ"]) == [2, 5])
        #expect(try ids(["--search", "bread"]) == [1, 6])
        #expect(try ids(["--search", "CAFE"]) == [2])
        #expect(try ids(["--tag", "Coffee"]) == [2, 5])
        #expect(try ids(["--sort", "amount"]) == [1, 5, 6, 3, 2, 4], "ties in amount are ordered by id")
        #expect(try ids(["--sort", "amount", "--desc"]) == [4, 2, 3, 6, 5, 1])
        #expect(try ids(["--sort", "total", "--desc"]) == [3, 4, 2, 6, 5, 1])
        #expect(try ids(["--sort", "name"]) == [3, 1, 6, 2, 4, 5])
        #expect(try ids(["--page-size", "4"]) == [4, 1, 2, 3])
        #expect(try ids(["--page-size", "4", "--page", "2"]) == [5, 6])
        #expect(try ids(["--page-size", "4", "--page", "3"]) == [])
        #expect(try ids(["--sort", "amount", "--page-size", "2", "--page", "2"]) == [6, 3])
    }

    @Test func listTableShowsThePage() throws {
        let sandbox = try ExpenseCommandTests.populated()
        let outcome = try sandbox.ok(["expense", "list", "--page-size", "4", "--page", "2"])
        #expect(outcome.stdout.hasSuffix("Page 2 of 2, 6 expenses in all.\n"))
        #expect(outcome.stdout.contains("Espresso"))
        #expect(!outcome.stdout.contains("Apples"))
    }

    @Test(arguments: [["--page", "0"], ["--page", "-1"], ["--page-size", "0"], ["--page-size", "1001"], ["--page", "x"]])
    func listRejectsBadPages(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["expense", "list"] + arguments)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
    }

    @Test func listOfAnUnknownBudgetFails() throws {
        let sandbox = try ExpenseCommandTests.populated()
        let outcome = try sandbox.run(["expense", "list", "--budget", "Nope"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure)
    }

    @Test func editChangesOnlyTheGivenFields() throws {
        let sandbox = try ExpenseCommandTests.populated()
        let outcome = try sandbox.ok(["expense", "edit", "3", "--amount", "3", "--budget", "café"])
        #expect(outcome.stdout == "Updated expense #3 2026-03-05 Apples: 3.00 × 4 = 12.00 in Café\n")
        let apples = try #require(try sandbox.ok(["expense", "list", "--json", "--search", "apples"]).jsonArray.first)
        #expect(apples["quantity"] as? Int == 4)
        #expect(apples["date"] as? String == "2026-03-05")
        #expect(apples["budget"] as? String == "Café")
        #expect(apples["total"] as? String == "12.00")
    }

    @Test func editReplacesAndClearsTags() throws {
        let sandbox = try ExpenseCommandTests.populated()
        try sandbox.ok(["expense", "edit", "1", "--tag", "Fresh", "--tag", "local"])
        func tags() throws -> [String]? {
            try sandbox.ok(["expense", "list", "--json", "--search", "bread", "--page-size", "1"]).jsonArray.first?["tags"] as? [String]
        }
        #expect(try tags() == ["fresh", "local"])
        try sandbox.ok(["expense", "edit", "1", "--name", "Sourdough bread"])
        #expect(try tags() == ["fresh", "local"], "tags stay when --tag is not given")
        try sandbox.ok(["expense", "edit", "1", "--clear-tags"])
        #expect(try tags() == [])
    }

    @Test(arguments: [[String](), ["--tag", "a", "--clear-tags"], ["--amount", "12,50"], ["--date", "2026-3-1"]])
    func editRejectsBadRequests(arguments: [String]) throws {
        let sandbox = try ExpenseCommandTests.populated()
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["expense", "edit", "1"] + arguments)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func editOfAnUnknownExpenseFails() throws {
        let sandbox = try ExpenseCommandTests.populated()
        let outcome = try sandbox.run(["expense", "edit", "99", "--name", "Ghost"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "tally: error: no expense with id 99\n")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func removeDeletesOneExpense() throws {
        let sandbox = try ExpenseCommandTests.populated()
        let outcome = try sandbox.ok(["expense", "remove", "3"])
        #expect(outcome.stdout == "Removed expense #3 'Apples' (10.00).\n")
        let ids = try sandbox.ok(["expense", "list", "--json"]).jsonArray.compactMap { $0["id"] as? Int }
        #expect(ids == [4, 1, 2, 5, 6])
        let again = try sandbox.run(["expense", "remove", "3"])
        #expect(again.status == 1)
        #expect(again.stderr == "tally: error: no expense with id 3\n")
    }
}
