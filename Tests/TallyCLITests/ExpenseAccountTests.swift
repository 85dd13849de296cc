import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Expenses paid from an account: `--account` on `add`, `expense edit` and `import`, the
/// ledger's `default-account` and the config file's, and what they do to balances.
@Suite(.ownThreads) struct ExpenseAccountTests {
    /// A sandbox with a budget, a checking account and a card, both open from November: made
    /// once through the real `tally` and copied into each test.
    private func household() throws -> Sandbox {
        try Sandbox.seeded("expenseAccount.household") { sandbox in
            try sandbox.prepare(["budget", "add", "Food", "--limit", "400"])
            try sandbox.prepare(["account", "add", "Checking", "--kind", "checking", "--opening", "1000", "--date", "2026-11-01"])
            try sandbox.prepare(["account", "add", "Visa", "--kind", "credit", "--date", "2026-11-01"])
        }
    }

    private func balances(_ sandbox: Sandbox) throws -> [String] {
        try sandbox.ok(["account", "list", "--json"]).jsonArray.compactMap { $0["balance"] as? String }
    }

    /// Spending from an asset lowers it, from a card raises what is owed; the account shows in
    /// the lists, and `account show` lists the expense among the month's entries.
    @Test func anExpensePaidFromAnAccountMovesItsBalance() throws {
        let sandbox = try household()
        try sandbox.ok(["add", "Groceries", "42.50", "-b", "food", "--account", "checking", "--date", "2026-11-03"])
        try sandbox.ok(["add", "Pizza", "12", "-b", "Food", "--account", "VISA", "--date", "2026-11-04", "--quantity", "2"])
        try sandbox.ok(["add", "Bread", "3", "-b", "Food", "--date", "2026-11-05"])
        #expect(try balances(sandbox) == ["957.50", "24.00"])
        let listed = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(listed.map { $0["account"] as? String } == ["Checking", "Visa", nil])
        #expect(try sandbox.ok(["expense", "list", "--account", "visa", "--json"]).jsonArray.map { $0["name"] as? String } == ["Pizza"])
        #expect(try sandbox.ok(["expense", "list"]).stdout.contains("Account"))
        let shown = try sandbox.ok(["account", "show", "checking", "--month", "2026-11", "--json"]).jsonObject
        let entries = shown["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["kind"] as? String } == ["expense"])
        #expect(entries.first?["name"] as? String == "Groceries")
    }

    /// The ledger's default account pays for expenses that name none; the config file's wins
    /// over it; `--account` wins over both. Removing the account clears the setting.
    @Test func theDefaultAccountComesFromTheConfigFileThenTheLedger() throws {
        let sandbox = try household()
        #expect(try sandbox.ok(["settings", "set", "default-account", "checking"]).stdout
            == "Expenses are now paid from 'Checking' unless they name an account.\n")
        #expect(try sandbox.ok(["settings", "show"]).stdout.contains("default-account Checking\n"))
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["defaultAccount"] as? String == "Checking")
        try sandbox.ok(["add", "Milk", "2", "-b", "Food", "--date", "2026-11-02"])
        try sandbox.writeConfig("default-account = \"Visa\"\n")
        try sandbox.ok(["add", "Cheese", "5", "-b", "Food", "--date", "2026-11-02"])
        try sandbox.ok(["expense", "add", "Eggs", "4", "-b", "Food", "--date", "2026-11-02", "--account", "checking"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.map { $0["account"] as? String } == ["Checking", "Visa", "Checking"])
        try sandbox.writeConfig("")
        try sandbox.ok(["settings", "set", "default-account", "none"])
        try sandbox.ok(["add", "Tea", "1", "-b", "Food", "--date", "2026-11-02"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.last?["account"] is NSNull)
    }

    /// An unknown account, or a day before the account opened, refuses the expense in one line,
    /// exit 1, and writes nothing; without a ledger, none is created.
    @Test func aBadAccountIsRefusedAndWritesNothing() throws {
        let sandbox = try household()
        let before = try sandbox.databaseSnapshot()
        let unknown = try sandbox.run(["add", "Milk", "2", "-b", "Food", "--account", "Nope"])
        #expect(unknown.status == 1 && unknown.isOneLineFailure && unknown.stderr.contains("no account named 'Nope'"), "\(unknown.stderr)")
        let early = try sandbox.run(["add", "Milk", "2", "-b", "Food", "--account", "Checking", "--date", "2026-10-31"])
        #expect(early.status == 1 && early.isOneLineFailure && early.stdout.isEmpty, "\(early.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        let fresh = try Sandbox()
        let none = try fresh.run(["add", "Milk", "2", "-b", "Food", "--account", "Nope"])
        #expect(none.status != 0 && none.isOneLineFailure)
        #expect(!FileManager.default.fileExists(atPath: fresh.db))
    }

    /// An expense on a reconciled day changes or goes only with `--force`; `expense edit` moves
    /// it between accounts or off them, and undo puts everything back.
    @Test func reconciledExpensesChangeOnlyWithForce() throws {
        let sandbox = try household()
        try sandbox.ok(["add", "Groceries", "100", "-b", "Food", "--account", "checking", "--date", "2026-11-03"])
        try sandbox.ok(["reconcile", "checking", "--balance", "900", "--as-of", "2026-11-30"])
        let locked = try sandbox.run(["expense", "edit", "1", "--amount", "90"])
        #expect(locked.status == 1 && locked.isOneLineFailure && locked.stderr.contains("(use --force)"), "\(locked.stderr)")
        let removal = try sandbox.run(["expense", "remove", "1"])
        #expect(removal.status == 1 && removal.stderr.contains("(use --force)"))
        try sandbox.ok(["expense", "edit", "1", "--account", "visa", "--force"])
        #expect(try balances(sandbox) == ["1000.00", "100.00"])
        #expect(try sandbox.run(["check"]).status == 2)
        try sandbox.ok(["undo"])
        #expect(try balances(sandbox) == ["900.00", "0.00"])
        try sandbox.ok(["add", "Later", "5", "-b", "Food", "--account", "checking", "--date", "2026-12-01"])
        try sandbox.ok(["expense", "edit", "2", "--no-account"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.last?["account"] is NSNull)
    }

    /// `import --account` pays every row of a CSV file from the account; removing the account
    /// keeps the expenses in their budgets, paid from no account.
    @Test func anImportIsPaidFromItsAccountAndOutlivesIt() throws {
        let sandbox = try household()
        let file = sandbox.directory.appendingPathComponent("bank.csv")
        try "date,name,amount,budget\n2026-11-03,Market,20.00,Food\n2026-11-04,Bakery,4.50,Food\n".write(to: file, atomically: true, encoding: .utf8)
        try sandbox.ok(["import", file.path, "--account", "checking"])
        #expect(try balances(sandbox) == ["975.50", "0.00"])
        let refused = try sandbox.run(["account", "remove", "Checking"])
        #expect(refused.status != 0 && refused.stderr.contains("2 expenses"), "\(refused.stderr)")
        #expect(try sandbox.ok(["account", "remove", "Checking", "--yes"]).stdout.contains("2 expenses now name no account"))
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.allSatisfy { $0["account"] is NSNull })
        #expect(try sandbox.ok(["report", "--month", "2026-11", "--format", "json"]).jsonObject.isEmpty == false)
        try sandbox.ok(["undo"])
        #expect(try balances(sandbox) == ["975.50", "0.00"])
    }
}

extension ExpenseAccountTests {
    /// A JSON backup carries each expense's account and the default account; restored into an
    /// empty ledger it exports byte for byte the same, and `db copy` keeps them too.
    @Test func expenseAccountsSurviveTheBackupAndTheCopy() throws {
        let sandbox = try household()
        try sandbox.ok(["settings", "set", "default-account", "visa"])
        try sandbox.ok(["add", "Groceries", "42.50", "-b", "Food", "--account", "checking", "--date", "2026-11-03"])
        try sandbox.ok(["add", "Pizza", "12", "-b", "Food", "--date", "2026-11-04"])
        try sandbox.ok(["add", "Bread", "3", "-b", "Food", "--date", "2026-11-05"])
        try sandbox.ok(["expense", "edit", "3", "--no-account"])
        let backup = sandbox.directory.appendingPathComponent("backup.json")
        try sandbox.ok(["export", "--format", "json", "--output", backup.path])
        let text = try String(contentsOf: backup, encoding: .utf8)
        #expect(text.contains("\"defaultAccount\": \"Visa\"") && text.contains("\"account\": \"Checking\""), "\(text)")

        let restored = try Sandbox()
        try restored.ok(["import", backup.path])
        let again = restored.directory.appendingPathComponent("again.json")
        try restored.ok(["export", "--format", "json", "--output", again.path])
        #expect(try String(contentsOf: again, encoding: .utf8) == text)
        #expect(try balances(restored) == (try balances(sandbox)))

        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        try sandbox.ok(["db", "copy", sandbox.db, copy], useDB: false)
        let copied = try sandbox.ok(["expense", "list", "--json", "--db", copy], useDB: false).jsonArray
        #expect(copied.map { $0["account"] as? String } == ["Checking", "Visa", nil])
    }

    /// An expense naming an account the document does not declare is refused, naming it.
    @Test func aBackupNamingAnUnknownAccountIsRefused() throws {
        let sandbox = try household()
        try sandbox.ok(["add", "Groceries", "42.50", "-b", "Food", "--account", "checking", "--date", "2026-11-03"])
        let backup = sandbox.directory.appendingPathComponent("backup.json")
        try sandbox.ok(["export", "--format", "json", "--output", backup.path])
        let broken = try String(contentsOf: backup, encoding: .utf8).replacingOccurrences(of: "\"account\": \"Checking\"", with: "\"account\": \"Nowhere\"")
        try broken.write(to: backup, atomically: true, encoding: .utf8)
        let fresh = try Sandbox()
        let outcome = try fresh.run(["import", backup.path])
        #expect(outcome.status != 0 && outcome.isOneLineFailure && outcome.stderr.contains("expenses[0].account 'Nowhere'"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh.db))
    }
}
