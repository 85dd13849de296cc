import Foundation
import TallyTestSupport
import Testing

/// `tally import` of bank statements (OFX, camt.053, MT940, QIF) through the command line: each
/// fixture's dry run against its real import, dedupe, balance checks, transfers, refusals, undo.
@Suite(.ownThreads) struct StatementImportTests {
    static let fixtures = Sandbox.packageRoot.appendingPathComponent("Tests/TallyImportExportTests/Fixtures/Statements")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Every statement fixture (those a reader must refuse aside).
    static let readable: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") && !$0.contains("ambiguous") && !$0.contains("hostile") }.sorted()
    }()

    /// A ledger with a budget for everything and an account for every statement: made once
    /// through the real `tally` and copied (two launches a test before).
    private func ledger() throws -> Sandbox {
        try Sandbox.seeded("statements.ledger") { sandbox in
            try sandbox.prepare(["budget", "add", "Inbox", "--limit", "1000"])
            try sandbox.prepare(["account", "add", "Main", "--kind", "checking"])
        }
    }

    /// "2 expenses, 1 income and 0 transfers" from the summary's first line.
    private func counts(_ text: String) -> String {
        guard let line = text.split(separator: "\n").first, let from = line.range(of: "Imported")?.upperBound ?? line.range(of: "would import")?.upperBound,
            let to = line.range(of: " from ")?.lowerBound
        else { return "" }
        return String(line[from..<to]).trimmingCharacters(in: .whitespaces)
    }

    /// The dry run says exactly what the import then does, and the ledger holds it.
    @Test(arguments: readable) func theDryRunIsTheImport(name: String) throws {
        let sandbox = try ledger()
        let arguments = ["import", Self.fixture(name), "--account", "Main", "--uncategorized", "Inbox"]
        let dryRun = try sandbox.ok(arguments + ["--dry-run"])
        #expect(dryRun.stdout.hasPrefix("Dry run: would import "))
        #expect(dryRun.stdout.contains("nothing was written"))
        let imported = try sandbox.ok(arguments)
        #expect(imported.stdout.hasPrefix("Imported "))
        #expect(counts(dryRun.stdout) == counts(imported.stdout), "\(dryRun.stdout)\n\(imported.stdout)")
        let expenses = try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray.count
        let incomes = try sandbox.ok(["income", "list", "--json"]).jsonArray.count
        #expect(counts(imported.stdout).hasPrefix("\(expenses) expense"), "\(imported.stdout)")
        #expect(counts(imported.stdout).contains(" \(incomes) income"), "\(imported.stdout)")
        // Importing it again adds nothing: the bank's ids (or row keys) are known.
        let again = try sandbox.ok(arguments)
        #expect(counts(again.stdout) == "0 expenses, 0 incomes and 0 transfers", "\(again.stdout)")
    }

    /// An MT940 export imported onto the account its number names: expenses by rule and
    /// fallback, incomes, the closing balance recorded as an assertion; undo takes it all back.
    @Test func anMT940ExportLandsOnItsAccountAndReconciles() throws {
        let sandbox = try ledger()
        try sandbox.ok(["account", "add", "Giro", "--kind", "checking", "--number", "1234567890", "--opening", "1234.56", "--date", "2026-12-29"])
        try sandbox.ok(["budget", "add", "Utilities", "--limit", "200"])
        try sandbox.ok(["rule", "add", "Stadtwerke", "--budget", "Utilities"])
        // The extension says CSV; the content decides.
        let copy = sandbox.directory.appendingPathComponent("umsaetze.csv")
        try FileManager.default.copyItem(atPath: Self.fixture("mt940-german.sta"), toPath: copy.path)
        let imported = try sandbox.ok(["import", copy.path, "--budget", "Inbox"])
        #expect(imported.stdout.contains("Imported 2 expenses, 2 incomes and 0 transfers from"))
        #expect(imported.stdout.contains("(MT940); 0 entries already there; by rule: #1 1 row; fallback 1 row;"))
        #expect(imported.stdout.contains("Statement 1 (1234567890) → Giro, 2026-12-29 to 2027-01-02: 2 expenses, 2 incomes, 0 transfers."))
        #expect(imported.stdout.contains("closing 3,676.57 on 2027-01-02 matches the account: recorded as a balance assertion."))
        let assertions = try sandbox.ok(["reconcile", "--list", "--json"]).jsonArray
        #expect(assertions.map { $0["balance"] as? String } == ["3676.57"])
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.map { $0["budget"] as? String } == ["Utilities", "Inbox"])
        #expect(expenses.allSatisfy { $0["account"] as? String == "Giro" })

        let again = try sandbox.ok(["import", copy.path, "--budget", "Inbox"])
        #expect(again.stdout.contains("4 entries already there"))
        #expect(again.stdout.contains("matches the account, as reconciled before"))

        try sandbox.ok(["undo"])
        try sandbox.ok(["undo"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
        #expect(try sandbox.ok(["income", "list", "--json"]).jsonArray.isEmpty)
        #expect(try sandbox.ok(["reconcile", "--list", "--json"]).jsonArray.isEmpty)
    }

    /// A closing balance that does not match is shown with the difference; the import commits.
    @Test func aBalanceThatDoesNotMatchIsReportedAndTheImportCommits() throws {
        let sandbox = try ledger()
        try sandbox.ok(["account", "add", "Giro", "--kind", "checking", "--number", "1234567890", "--opening", "1000", "--date", "2026-12-29"])
        let imported = try sandbox.ok(["import", Self.fixture("mt940-german.sta"), "--budget", "Inbox"])
        #expect(imported.stdout.contains("closing 3,676.57 on 2027-01-02, Tally has 3,442.01: a difference of 234.56"), "\(imported.stdout)")
        #expect(try sandbox.ok(["reconcile", "--list", "--json"]).jsonArray.isEmpty)
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.count == 2)
    }

    /// A transfer rule turns matching entries into transfers to its account.
    @Test func aTransferRuleMovesMoneyBetweenAccounts() throws {
        let sandbox = try ledger()
        try sandbox.ok(["account", "add", "Savings", "--kind", "savings"])
        try sandbox.ok(["rule", "add", "Miete", "--transfer-to", "Savings", "--rename", "Rent pot"])
        #expect(try sandbox.ok(["rule", "list", "--json"]).jsonArray.first?["transferTo"] as? String == "Savings")
        let imported = try sandbox.ok(["import", Self.fixture("qif-day-first.qif"), "--account", "Main", "--budget", "Inbox"])
        #expect(imported.stdout.contains("1 expense, 1 income and 1 transfer"), "\(imported.stdout)")
        #expect(imported.stdout.contains("Dates read day first (DD/MM/YY)."))
        let transfers = try sandbox.ok(["transfer", "list", "--json"]).jsonArray
        #expect(transfers.map { $0["name"] as? String } == ["Rent pot"])
        #expect(transfers.map { $0["from"] as? String } == ["Main"] && transfers.map { $0["to"] as? String } == ["Savings"])
    }

    /// Account numbers and transfer rules go through a JSON backup and come back as they were.
    @Test func numbersAndTransferRulesRoundTripThroughABackup() throws {
        let sandbox = try ledger()
        try sandbox.ok(["account", "add", "Savings", "--kind", "savings", "--iban", "NL20 INGB 0001 2345 67"])
        try sandbox.ok(["rule", "add", "Sparplan", "--transfer-to", "Savings", "--priority", "5"])
        try sandbox.ok(["rule", "add", "bakery", "--budget", "Inbox"])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let text = try String(contentsOfFile: backup, encoding: .utf8)
        #expect(text.contains(#""number" : "NL20INGB0001234567""#) || text.contains(#""number": "NL20INGB0001234567""#), "\(text)")
        let restored = try Sandbox()
        try restored.ok(["import", backup])
        #expect(try restored.ok(["account", "list", "--json"]).stdout == sandbox.ok(["account", "list", "--json"]).stdout)
        // A restore numbers its rules anew: the transfer rules come after the budget rules.
        func rules(_ sandbox: Sandbox) throws -> [String] {
            try sandbox.ok(["rule", "list", "--json"]).jsonArray.map { rule in
                "\(rule["pattern"] ?? "") \(rule["budget"] ?? "") \(rule["transferTo"] ?? "") \(rule["priority"] ?? "")"
            }
        }
        #expect(try rules(restored) == rules(sandbox))
        // Restoring it again into the same ledger adds no second rule.
        try restored.ok(["import", backup, "--force"])
        #expect(try restored.ok(["rule", "list", "--json"]).jsonArray.count == 2)
    }

    /// Refused files and options: one line on stderr, nothing on stdout, nothing written, and no
    /// database created.
    @Test func refusalsWriteNothing() throws {
        let sandbox = try Sandbox()
        let cases: [([String], Int32, String)] = [
            (["import", Self.fixture("mt940-german.sta"), "--budget", "Inbox"], 1, "is for an account the ledger does not know"),
            (["import", Self.fixture("mt940-german.sta"), "--columns", "date=a,name=b,amount=c"], 64, "--columns does not apply to MT940 files"),
            (["import", Self.fixture("mt940-german.sta"), "--date-format", "dd.MM.yyyy"], 64, "--date-format does not apply to MT940 files"),
            (["import", Self.fixture("qif-day-first.qif"), "--date-format", "yyyy-MM-dd", "--account", "Main"], 64, "a QIF date format puts the day or the month first"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: sandbox.db))
        }
        // A statement for an account the ledger does not know asks for --account.
        let ledger = try ledger()
        let before = try ledger.databaseSnapshot()
        let unknown = try ledger.run(["import", Self.fixture("mt940-german.sta"), "--budget", "Inbox"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "tally: error: statement 1 (1234567890) is for an account the ledger does not know: give --account NAME, or 'tally account edit NAME --number 1234567890'\n")
        // A file that fails after some entries were read writes none of them.
        let ambiguous = try ledger.run(["import", Self.fixture("qif-ambiguous.qif"), "--account", "Main", "--budget", "Inbox"])
        #expect(ambiguous.status == 1 && ambiguous.stdout.isEmpty)
        #expect(ambiguous.stderr.contains("read both month-first and day-first; say which with --date-format MM/dd/yyyy or --date-format dd/MM/yyyy"))
        let truncated = sandbox.directory.appendingPathComponent("cut.sta").path
        let german = try String(contentsOfFile: Self.fixture("mt940-german.sta"), encoding: .utf8)
        try Data(german.utf8.prefix(german.utf8.count - 30)).write(to: URL(fileURLWithPath: truncated))
        let cut = try ledger.run(["import", truncated, "--account", "Main", "--budget", "Inbox"])
        #expect(cut.status == 1 && cut.stdout.isEmpty, "\(cut.stderr)")
        #expect(cut.stderr.split(separator: "\n").count == 1)
        let hostile = sandbox.directory.appendingPathComponent("laughs.xml").path
        try Data(
            (#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>"#
                + #"<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>&lol2;</BkToCstmrStmt></Document>"#).utf8
        ).write(to: URL(fileURLWithPath: hostile))
        let laughs = try ledger.run(["import", hostile, "--account", "Main", "--budget", "Inbox"])
        #expect(laughs.status == 1 && laughs.stdout.isEmpty, "\(laughs.stderr)")
        #expect(laughs.stderr.contains("DOCTYPE"), "\(laughs.stderr)")
        #expect(try ledger.databaseSnapshot() == before)
    }
}
