import Foundation
import TallyTestSupport
import Testing

/// A German bank's export as it comes: Latin-1, `;`, decimal commas, six lines about the account
/// above the header and the balance below the rows.
@Suite(.ownThreads) struct BankExportPreambleTests {
    static let export = """
        "Kontonummer:";"1234567890";
        "BLZ:";"10020030";
        "Kontoinhaber:";"Erika Mustermann";
        "Zeitraum:";"01.01.2026 - 31.01.2026";
        "Umsätze ab 01.01.2026";

        Buchungstag;Valuta;Auftraggeber/Empfänger;Buchungstext;Verwendungszweck;Betrag;Währung
        02.01.2026;02.01.2026;REWE Markt GmbH;Kartenzahlung;Einkauf;-45,99;EUR
        03.01.2026;03.01.2026;Arbeitgeber AG;Gutschrift;Gehalt Januar;2.500,00;EUR
        05.01.2026;05.01.2026;Bäckerei Müller;Kartenzahlung;Brötchen;-3,20;EUR
        15.01.2026;15.01.2026;Stadtwerke;Lastschrift;Strom Januar;-1.089,00;EUR
        Kontostand;;;;;1.234,56;EUR

        """

    static let flags = [
        "--columns", "date=Buchungstag,name=Auftraggeber/Empfänger,amount=Betrag", "--date-format", "dd.MM.yyyy",
        "--expense-sign", "negative", "--decimal-comma", "--encoding", "latin1", "--delimiter", ";", "--budget", "Inbox",
    ]

    /// The export in Latin-1, as the bank writes it.
    static func write(_ sandbox: Sandbox, _ name: String = "umsaetze.csv", _ text: String = export) throws -> String {
        let path = sandbox.directory.appendingPathComponent(name).path
        try Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theHeaderIsFoundAndTheBalanceLeftOut() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "2000"])
        let file = try Self.write(sandbox)
        let dry = try sandbox.ok(["import", file, "--dry-run"] + Self.flags).stdout
        #expect(dry.contains("\nLeft out 6 preamble lines above the header, 1 summary line at the end.\n"), "\(dry)")
        #expect(dry.hasPrefix("Dry run: would import 3 expenses "), "\(dry)")
        let imported = try sandbox.ok(["import", file] + Self.flags).stdout
        #expect(imported.hasPrefix("Imported 3 expenses from "), "\(imported)")
        #expect(imported.contains(
            "; skipped 1 row (incoming money: 1); left out 6 preamble lines above the header, 1 summary line at the end; 0 rows already there; "),
            "\(imported)")
        let expenses = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        #expect(Set(expenses.compactMap { $0["name"] as? String }) == ["REWE Markt GmbH", "Bäckerei Müller", "Stadtwerke"])
        #expect(Set(expenses.compactMap { $0["amount"] as? String }) == ["45.99", "3.20", "1089.00"])
        // The same rows again, found below the same preamble: nothing new.
        #expect(try sandbox.ok(["import", file] + Self.flags).stdout.contains("; 3 rows already there; "))
    }

    @Test func skipIsSavedInTheProfileAndTravelsInTheBackup() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "2000"])
        let file = try Self.write(sandbox)
        let saved = try sandbox.ok(["import", file, "--skip", "6", "--save-profile", "Sparkasse"] + Self.flags).stdout
        #expect(saved.contains("left out 6 preamble lines above the header, 1 summary line at the end; "), "\(saved)")
        #expect(try sandbox.ok(["profile", "show", "sparkasse", "--json"]).jsonObject["skip"] as? Int == 6)
        #expect(try sandbox.ok(["profile", "show", "sparkasse"]).stdout.contains("\nskip 6\n"))
        let next = try Self.write(sandbox, "feb.csv", Self.export.replacingOccurrences(of: "15.01.2026", with: "16.02.2026"))
        #expect(try sandbox.ok(["import", next, "--profile", "Sparkasse"]).stdout.hasPrefix("Imported 1 expense "))
        // A flag beside the profile wins: one line too few takes the blank line for the header.
        let wrong = try sandbox.run(["import", next, "--profile", "Sparkasse", "--skip", "5"])
        #expect(wrong.status == 1 && wrong.isOneLineFailure && wrong.stderr.contains("line 6: the header has no column"), "\(wrong.stderr)")

        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: backup))) as? [String: Any]
        #expect((document?["profiles"] as? [[String: Any]])?.first?["skip"] as? Int == 6)
        let restored = sandbox.directory.appendingPathComponent("db/restored.sqlite").path
        try sandbox.run(["import", backup, "--db", restored], useDB: false)
        let original = try sandbox.ok(["profile", "show", "Sparkasse", "--json"]).stdout
        #expect(try sandbox.run(["profile", "show", "sparkasse", "--json", "--db", restored], useDB: false).stdout == original)
    }

    @Test func aFileWithoutTheColumnsFailsInOneLineAndCreatesNoDatabase() throws {
        let sandbox = try Sandbox()
        let file = try Self.write(sandbox, "other.csv", Self.export.replacingOccurrences(of: "Betrag", with: "Umsatz"))
        let outcome = try sandbox.run(["import", file] + Self.flags)
        #expect(outcome.status == 1 && outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("line 7: the header has no column 'Betrag' for amount (columns: Buchungstag, Valuta, "), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
    }

    @Test(arguments: ["x", "1001", "1.5"])
    func aBadSkipIsAUsageError(value: String) throws {
        let sandbox = try Sandbox()
        let file = try Self.write(sandbox)
        let outcome = try sandbox.run(["import", file, "--skip", value] + Self.flags)
        #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("invalid --skip '\(value)': use a whole number from 0 to 1000"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.db))
    }

    @Test func theDelimiterIsReadFromTheHeaderBelowThePreamble() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "2000"])
        // The first line holds a comma and no `;`: the header line decides.
        let file = try Self.write(sandbox, "bank.csv", "Umsätze, Girokonto\n" + Self.export)
        let flags = Self.flags.filter { $0 != "--delimiter" && $0 != ";" }
        #expect(try sandbox.ok(["import", file] + flags).stdout.contains("left out 7 preamble lines above the header"))
    }
}
