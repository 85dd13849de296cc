import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct AccountCommandTests {
    /// A household's month: an account of each kind, salary in, savings and the card paid by
    /// transfer. Balances follow the README's rule, the liability as what is owed.
    @Test func balancesFollowIncomesAndTransfersAndShowInEveryListing() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["account", "add", "Checking", "--kind", "checking", "--opening", "1200", "--date", "2026-11-01"])
        try sandbox.ok(["account", "add", "Visa", "--kind", "credit", "--opening", "300", "--date", "2026-11-01"])
        try sandbox.ok(["account", "add", "Savings", "--kind", "savings", "--opening", "-20.50", "--date", "2026-11-01"])
        #expect(try sandbox.ok(["income", "add", "Salary", "3200", "--account", "checking", "--date", "2026-11-02", "--by", "Anna"]).stdout
            == "Added income #1 2026-11-02 Salary: 3,200.00 to Checking.\n")
        try sandbox.ok(["transfer", "500", "--from", "Checking", "--to", "savings", "--date", "2026-11-05"])
        #expect(try sandbox.ok(["transfer", "250.50", "--from", "checking", "--to", "VISA", "--date", "2026-11-06", "--name", "Card payment"]).stdout
            == "Added transfer #2 2026-11-06: 250.50 from Checking to Visa.\n")

        let accounts = try sandbox.ok(["account", "list", "--json"]).jsonArray
        #expect(accounts.map { $0["name"] as? String } == ["Checking", "Savings", "Visa"])
        #expect(accounts.map { $0["balance"] as? String } == ["3649.50", "479.50", "49.50"])
        #expect(accounts.map { $0["liability"] as? Bool } == [false, false, true])
        try expectGolden(try sandbox.ok(["account", "show", "checking", "--month", "2026-11"]).stdout, named: "account-show.txt")

        let incomes = try sandbox.ok(["income", "list", "--month", "2026-11", "--json"]).jsonArray
        #expect(incomes.first?["account"] as? String == "Checking" && incomes.first?["by"] as? String == "Anna")
        let transfers = try sandbox.ok(["transfer", "list", "--account", "visa", "--json"]).jsonArray
        #expect(transfers.map { $0["name"] as? String } == ["Card payment"])
        #expect(try sandbox.ok(["transfer", "list", "--search", "CARD", "--json"]).jsonArray.map { $0["id"] as? Int } == [2])
    }

    /// A match records the assertion and locks the entries; a miss records nothing, says the
    /// difference and exits 1; a forced change breaks the assertion, which `check` reports at
    /// its highest level.
    @Test func reconcilingLocksWhatMatchesAndCheckReportsWhatBreaksIt() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["account", "add", "Checking", "--kind", "checking", "--opening", "100", "--date", "2026-11-01"])
        try sandbox.ok(["income", "add", "Salary", "50", "--account", "checking", "--date", "2026-11-10"])
        let before = try sandbox.databaseSnapshot()
        let miss = try sandbox.run(["reconcile", "Checking", "--balance", "160", "--as-of", "2026-11-30"])
        #expect(miss.status == 1)
        #expect(miss.stdout.hasPrefix("Checking does not reconcile on 2026-11-30: the bank says 160.00, Tally has 150.00, a difference of 10.00."))
        #expect(miss.stdout.contains("Salary"))
        #expect(try sandbox.databaseSnapshot() == before)

        #expect(try sandbox.ok(["reconcile", "checking", "--balance", "150", "--as-of", "2026-11-30"]).stdout
            == "Reconciled Checking through 2026-11-30: balance 150.00.\n")
        let locked = try sandbox.run(["income", "edit", "1", "--amount", "60"])
        #expect(locked.status == 1 && locked.isOneLineFailure && locked.stderr.contains("(use --force)"), "\(locked.stderr)")
        #expect(try sandbox.run(["check"]).status == 0)
        try sandbox.ok(["income", "edit", "1", "--amount", "60", "--force"])
        let check = try sandbox.run(["check"])
        #expect(check.status == 2)
        #expect(check.stdout.contains("Checking: the balance of 2026-11-30 was reconciled at 150.00; the entries now give 160.00, a difference of 10.00"))
        let listed = try sandbox.ok(["reconcile", "--list", "--json"]).jsonArray
        #expect(listed.map { $0["date"] as? String } == ["2026-11-30"])
        try sandbox.ok(["undo"])
        #expect(try sandbox.run(["check"]).status == 0)
    }

    @Test(arguments: [
        (["transfer", "5", "--from", "cash", "--to", " CASH "], 64),
        (["transfer", "0", "--from", "cash", "--to", "card"], 64),
        (["income", "add", "Tip", "-5", "--account", "cash"], 64),
        (["account", "add", "Bank", "--kind", "bank"], 64),
        (["reconcile", "cash", "--balance", "12,3.4"], 64),
        (["income", "add", "Tip", "5", "--account", "Nowhere"], 1),
        (["transfer", "5", "--from", "cash", "--to", "Nowhere"], 1),
    ])
    func badInputIsOneLineAndChangesNothing(arguments: [String], status: Int) throws {
        let sandbox = try Sandbox.seeded("accounts") { sandbox in
            try sandbox.ok(["account", "add", "Cash", "--kind", "cash"])
            try sandbox.ok(["account", "add", "Card", "--kind", "credit"])
        }
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(Int(outcome.status) == status && outcome.isOneLineFailure, "\(arguments): \(outcome.status) \(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        // Nor does a refused command create a ledger.
        let empty = try Sandbox()
        #expect(try empty.run(arguments).status != 0)
        #expect(!FileManager.default.fileExists(atPath: empty.db))
    }
}
