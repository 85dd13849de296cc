import Foundation
import Testing

@Suite struct DemoTests {
    @Test func fillsAnEmptyDatabaseWithOneBudgetOverThisMonth() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.ok(["demo"])
        #expect(outcome.stdout.hasPrefix("Added 8 budgets and "))
        let budgets = try sandbox.ok(["budget", "list", "--json"]).jsonArray
        #expect(budgets.count == 8)
        #expect(budgets.contains { $0["name"] as? String == "Café & Coffee" && $0["over"] as? Bool == true })
        #expect(try sandbox.ok(["budget", "list"]).stdout.contains("OVER"))
        let expenses = try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray
        let months = Set(expenses.compactMap { ($0["date"] as? String)?.prefix(7) })
        #expect(months.count == 6)
        #expect(expenses.contains { !($0["tags"] as? [String] ?? []).isEmpty })
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
