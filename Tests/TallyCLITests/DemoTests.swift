import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct DemoTests {
    @Test func fillsAnEmptyDatabaseWithOneBudgetOverThisMonth() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["demo"])
        #expect(outcome.stdout.hasPrefix("Added 10 budgets and "))
        let budgets = try sandbox.ok(["budget", "list", "--json"]).jsonArray
        #expect(budgets.count == 10)
        #expect(budgets.contains { $0["name"] as? String == "Café & Coffee" && $0["over"] as? Bool == true })
        #expect(try sandbox.ok(["budget", "list"]).stdout.contains("OVER"))
        let expenses = try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray
        let months = Set(expenses.compactMap { ($0["date"] as? String)?.prefix(7) })
        #expect(months.count == 6)
        #expect(expenses.contains { !($0["tags"] as? [String] ?? []).isEmpty })
    }

    /// The plain `demo` shows a household: two people, a rollover budget, a yearly budget and a
    /// sinking fund saved into a savings account, a checking account and a card with a salary and
    /// a card payment each month, and the rent and a subscription as recurring bills whose months
    /// are all paid, so the rent's pace projects exactly the rent.
    @Test func theDemoShowsAHousehold() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.ok(["demo"]).stdout.contains(", 3 accounts and 18 incomes and transfers"))
        let expenses = try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray
        #expect(Set(expenses.compactMap { $0["by"] as? String }) == ["Alex", "Sam"])
        let budgets = try sandbox.ok(["budget", "list", "--json"]).jsonArray
        #expect(budgets.first { $0["name"] as? String == "Groceries" }?["rollover"] as? String == "surplus")
        #expect(budgets.first { $0["name"] as? String == "Rent" }?["projected"] as? String == "1200.00")
        #expect(budgets.first { $0["name"] as? String == "Insurance" }?["period"] as? String == "yearly")
        let fund = try #require(budgets.first { $0["name"] as? String == "Holiday" }?["goal"] as? [String: Any])
        #expect(fund["target"] as? String == "1200.00" && fund["account"] as? String == "Savings" && fund["status"] as? String == "on-track")
        let rules = try sandbox.ok(["recurring", "list", "--json"]).jsonArray
        #expect(Set(rules.compactMap { $0["name"] as? String }) == ["Rent", "Music streaming"])
        #expect(try sandbox.ok(["upcoming", "--json"]).jsonArray.allSatisfy { $0["overdue"] as? Bool == false })
        #expect(try sandbox.ok(["income", "list", "--json"]).jsonArray.count == 6)
        #expect(Set(try sandbox.ok(["account", "list", "--json"]).jsonArray.compactMap { $0["name"] as? String }) == ["Checking", "Visa", "Savings"])
    }

    /// `--accounts` opens them and pays the same expenses from them; incomes land in checking,
    /// a salary each month, and transfers go out of it; the figures add up on every account.
    @Test func accountsPayTheSameExpensesAndTakeIncomesAndTransfers() throws {
        let plain = try Sandbox()
        let accounts = try Sandbox()
        try plain.ok(["demo", "--seed", "3"])
        let outcome = try accounts.ok(["demo", "--seed", "3", "--accounts", "5", "--incomes", "30", "--transfers", "12"])
        #expect(outcome.stdout.contains("5 accounts and 42 incomes and transfers"), "\(outcome.stdout)")
        let list = ["expense", "list", "--json", "--page-size", "1000"]
        let paid = try accounts.ok(list).jsonArray
        // The plain demo's showcase adds a yearly bill and a subscription to the same months.
        let typical = try plain.ok(list).jsonArray.map { $0["name"] as? String }.filter { $0 != "Home insurance" && $0 != "Music streaming" }
        #expect(paid.map { $0["name"] as? String } == typical)
        #expect(Set(paid.compactMap { $0["account"] as? String }) == ["Checking", "Visa", "Cash"])
        let listed = try accounts.ok(["account", "list", "--json"]).jsonArray
        #expect(listed.count == 5)
        let incomes = try accounts.ok(["income", "list", "--json"]).jsonArray
        #expect(incomes.count == 30 && incomes.filter { $0["name"] as? String == "Salary" }.count == 6)
        #expect(try accounts.ok(["transfer", "list", "--json"]).jsonArray.count == 12)
        let refused = try accounts.run(["demo", "--transfers", "3", "--accounts", "1"])
        #expect(refused.status == 64 && refused.isOneLineFailure)
    }

    @Test func refusesADatabaseThatHasBudgets() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Mine", "--limit", "10"])
        let outcome = try sandbox.run(["demo"])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure)
        #expect(outcome.stderr.contains("already has 1 budget"))
        #expect(try sandbox.ok(["budget", "list", "--json"]).jsonArray.count == 1)
    }

    @Test func sameSeedGivesSameData() throws {
        let first = try Sandbox()
        let second = try Sandbox()
        try first.ok(["demo", "--seed", "7"])
        try second.ok(["demo", "--seed", "7"])
        let list = ["expense", "list", "--json", "--page-size", "1000"]
        #expect(try first.ok(list).stdout == second.ok(list).stdout)
    }

    @Test func generatesTheRequestedNumberOfExpenses() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["demo", "--expenses", "2500", "--months", "6", "--seed", "1"])
        #expect(outcome.stdout.hasPrefix("Added 12 budgets and 2500 expenses"))
        let page = try sandbox.ok(["expense", "list", "--page-size", "1"])
        #expect(page.stdout.hasSuffix("Page 1 of 2500, 2500 expenses in all.\n"))
    }

    @Test(arguments: [["--expenses", "-1"], ["--months", "0"], ["--seed", "x"]])
    func rejectsBadArguments(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["demo"] + arguments)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    /// `| head` closes the pipe early; tally must end quietly, not die of SIGPIPE.
    @Test func survivesAClosedPipe() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["demo", "--expenses", "3000", "--seed", "3"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "\"$0\" expense list --json --page-size 1000 --db \"$1\" | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\"", Sandbox.tallyURL.path, sandbox.db]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "0")
    }
}
