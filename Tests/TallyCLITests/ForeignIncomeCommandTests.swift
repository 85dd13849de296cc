import Foundation
import TallyTestSupport
import Testing

/// Incomes in other currencies: converted by the expenses' rule, kept with their original, and
/// carried by every surface an income reaches.
@Suite(.ownThreads) struct ForeignIncomeCommandTests {
    func ledger() throws -> Sandbox {
        // Made once through the real `tally` and copied into each test.
        try Sandbox.seeded("foreignIncome.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            try sandbox.prepare(["account", "add", "Checking", "--kind", "checking", "--opening", "100", "--date", "2026-03-01"])
            try ForeignAmountCommandTests.importRates(into: sandbox)
        }
    }

    func incomes(_ sandbox: Sandbox) throws -> [[String: Any]] { try sandbox.ok(["income", "list", "--json"]).jsonArray }

    @Test func anIncomeInAnotherCurrencyTakesTheRateOfItsDayAndKeepsItsOriginal() throws {
        let sandbox = try ledger()
        // Sunday the 8th takes Friday the 6th's USD rate, inverted: 1200 / 1.0823 = 1108.749 → 1108.75.
        let added = try sandbox.ok(["income", "add", "Fee", "1200 USD", "--account", "Checking", "--date", "2026-03-08"]).stdout
        #expect(added.contains("Fee: €1,108.75 (1200.00 USD at ") && added.contains("per USD, from the rate table) to Checking"), "\(added)")
        try sandbox.ok(["income", "add", "Royalty", "5000", "--currency", "JPY", "--account", "Checking", "--date", "2026-03-09", "--rate", "0.0062"])
        try sandbox.ok(["income", "add", "Salary", "3200", "--account", "Checking", "--date", "2026-03-09"])
        let list = try incomes(sandbox)
        let fee = try #require(list.first { $0["name"] as? String == "Fee" })
        #expect(fee["amount"] as? String == "1108.75")
        #expect((fee["originalAmount"] as? String) == "1200.00" && (fee["currency"] as? String) == "USD")
        #expect(fee["rateSource"] as? String == "table")
        let royalty = try #require(list.first { $0["name"] as? String == "Royalty" })
        #expect(royalty["amount"] as? String == "31.00" && royalty["rate"] as? String == "0.0062" && royalty["rateSource"] as? String == "given")
        let salary = try #require(list.first { $0["name"] as? String == "Salary" })
        #expect(salary["originalAmount"] == nil && salary["rate"] == nil && salary["rateSource"] == nil)
        let text = try sandbox.ok(["income", "list"]).stdout
        #expect(text.contains("Received") && text.contains("5000 JPY") && text.contains("0.0062 given"), "\(text)")
        // The balance counts the ledger amounts: 100 + 1108.75 + 31 + 3200.
        let accounts = try sandbox.ok(["account", "list", "--json"]).jsonArray
        #expect(accounts.first?["balance"] as? String == "4439.75")
    }

    @Test func aMissingRateOrBadAmountWritesNothing() throws {
        let sandbox = try ledger()
        let before = try sandbox.databaseSnapshot()
        let missing = try sandbox.run(["income", "add", "Fee", "1200 USD", "--account", "Checking", "--date", "2026-03-01"])
        #expect(missing.status == 1 && missing.isOneLineFailure, "\(missing.stderr)")
        #expect(missing.stderr.contains("USD") && missing.stderr.contains("2026-03-01") && missing.stdout.isEmpty)
        for arguments in [
            ["income", "add", "Fee", "4500.5 JPY", "--account", "Checking"], ["income", "add", "Fee", "12", "--currency", "QQQ", "--account", "Checking"],
            ["income", "add", "Fee", "12", "--rate", "2", "--account", "Checking"], ["income", "edit", "1", "--currency", "USD"],
            ["income", "edit", "1", "--rate", "-1"],
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64 && outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(arguments): \(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func editingConvertsAgainAndAPlainAmountDropsTheOriginal() throws {
        let sandbox = try ledger()
        try sandbox.ok(["income", "add", "Fee", "1200 USD", "--account", "Checking", "--date", "2026-03-08"])
        func fee() throws -> [String: Any] { try #require(try incomes(sandbox).first) }
        try sandbox.ok(["income", "edit", "1", "--amount", "1000", "--currency", "USD"])
        #expect(try fee()["amount"] as? String == "923.96")
        try sandbox.ok(["income", "edit", "1", "--rate", "0.9"])
        #expect(try fee()["amount"] as? String == "900.00" && (try fee()["rateSource"] as? String) == "given")
        // A given rate stays when the day moves; the table's is taken again on request, on the new day.
        try sandbox.ok(["income", "edit", "1", "--date", "2026-03-09"])
        #expect(try fee()["rate"] as? String == "0.9")
        try sandbox.ok(["income", "edit", "1", "--rate", "table"])
        #expect(try fee()["rateSource"] as? String == "table" && (try fee()["amount"] as? String) == "922.42")
        try sandbox.ok(["income", "edit", "1", "--amount", "12.50"])
        #expect(try fee()["amount"] as? String == "12.50" && (try fee()["originalAmount"]) == nil)
        let outcome = try sandbox.run(["income", "edit", "1", "--rate", "0.5"])
        #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(outcome.stderr)")
    }

    @Test func reapplyConvertsTableRateIncomesAgainAndUndoesAsOne() throws {
        let sandbox = try ledger()
        try sandbox.ok(["income", "add", "Fee", "1200 USD", "--account", "Checking", "--date", "2026-03-08"])
        try sandbox.ok(["income", "add", "Royalty", "5000 JPY", "--account", "Checking", "--date", "2026-03-08", "--rate", "0.0062"])
        try sandbox.ok(["rates", "set", "2026-03-07", "USD", "EUR", "0.95"])
        let dry = try sandbox.ok(["rates", "reapply", "--dry-run"]).stdout
        #expect(dry.contains("1 income would change: €1,108.75 before, €1,140.00 after (+€31.25); nothing was written."), "\(dry)")
        let json = try sandbox.ok(["rates", "reapply", "--dry-run", "--json"]).jsonArray
        #expect(json.count == 1 && json.first?["income"] as? Bool == true && json.first?["account"] as? String == "Checking")
        #expect(json.first?["budget"] == nil && json.first?["after"] as? String == "1140.00")
        try sandbox.ok(["rates", "reapply"])
        #expect(try incomes(sandbox).compactMap { $0["amount"] as? String } == ["1140.00", "31.00"])
        try sandbox.ok(["undo"])
        #expect(try incomes(sandbox).compactMap { $0["amount"] as? String } == ["1108.75", "31.00"])
    }

    /// A JSON backup carries an income's original (document version 13) and restores it exactly;
    /// a CSV export fills its currency columns.
    @Test func backupsCarryAnIncomesOriginal() throws {
        let sandbox = try ledger()
        try sandbox.ok(["income", "add", "Fee", "1200 USD", "--account", "Checking", "--date", "2026-03-08"])
        try sandbox.ok(["income", "add", "Salary", "3200", "--account", "Checking", "--date", "2026-03-09"])
        let backup = sandbox.directory.appendingPathComponent("backup.json")
        try sandbox.ok(["export", "--format", "json", "--output", backup.path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: backup)) as? [String: Any])
        #expect(document["version"] as? Int == 13)
        let entries = document["incomes"] as? [[String: Any]] ?? []
        #expect((entries.first?["original"] as? [String: String]) == ["amount": "1200.00", "currency": "USD"])
        #expect(entries.last?["original"] == nil)

        let restored = try Sandbox()
        try restored.ok(["import", backup.path])
        #expect(try restored.ok(["income", "list", "--json"]).stdout == sandbox.ok(["income", "list", "--json"]).stdout)
        let again = restored.directory.appendingPathComponent("again.json")
        try restored.ok(["export", "--format", "json", "--output", again.path])
        #expect(try Data(contentsOf: again) == Data(contentsOf: backup))

        let csv = try sandbox.ok(["export", "--format", "csv"]).stdout
        let lines = csv.split(separator: "\n")
        #expect(lines.first?.hasSuffix("original,currency,rate,rate source,kind") == true, "\(csv)")
        #expect(lines.contains { $0.hasPrefix("2026-03-08,,Fee,1108.75,") && $0.hasSuffix(",1200.00,USD,0.923958237088,table,income") }, "\(csv)")
    }
}
