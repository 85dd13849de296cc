import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct RuleCommandTests {
    static func withBudgets() throws -> Sandbox {
        try Sandbox.seeded("rule.withBudgets") { sandbox in
            for name in ["Groceries", "Coffee", "Inbox"] { try sandbox.prepare(["budget", "add", name, "--limit", "300"]) }
        }
    }

    static let bank = """
        Date,Description,Amount
        2026-03-01,REWE 0451 Berlin,-45.99
        2026-03-02,"Café
        Crème",-3.20
        2026-03-02,Salary,2500.00
        2026-03-03,Kiosk,-1.50

        """

    @Test func rulesAreAddedListedTestedEditedAndRemoved() throws {
        let sandbox = try Self.withBudgets()
        let added = try sandbox.ok(["rule", "add", "cafe", "--budget", "coffee", "--tag", "Daily"])
        #expect(added.stdout == "Added rule #1 'cafe' → Coffee (tags daily; priority 100).\n")
        try sandbox.ok(["rule", "add", "/^rewe\\s+\\d+/", "-b", "Groceries", "--rename", "REWE", "--priority", "10"])

        let table = try sandbox.ok(["rule", "list"]).stdout
        try expectGolden(table, named: "rule-list.txt")
        let json = try sandbox.ok(["rule", "list", "--json"]).jsonArray
        #expect(json.map { $0["id"] as? Int } == [2, 1])
        #expect(json.first?["rename"] as? String == "REWE")
        #expect(json.last?["rename"] is NSNull)
        #expect(json.last?["tags"] as? [String] == ["daily"])
        #expect(Set(json.first?.keys.map { $0 } ?? []) == ["id", "pattern", "budget", "tags", "rename", "priority", "transferTo", "split", "refund"])

        let fires = try sandbox.run(["rule", "test", "CAFÉ DU MONDE"])
        #expect(fires.status == 0 && fires.stdout == "Fires: rule #1 'cafe' → Coffee (tags daily; priority 100).\n")
        let none = try sandbox.run(["rule", "test", "tea"])
        #expect(none.status == 1 && none.stdout == "No rule matches 'tea'.\n" && none.stderr.isEmpty)

        #expect(try sandbox.ok(["rule", "edit", "1", "--clear-tags", "--priority", "5"]).stdout
            == "Updated rule #1 'cafe' → Coffee (priority 5).\n")
        #expect(try sandbox.ok(["rule", "remove", "2"]).stdout == "Removed rule #2.\n")
        let missing = try sandbox.run(["rule", "remove", "2"])
        #expect(missing.status == 1 && missing.isOneLineFailure && missing.stderr.contains("no rule with id 2"))
    }

    @Test(arguments: [
        (["rule", "add", "/(a+)+$/", "--budget", "Coffee"], "exponential time"),
        (["rule", "add", "/(unclosed/", "--budget", "Coffee"], "not a valid regular expression"),
        (["rule", "add", "x", "--budget", "Nowhere"], "no budget named 'Nowhere'"),
        (["rule", "add", "x"], "needs --budget"),
        (["rule", "add", "x", "--budget", "Coffee", "--priority", "high"], "invalid rule priority 'high'"),
        (["rule", "add", "x", "--budget", "Coffee", "--tag", "a;b"], "invalid tag"),
        (["rule", "edit", "1"], "nothing to change"),
        (["rule", "edit", "1", "--pattern", "/\\1/"], "backreferences"),
        (["rule", "edit", "1", "--budget", "Nowhere"], "no budget named 'Nowhere'"),
        (["rule", "suggest", "--min", "0"], "invalid --min '0'"),
        (["import", "in.csv", "--budget", "Inbox", "--uncategorized", "Inbox"], "cannot be used together"),
    ])
    func badInputIsAUsageErrorThatWritesNothing(arguments: [String], message: String) throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["rule", "add", "kiosk", "--budget", "Inbox"])
        _ = try ImportExportTests.file(sandbox, "in.csv", Self.bank)
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments, currentDirectory: sandbox.directory)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func anImportSortsRowsByRulesAndCountsThem() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["rule", "add", "/^rewe\\s+\\d+/", "-b", "Groceries", "--rename", "REWE"])
        try sandbox.ok(["rule", "add", "cafe", "-b", "Coffee", "--tag", "daily"])
        let path = try ImportExportTests.file(sandbox, "bank.csv", Self.bank)
        let columns = ["--columns", "date=Date,name=Description,amount=Amount", "--expense-sign", "negative"]

        let refused = try sandbox.run(["import", path] + columns)
        #expect(refused.status == 1 && refused.isOneLineFailure)
        #expect(refused.stderr.contains("1 row has no budget and no rule matches it: 'Kiosk'; use --budget BUDGET or --uncategorized BUDGET"))
        #expect(try sandbox.run(["expense", "list", "--json"]).jsonArray.isEmpty)

        let dry = try sandbox.ok(["import", path, "--uncategorized", "Inbox", "--dry-run"] + columns).stdout
        #expect(dry.contains("Rows without a budget cell: by rule: #1 1 row, #2 1 row; uncategorized 1 row; names folded onto one line: 1."))

        let imported = try sandbox.ok(["import", path, "--uncategorized", "Inbox"] + columns).stdout
        #expect(imported.hasPrefix("Imported 3 expenses from '"))
        #expect(imported.contains("; by rule: #1 1 row, #2 1 row; uncategorized 1 row; names folded onto one line: 1; "))
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(expenses.map { $0["name"] as? String } == ["REWE", "Café Crème", "Kiosk"])
        #expect(expenses.map { $0["budget"] as? String } == ["Groceries", "Coffee", "Inbox"])
        #expect(expenses.map { $0["tags"] as? [String] } == [[], ["daily"], ["uncategorized"]])
        let inbox = try sandbox.ok(["expense", "list", "--tag", "uncategorized", "--json"]).jsonArray
        #expect(inbox.count == 1)
    }

    @Test func suggestionsAreCommandsThatRun() throws {
        let sandbox = try Self.withBudgets()
        for (index, name) in ["SPAR 0412 12/03", "Spar 0977", "SPAR **** 4411"].enumerated() {
            try sandbox.ok(["add", name, "2.00", "-b", "Groceries", "--date", "2026-03-0\(index + 1)"])
        }
        try sandbox.ok(["add", "Joe's café 1", "2.00", "-b", "Coffee", "--date", "2026-03-01"])
        try sandbox.ok(["add", "Joe's café 2", "2.00", "-b", "Coffee", "--date", "2026-03-02"])
        try sandbox.ok(["add", "Joe's café 3", "2.00", "-b", "Coffee", "--date", "2026-03-03"])
        let lines = try sandbox.ok(["rule", "suggest"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "tally rule add 'joe'\\''s cafe' --budget Coffee  # 3 expenses",
            "tally rule add spar --budget Groceries  # 3 expenses",
        ])
        #expect(try sandbox.ok(["rule", "suggest", "--min", "4"]).stdout.hasPrefix("# No rules to suggest"))
    }

    @Test func completionsOfferRuleIDs() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["rule", "add", "a", "-b", "Inbox"])
        try sandbox.ok(["rule", "add", "b", "-b", "Inbox"])
        let words = ["tally", "rule", "edit", "--db", sandbox.db, ""]
        let outcome = try sandbox.run(["---completion", "rule", "edit", "--", "positional@0", String(words.count - 1), "0"] + words, useDB: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.split(separator: "\n") == ["1", "2"])
    }
}

extension RuleCommandTests {
    @Test func aJSONBackupCarriesTheRulesIntoANewLedger() throws {
        let sandbox = try Self.withBudgets()
        try sandbox.ok(["rule", "add", "/^rewe\\s+\\d+/", "-b", "Groceries", "--rename", "REWE", "--priority", "10"])
        try sandbox.ok(["rule", "add", "café", "-b", "Coffee", "--tag", "daily", "--tag", "morning"])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup))) as? [String: Any]
        #expect(document?["version"] as? Int == 4)
        #expect((document?["rules"] as? [Any])?.count == 2)

        let restored = sandbox.directory.appendingPathComponent("db/restored.sqlite").path
        try sandbox.run(["import", backup, "--db", restored], useDB: false)
        let original = try sandbox.ok(["rule", "list", "--json"]).jsonArray
        let copy = try sandbox.run(["rule", "list", "--json", "--db", restored], useDB: false).jsonArray
        #expect(copy.count == 2)
        for key in ["pattern", "budget", "tags", "rename", "priority"] {
            #expect(copy.map { "\($0[key] ?? "")" } == original.map { "\($0[key] ?? "")" }, "\(key)")
        }
        // Restored again (forced), equal rules are not doubled.
        try sandbox.run(["import", backup, "--force", "--db", restored], useDB: false)
        #expect(try sandbox.run(["rule", "list", "--json", "--db", restored], useDB: false).jsonArray.count == 2)

        // Without rules a backup stays what version 3 wrote.
        try sandbox.ok(["rule", "remove", "1"])
        try sandbox.ok(["rule", "remove", "2"])
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let plain = try String(contentsOfFile: backup, encoding: .utf8)
        #expect(!plain.contains("\"rules\"") && plain.contains("\"version\": 1"))
    }
}
