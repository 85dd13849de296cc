import Foundation
import TallyTestSupport
import Testing

/// `rule add --split` and `--refund` (issue 30): the rules, their list, and what CSV and
/// statement imports make of matching rows, dry run and undo included.
@Suite(.ownThreads) struct RuleSplitCommandTests {
    static func ledger() throws -> Sandbox {
        try Sandbox.seeded("ruleSplit.ledger") { sandbox in
            for name in ["Groceries", "Household", "Inbox"] { try sandbox.prepare(["budget", "add", name, "--limit", "500"]) }
            try sandbox.prepare(["account", "add", "Main", "--kind", "checking"])
        }
    }

    static let bank = """
        Date,Description,Amount
        2026-03-01,COSTCO WHOLESALE 118,-100.01
        2026-03-02,Costco refund 118,25.00
        2026-03-03,Salary,2500.00
        2026-03-04,Kiosk,-1.50

        """

    static let qif = """
        !Type:Bank
        D03.01.2026
        T-100,01
        PCOSTCO WHOLESALE 118
        ^
        D05.01.2026
        T25,00
        PCOSTCO REFUND 118
        ^
        D15.01.2026
        T2.500,00
        PArbeitgeber AG
        ^

        """

    @Test func splitAndRefundRulesAreAddedListedAndEdited() throws {
        let sandbox = try Self.ledger()
        let added = try sandbox.ok(["rule", "add", "costco", "--split", "groceries=70%", "--split", "household=rest"])
        #expect(added.stdout == "Added rule #1 'costco' → Groceries=70%, Household=rest (priority 100).\n")
        let refund = try sandbox.ok(["rule", "add", "refund", "-b", "Household", "--refund", "--priority", "10"])
        #expect(refund.stdout == "Added rule #2 'refund' → Household (refunds too) (priority 10).\n")
        try expectGolden(try sandbox.ok(["rule", "list"]).stdout, named: "rule-list-split.txt")
        let json = try sandbox.ok(["rule", "list", "--json"]).jsonArray
        #expect(json.map { $0["refund"] as? Bool } == [true, false])
        #expect(json.first?["split"] is NSNull)
        let lines = try #require(json.last?["split"] as? [[String: Any]])
        #expect(lines.map { $0["budget"] as? String } == ["Groceries", "Household"])
        #expect(lines.map { $0["share"] as? String } == ["70%", "rest"])
        #expect(json.last?["budget"] as? String == "Groceries")

        // Edits: a split rule made a one-budget rule again, and a refund rule no longer one.
        #expect(try sandbox.ok(["rule", "edit", "1", "--budget", "Inbox"]).stdout == "Updated rule #1 'costco' → Inbox (priority 100).\n")
        #expect(try sandbox.ok(["rule", "edit", "2", "--no-refund"]).stdout == "Updated rule #2 'refund' → Household (priority 10).\n")
        #expect(try sandbox.ok(["rule", "edit", "1", "--split", "Groceries=20", "--split", "Inbox=rest"]).stdout
            == "Updated rule #1 'costco' → Groceries=20.00, Inbox=rest (priority 100).\n")
        // Removing a budget that is one of a split's lines removes the rule with it.
        try sandbox.ok(["budget", "remove", "Inbox"])
        #expect(try sandbox.ok(["rule", "list", "--json"]).jsonArray.map { $0["id"] as? Int } == [2])
    }

    @Test(arguments: [
        (["rule", "add", "x", "--split", "Groceries=rest", "--split", "Household=rest"], "only one line can take the rest"),
        (["rule", "add", "x", "--split", "Groceries=50%", "--split", "Household=20%"], "must fit any amount"),
        (["rule", "add", "x", "--split", "Groceries=10", "--split", "Household=20"], "must fit any amount"),
        (["rule", "add", "x", "--split", "Groceries=rest"], "at least two lines"),
        (["rule", "add", "x", "--split", "Groceries"], "invalid split line 'Groceries'"),
        (["rule", "add", "x", "--split", "Groceries=70%", "--split", "Nowhere=rest"], "no budget named 'Nowhere'"),
        (["rule", "add", "x", "-b", "Groceries", "--split", "Groceries=70%", "--split", "Household=rest"], "--split cannot be used with --budget"),
        (["rule", "add", "x", "--refund", "--split", "Groceries=70%", "--split", "Household=rest"], "a refund cannot be split"),
        (["rule", "add", "x", "--refund", "--transfer-to", "Main"], "--refund does not apply to a transfer rule"),
        (["rule", "add", "x", "--refund"], "needs --budget"),
    ])
    func badRulesAreUsageErrorsThatWriteNothing(arguments: [String], message: String) throws {
        let sandbox = try Self.ledger()
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    /// A CSV import: the split rule shares each match, the refund rule takes money in that the
    /// CSV import otherwise skips; the dry run says the same; undo takes it all back.
    @Test func aCSVImportSplitsAndRefundsByRule() throws {
        let sandbox = try Self.ledger()
        try sandbox.ok(["rule", "add", "costco", "--split", "groceries=70%", "--split", "household=rest", "--tag", "bulk"])
        try sandbox.ok(["rule", "add", "refund", "-b", "Household", "--refund", "--priority", "10"])
        let path = try ImportExportTests.file(sandbox, "bank.csv", Self.bank)
        let arguments = ["import", path, "--columns", "date=Date,name=Description,amount=Amount", "--expense-sign", "negative", "--uncategorized", "Inbox"]
        let dry = try sandbox.ok(arguments + ["--dry-run"]).stdout
        #expect(dry.contains("would import 3 expenses"), "\(dry)")
        let imported = try sandbox.ok(arguments).stdout
        #expect(imported.hasPrefix("Imported 3 expenses from '"), "\(imported)")
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        let costco = try #require(expenses.first { $0["name"] as? String == "COSTCO WHOLESALE 118" })
        let lines = try #require(costco["lines"] as? [[String: Any]])
        #expect(lines.map { $0["amount"] as? String } == ["70.01", "30.00"])
        #expect(lines.map { $0["budget"] as? String } == ["Groceries", "Household"])
        #expect(costco["tags"] as? [String] == ["bulk"])
        let refund = try #require(expenses.first { $0["name"] as? String == "Costco refund 118" })
        #expect(refund["refund"] as? Bool == true && refund["budget"] as? String == "Household" && refund["amount"] as? String == "25.00")
        // Household: 30.00 spent by the split, 25.00 back.
        let household = try sandbox.ok(["budget", "show", "Household", "--month", "2026-03", "--json"]).jsonObject
        #expect(household["spent"] as? String == "5.00", "\(household)")

        // Imported again: every row is known, a split by its whole expense.
        let again = try sandbox.ok(arguments).stdout
        #expect(again.hasPrefix("Imported 0 expenses"), "\(again)")
        try sandbox.ok(["undo"])
        try sandbox.ok(["undo"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
    }

    /// A bank statement (QIF here; every statement format goes through the same plan): the
    /// matching debit is split, the matching credit a refund instead of an income; the other
    /// credit stays an income, and the balance counts the refund as money in.
    @Test func aStatementImportSplitsAndRefundsByRule() throws {
        let sandbox = try Self.ledger()
        try sandbox.ok(["rule", "add", "costco", "--split", "groceries=70%", "--split", "household=rest"])
        try sandbox.ok(["rule", "add", "refund", "-b", "Household", "--refund", "--priority", "10"])
        let path = try ImportExportTests.file(sandbox, "bank.qif", Self.qif)
        let arguments = ["import", path, "--account", "Main", "--budget", "Inbox"]
        let dry = try sandbox.ok(arguments + ["--dry-run"]).stdout
        #expect(dry.contains("would import 2 expenses, 1 income and 0 transfers"), "\(dry)")
        let imported = try sandbox.ok(arguments).stdout
        #expect(imported.contains("Imported 2 expenses, 1 income and 0 transfers"), "\(imported)")
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.contains { ($0["lines"] as? [[String: Any]])?.map { $0["amount"] as? String } == ["70.01", "30.00"] })
        #expect(expenses.contains { $0["refund"] as? Bool == true && $0["budget"] as? String == "Household" && $0["account"] as? String == "Main" })
        #expect(try sandbox.ok(["income", "list", "--json"]).jsonArray.count == 1)
        // 2,500.00 + 25.00 in, 100.01 out.
        let account = try sandbox.ok(["account", "list", "--json"]).jsonArray.first
        #expect(account?["balance"] as? String == "2424.99", "\(String(describing: account))")
        let again = try sandbox.ok(arguments).stdout
        #expect(again.contains("3 entries already there"), "\(again)")
        try sandbox.ok(["undo"])
        try sandbox.ok(["undo"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
        #expect(try sandbox.ok(["income", "list", "--json"]).jsonArray.isEmpty)
    }

    /// A JSON export of a ledger with split and refund rules is version 12, imports into a new
    /// ledger with the same rules, and exports from there byte for byte the same.
    @Test func splitAndRefundRulesRoundTripThroughABackup() throws {
        let sandbox = try Self.ledger()
        try sandbox.ok(["rule", "add", "costco", "--split", "groceries=70%,name=Food,tag=bulk", "--split", "household=rest"])
        try sandbox.ok(["rule", "add", "refund", "-b", "Household", "--refund"])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let text = try String(contentsOfFile: backup, encoding: .utf8)
        #expect(text.contains("\"version\": 12"), "\(text)")
        let restored = try Sandbox()
        try restored.ok(["import", backup])
        #expect(try restored.ok(["rule", "list", "--json"]).stdout == sandbox.ok(["rule", "list", "--json"]).stdout)
        let copy = restored.directory.appendingPathComponent("copy.json").path
        try restored.ok(["export", "--format", "json", "--output", copy])
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == text)
        // Without such rules the document keeps its older version.
        try sandbox.ok(["rule", "remove", "1"])
        try sandbox.ok(["rule", "remove", "2"])
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        #expect(!(try String(contentsOfFile: backup, encoding: .utf8)).contains("\"version\": 12"))
    }
}
