import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct BudgetCommandTests {
    static let month = "2026-03"

    /// Four budgets with expenses in March 2026; Café & Coffee is over its limit.
    static func populated() throws -> Sandbox {
        try Sandbox.seeded("budget.populated") { sandbox in
            try sandbox.prepare(["budget", "add", "Groceries", "--limit", "400"])
            try sandbox.prepare(["budget", "add", "Café & Coffee", "--limit", "40"])
            try sandbox.prepare(["budget", "add", "Rent", "--limit", "1250"])
            try sandbox.prepare(["budget", "add", "Fast Food", "--limit", "60.5"])
            try sandbox.prepare(["add", "Supermarket", "82.40", "-b", "groceries", "--date", "2026-03-02", "--tag", "food"])
            try sandbox.prepare(["add", "Flat white", "3.80", "-b", "CAFE & coffee", "--quantity", "12", "--date", "2026-03-03"])
            try sandbox.prepare(["add", "Rent", "1200", "-b", "RENT", "--date", "2026-03-01"])
            try sandbox.prepare(["add", "Burger", "9.90", "-b", "fast food", "--date", "2026-02-27"])
        }
    }

    @Test func addPrintsTheBudget() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["budget", "add", "  Groceries ", "--limit", "1234.5"])
        #expect(outcome.stdout == "Added budget 'Groceries' with a monthly limit of 1,234.50.\n")
        #expect(outcome.stderr.isEmpty)
    }

    @Test func addRefusesADuplicateIgnoringCaseAndAccents() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Café", "--limit", "10"])
        let outcome = try sandbox.run(["budget", "add", "CAFE", "--limit", "20"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure)
        #expect(outcome.stderr.contains("'CAFE' already exists"))
    }

    @Test(arguments: ["0", "-5", "abc", "0.00"])
    func addRefusesABadLimit(limit: String) throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "add", "Food", "--limit", limit])
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    @Test func listTableMatchesGolden() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.ok(["budget", "list", "--month", BudgetCommandTests.month])
        try expectGolden(outcome.stdout, named: "budget-list.txt")
        #expect(outcome.stdout.contains("OVER"))
    }

    @Test func listJSONHasTheFiguresAsStrings() throws {
        let sandbox = try BudgetCommandTests.populated()
        let budgets = try sandbox.ok(["budget", "list", "--month", BudgetCommandTests.month, "--json"]).jsonArray
        #expect(budgets.map { $0["name"] as? String } == ["Café & Coffee", "Fast Food", "Groceries", "Rent"])
        let cafe = budgets[0]
        #expect(cafe["limit"] as? String == "40.00")
        #expect(cafe["spent"] as? String == "45.60")
        #expect(cafe["remaining"] as? String == "-5.60")
        #expect(cafe["month"] as? String == "2026-03")
        #expect(cafe["over"] as? Bool == true)
        #expect(cafe["status"] as? String == "over")
        #expect(budgets[1]["spent"] as? String == "0.00", "February's burger is not in March")
    }

    @Test func listSortsAndSearches() throws {
        let sandbox = try BudgetCommandTests.populated()
        func names(_ arguments: [String]) throws -> [String?] {
            try sandbox.ok(["budget", "list", "--month", BudgetCommandTests.month, "--json"] + arguments).jsonArray.map { $0["name"] as? String }
        }
        #expect(try names(["--sort", "spent", "--desc"]) == ["Rent", "Groceries", "Café & Coffee", "Fast Food"])
        #expect(try names(["--sort", "remaining"]) == ["Café & Coffee", "Rent", "Fast Food", "Groceries"])
        #expect(try names(["--sort", "limit"]) == ["Café & Coffee", "Fast Food", "Groceries", "Rent"])
        #expect(try names(["--sort", "name", "--desc"]) == ["Rent", "Groceries", "Fast Food", "Café & Coffee"])
        #expect(try names(["--search", "CAFÉ"]) == ["Café & Coffee"])
        #expect(try names(["--search", "cafe"]) == ["Café & Coffee"])
        #expect(try names(["--search", "f"]) == ["Café & Coffee", "Fast Food"])
        #expect(try names(["--search", "nothing"]) == [])
    }

    @Test func listOfAnEmptyDatabaseSaysHowToStart() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["budget", "list", "--month", "2026-03"])
        #expect(outcome.stdout.contains("tally budget add"))
        let json = try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"])
        #expect(json.json as? [Any] != nil)
        #expect(json.jsonArray.isEmpty)
    }

    @Test func showJSONHasTheFiguresAndExpenses() throws {
        let sandbox = try BudgetCommandTests.populated()
        let budget = try sandbox.ok(["budget", "show", "café & coffee", "--month", "2026-03", "--json"]).jsonObject
        #expect(budget["name"] as? String == "Café & Coffee")
        #expect(budget["limit"] as? String == "40.00")
        #expect(budget["spent"] as? String == "45.60")
        #expect(budget["remaining"] as? String == "-5.60")
        #expect(budget["month"] as? String == "2026-03")
        let expenses = budget["expenses"] as? [[String: Any]] ?? []
        #expect(expenses.count == 1)
        #expect(expenses.first?["total"] as? String == "45.60")
        #expect(expenses.first?["quantity"] as? Int == 12)
    }

    @Test func showTextMarksOverBudget() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.ok(["budget", "show", "cafe & coffee", "--month", "2026-03"])
        #expect(outcome.stdout.hasPrefix("Café & Coffee, 2026-03  OVER BUDGET\n"))
        #expect(outcome.stdout.contains("Flat white"))
        #expect(outcome.stdout.contains("-5.60"))
    }

    @Test func showOfAnUnknownBudgetFails() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.run(["budget", "show", "Food"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure)
        #expect(outcome.stderr == "tally: error: no budget named 'Food'\n")
    }

    @Test func editRenamesAndChangesTheLimit() throws {
        let sandbox = try BudgetCommandTests.populated()
        // From the budget's first period (its earliest expense's), the new limit replaces the first.
        let outcome = try sandbox.ok(["budget", "edit", "fast food", "--name", "Takeaway", "--limit", "75", "--from", "2026-02"])
        #expect(outcome.stdout == "Updated budget 'Takeaway' (was 'Fast Food'): monthly limit 75.00.\n")
        let budget = try sandbox.ok(["budget", "show", "takeaway", "--month", "2026-02", "--json"]).jsonObject
        #expect(budget["limit"] as? String == "75.00")
        #expect(budget["spent"] as? String == "9.90", "the expenses follow the renamed budget")
    }

    @Test func aNewLimitAppliesFromTheCurrentPeriodOnAndKeepsHistory() throws {
        let sandbox = try BudgetCommandTests.populated()
        let current = Day.today().monthValue.isoString
        let outcome = try sandbox.ok(["budget", "edit", "fast food", "--limit", "80"])
        #expect(outcome.stdout == "Updated budget 'Fast Food': monthly limit 80.00 from \(current) (60.50 before).\n")
        let february = try sandbox.ok(["budget", "show", "fast food", "--month", "2026-02", "--json"]).jsonObject
        #expect(february["limit"] as? String == "60.50", "February keeps the limit it had")
        let now = try sandbox.ok(["budget", "show", "fast food", "--json"]).jsonObject
        #expect(now["limit"] as? String == "80.00")
        let before = try sandbox.run(["budget", "edit", "fast food", "--limit", "90", "--from", "2025-12"])
        #expect(before.status == 64)
        #expect(before.stderr == "tally: error: the budget begins in 2026-02; its limit cannot change from 2025-12\n")
    }

    @Test func editNeedsSomethingToChange() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.run(["budget", "edit", "Rent"])
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure)
    }

    @Test func editRefusesANameThatClashes() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.run(["budget", "edit", "Rent", "--name", "GROCERIES"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure)
    }

    @Test func removeRefusesABudgetWithExpensesAndSaysHowMany() throws {
        let sandbox = try BudgetCommandTests.populated()
        try sandbox.ok(["add", "Bread", "2.10", "-b", "groceries", "--date", "2026-03-05"])
        let before = try sandbox.dump(month: "2026-03")
        let outcome = try sandbox.run(["budget", "remove", "Groceries"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure)
        #expect(outcome.stderr.contains("2 expenses"))
        #expect(try sandbox.dump(month: "2026-03") == before)
    }

    @Test func removeWithYesDeletesTheExpensesAndSaysHowMany() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.ok(["budget", "remove", "GROCERIES", "--yes"])
        #expect(outcome.stdout == "Removed budget 'Groceries' and its 1 expense.\n")
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.count == 3)
        #expect(!expenses.contains { $0["budget"] as? String == "Groceries" })
    }

    @Test func removeOfAnEmptyBudgetNeedsNoConfirmation() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Empty", "--limit", "5"])
        let outcome = try sandbox.ok(["budget", "remove", "empty"])
        #expect(outcome.stdout == "Removed budget 'Empty'.\n")
        #expect(try sandbox.ok(["budget", "list", "--json"]).jsonArray.isEmpty)
    }

    @Test func removeAnswersNoWhenStdinIsNotATerminal() throws {
        let sandbox = try BudgetCommandTests.populated()
        let outcome = try sandbox.run(["budget", "remove", "Rent"], stdin: "yes\n")
        #expect(outcome.status == 1, "a piped yes must not confirm a deletion")
        #expect(outcome.isOneLineFailure)
    }

    /// `script` gives tally a terminal, the only place where it asks.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")), arguments: [("yes\n", 0), ("n\n", 1)])
    func removeAsksOnATerminal(answer: String, status: Int32) throws {
        let sandbox = try BudgetCommandTests.populated()
        let command = "'\(Sandbox.tallyURL.path)' budget remove rent --db '\(sandbox.db)'"
        let outcome = try sandbox.run(["-qec", command, "/dev/null"], useDB: false, stdin: answer, executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(outcome.status == status)
        #expect(outcome.stdout.contains("Budget 'Rent' has 1 expense. Remove the budget and delete its expenses? [y/N]"))
        let budgets = try sandbox.ok(["budget", "list", "--json"]).jsonArray.compactMap { $0["name"] as? String }
        #expect(budgets.contains("Rent") == (status != 0))
    }

    @Test func removeOfAnUnknownBudgetFails() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "remove", "Nope", "--yes"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "tally: error: no budget named 'Nope'\n")
    }
}
