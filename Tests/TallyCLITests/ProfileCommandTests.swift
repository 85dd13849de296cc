import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ProfileCommandTests {
    static let german = """
        Buchungstag;Verwendungszweck;Betrag
        03.01.2026;Coffee shop;-3.20
        04.01.2026;Kiosk;-2.00
        04.01.2026;Gehalt;2500.00

        """

    @Test func aSavedProfileReadsTheNextExportWithOneFlagAndKeepsItsOwnRowKeys() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "100"])
        try sandbox.ok(["budget", "add", "Coffee", "--limit", "100"])
        try sandbox.ok(["rule", "add", "coffee", "-b", "Coffee"])
        let first = try ImportExportTests.file(sandbox, "jan.csv", Self.german)
        let saved = try sandbox.ok([
            "import", first, "--columns", "date=Buchungstag,name=Verwendungszweck,amount=Betrag", "--date-format", "dd.MM.yyyy",
            "--expense-sign", "negative", "--uncategorized", "Inbox", "--save-profile", "Sparkasse",
        ]).stdout
        #expect(saved.hasPrefix("Imported 2 expenses") && saved.hasSuffix("\nSaved import profile 'Sparkasse'.\n"), "\(saved)")

        let list = try sandbox.ok(["profile", "list", "--json"]).jsonArray
        #expect(list.count == 1)
        #expect(list.first?["dateFormat"] as? String == "dd.MM.yyyy")
        #expect(list.first?["uncategorized"] as? Bool == true)
        #expect(list.first?["delimiter"] is NSNull, "the delimiter was read from the header")
        let shown = try sandbox.ok(["profile", "show", "sparkasse"]).stdout
        #expect(shown.contains("fallback Inbox (uncategorized)"))

        // The next month overlaps by one row; the profile reads it and knows that row.
        let second = try ImportExportTests.file(sandbox, "feb.csv", """
            Buchungstag;Verwendungszweck;Betrag
            04.01.2026;Kiosk;-2.00
            05.02.2026;Bakery;-4.00

            """)
        let next = try sandbox.ok(["import", second, "--profile", "SPARKASSE"]).stdout
        #expect(next.hasPrefix("Imported 1 expense ") && next.contains("; 1 row already there; "), "\(next)")
        // A flag given beside the profile wins: --budget instead of its --uncategorized fallback.
        let third = try ImportExportTests.file(sandbox, "mar.csv", "Buchungstag;Verwendungszweck;Betrag\n01.03.2026;Shop;-1.00\n")
        #expect(try sandbox.ok(["import", third, "--profile", "Sparkasse", "--budget", "Inbox"]).stdout.contains("fallback 1 row"))

        try sandbox.ok(["profile", "remove", "Sparkasse"])
        #expect(try sandbox.ok(["profile", "list"]).stdout.hasPrefix("No import profiles yet."))
    }

    @Test(arguments: [
        (["import", "in.csv", "--profile", "Nope"], "no import profile named 'Nope'"),
        (["import", "in.csv", "--delimiter", "|"], "invalid --delimiter '|'"),
        (["import", "in.csv", "--save-profile", " "], "profile name must not be empty"),
        (["profile", "show", "Nope"], "no import profile named 'Nope'"),
        (["profile", "remove", "Nope"], "no import profile named 'Nope'"),
    ])
    func badProfileInputIsAUsageErrorThatWritesNothing(arguments: [String], message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "100"])
        _ = try ImportExportTests.file(sandbox, "in.csv", "date,budget,name,amount\n2026-01-01,Inbox,Shop,1.00\n")
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(arguments, currentDirectory: sandbox.directory)
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func theDelimiterIsReadFromTheHeaderOrGiven() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "100"])
        let tabs = try ImportExportTests.file(sandbox, "tabs.csv", "date\tbudget\tname\tamount\n2026-01-01\tInbox\tShop, Berlin\t1.00\n")
        #expect(try sandbox.ok(["import", tabs]).stdout.hasPrefix("Imported 1 expense "))
        let semicolons = try ImportExportTests.file(sandbox, "semi.csv", "date;budget;name;amount\n2026-01-02;Inbox;Shop;1.00\n")
        #expect(try sandbox.ok(["import", semicolons, "--delimiter", ";"]).stdout.hasPrefix("Imported 1 expense "))
        let names = try sandbox.ok(["expense", "list", "--json"]).jsonArray.map { $0["name"] as? String }
        #expect(names == ["Shop, Berlin", "Shop"])
    }

    @Test func completionsOfferProfileNames() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "100"])
        let file = try ImportExportTests.file(sandbox, "in.csv", "date,budget,name,amount\n2026-01-01,Inbox,Shop,1.00\n")
        try sandbox.ok(["import", file, "--save-profile", "Amex"])
        let words = ["tally", "import", "x.csv", "--db", sandbox.db, "--profile", ""]
        let outcome = try sandbox.run(["---completion", "import", "--", "--profile", String(words.count - 1), "0"] + words, useDB: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.split(separator: "\n") == ["Amex"])
    }
}

extension ProfileCommandTests {
    @Test func decimalCommasAndCurrencySignsAreReadWhenNamed() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "5000"])
        let path = try ImportExportTests.file(sandbox, "fr.csv", "Date;Libellé;Montant\n2026-01-03;Loyer;-1 234,56 €\n2026-01-04;Café;-3,20\n")
        let arguments = ["import", path, "--columns", "date=Date,name=Libellé,amount=Montant", "--expense-sign", "negative", "--budget", "Inbox"]
        let refused = try sandbox.run(arguments)
        #expect(refused.status == 1 && refused.isOneLineFailure && refused.stderr.contains("line 2, column 'Montant'"), "\(refused.stderr)")
        let imported = try sandbox.ok(arguments + ["--decimal-comma", "--currency", "eur"]).stdout
        #expect(imported.hasPrefix("Imported 2 expenses"), "\(imported)")
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.map { $0["amount"] as? String } == ["1234.56", "3.20"])
        let bad = try sandbox.run(arguments + ["--currency", "XYZ"])
        #expect(bad.status == 64 && bad.isOneLineFailure, "\(bad.stderr)")

        // Saved in a profile, the number format reads the next month's file with one flag.
        let february = try ImportExportTests.file(sandbox, "fr2.csv", "Date;Libellé;Montant\n2026-02-03;Loyer;-1 234,56 €\n")
        try sandbox.ok(["import", february] + arguments.dropFirst(2) + ["--decimal-comma", "--currency", "EUR", "--save-profile", "Banque"])
        let march = try ImportExportTests.file(sandbox, "fr3.csv", "Date;Libellé;Montant\n2026-03-03;Loyer;-1 234,56 €\n")
        #expect(try sandbox.ok(["import", march, "--profile", "banque"]).stdout.hasPrefix("Imported 1 expense "))
        let profile = try sandbox.ok(["profile", "show", "Banque", "--json"]).jsonObject
        #expect(profile["decimalComma"] as? Bool == true && profile["currency"] as? String == "EUR")
    }
}

extension ProfileCommandTests {
    @Test func aWindows1252ExportIsRefusedWithAHintThenReadWithEncoding() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Café", "--limit", "100"])
        let url = sandbox.directory.appendingPathComponent("win.csv")
        try Data(Array("date;budget;name;amount\n2026-01-02;Caf".utf8) + [0xE9] + Array(";Cr".utf8) + [0xE8] + Array("me;3.20\n".utf8)).write(to: url)
        let refused = try sandbox.run(["import", url.path])
        #expect(refused.status == 1 && refused.isOneLineFailure && refused.stderr.contains("--encoding windows-1252"), "\(refused.stderr)")
        #expect(try sandbox.ok(["import", url.path, "--encoding", "windows-1252", "--save-profile", "Bank"]).stdout.hasPrefix("Imported 1 expense "))
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.first?["name"] as? String == "Crème")
        #expect(try sandbox.ok(["profile", "show", "bank", "--json"]).jsonObject["encoding"] as? String == "windows-1252")
        let bad = try sandbox.run(["import", url.path, "--encoding", "ebcdic"])
        #expect(bad.status == 64 && bad.stderr.contains("invalid --encoding 'ebcdic'"), "\(bad.stderr)")
    }
}

extension ProfileCommandTests {
    @Test func aJSONBackupCarriesTheProfilesIntoANewLedger() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "100"])
        let file = try ImportExportTests.file(sandbox, "in.csv", "date;name;amount\n2026-01-01;Shop;-1,50\n")
        try sandbox.ok([
            "import", file, "--expense-sign", "negative", "--decimal-comma", "--uncategorized", "Inbox", "--encoding", "latin1",
            "--save-profile", "Bank",
        ])
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup))) as? [String: Any]
        #expect(document?["version"] as? Int == 4)
        let profiles = document?["profiles"] as? [[String: Any]]
        #expect(profiles?.first?["name"] as? String == "Bank" && profiles?.first?["decimalComma"] as? Bool == true)
        #expect(profiles?.first?["columns"] == nil, "unset settings are left out")

        let restored = sandbox.directory.appendingPathComponent("db/restored.sqlite").path
        try sandbox.run(["import", backup, "--db", restored], useDB: false)
        let original = try sandbox.ok(["profile", "show", "Bank", "--json"]).stdout
        #expect(try sandbox.run(["profile", "show", "bank", "--json", "--db", restored], useDB: false).stdout == original)
    }
}

extension ProfileCommandTests {
    /// The import layer says what is wrong and which setting could read it; only the CLI names the flag.
    @Test func aRefusedImportNamesTheFlagThatReadsIt() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "100"])
        let cases: [(cell: String, message: String)] = [
            (
                "\"1,234\"",
                "line 2, column 'amount', value '1,234': it reads differently with a decimal point and a decimal comma; say which with --decimal-comma if ',' is the decimal sign"
            ),
            ("12.50 GBP", "line 2, column 'amount', value '12.50 GBP': it is in GBP; name the currency with --currency"),
            ("$12.50", "line 2, column 'amount', value '$12.50': it carries a currency sign; name the currency with --currency"),
            ("£12.50", "line 2, column 'amount', value '£12.50': it is in GBP; only amounts in the --currency given can be read"),
        ]
        for (index, (cell, message)) in cases.enumerated() {
            let path = try ImportExportTests.file(sandbox, "amount\(index).csv", "date,budget,name,amount\n2026-01-02,Inbox,Shop,\(cell)\n")
            // The last cell is refused under a currency the import names.
            let refused = try sandbox.run(["import", path] + (index == cases.count - 1 ? ["--currency", "EUR"] : []))
            #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr == "tally: error: \(message)\n", "\(refused.stderr)")
        }
        let url = sandbox.directory.appendingPathComponent("latin1.csv")
        try Data(Array("date,budget,name,amount\n2026-01-02,Inbox,Caf".utf8) + [0xE9] + Array(",1\n".utf8)).write(to: url)
        let refused = try sandbox.run(["import", url.path])
        #expect(
            refused.status == 1 && refused.stdout.isEmpty
                && refused.stderr
                    == "tally: error: line 2: the text is not UTF-8; a file in Windows-1252 or Latin-1 reads with --encoding windows-1252 or latin1\n",
            "\(refused.stderr)")
    }
}
