import Foundation
import TallyTestSupport
import Testing

/// Money as people read it: the ledger's currency and the locale's digits, grouping and decimal
/// sign in text, PNG and HTML; JSON and CSV exactly as before.
@Suite(.ownThreads) struct LocaleMoneyTests {
    /// A ledger with amounts large enough to show each locale's grouping (lakh in hi_IN).
    static func ledger(currency: String?) throws -> Sandbox {
        let plain = {
            try Sandbox.seeded("locale.ledger") { sandbox in
                try sandbox.prepare(["budget", "add", "Rent", "--limit", "123456.78", "--start", "2026-01"])
                try sandbox.prepare(["budget", "add", "Food", "--limit", "450", "--start", "2026-01"])
                try sandbox.prepare(["add", "March rent", "98765.43", "-b", "Rent", "--date", "2026-03-01"])
                try sandbox.prepare(["add", "Groceries", "1234.5", "-b", "Food", "--date", "2026-03-02", "--tag", "weekly"])
                try sandbox.prepare(["add", "Bread", "2.4", "-b", "Food", "--date", "2026-03-03", "--quantity", "3"])
            }
        }
        guard let currency else { return try plain() }
        return try Sandbox.seeded("locale.ledger.\(currency)", from: plain) { try $0.prepare(["settings", "set", "currency", currency]) }
    }

    static let cases: [(locale: String, currency: String?)] = [
        ("de_DE", "EUR"), ("fr_FR", "EUR"), ("en_IE", "EUR"), ("hi_IN", "INR"), ("de_DE", nil), ("C", "USD"),
    ]

    /// Each list and the text report, one golden file per locale and currency.
    @Test(arguments: cases.indices)
    func textFollowsTheLocaleAndCurrency(index: Int) throws {
        let (locale, currency) = Self.cases[index]
        let sandbox = try Self.ledger(currency: currency)
        var text = ""
        for arguments in [
            ["budget", "list", "--month", "2026-03"], ["budget", "show", "Food", "--month", "2026-03"],
            ["expense", "list", "--month", "2026-03"], ["report", "--month", "2026-03", "--explain"],
            ["report", "--from", "2026-02", "--to", "2026-03", "--compare", "previous"], ["prices", "bread", "--from", "2026-03", "--to", "2026-03"],
        ] {
            let outcome = try sandbox.run(arguments + ["--locale", locale])
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            text += "$ tally \(arguments.joined(separator: " "))\n" + outcome.stdout + "\n"
        }
        try expectGolden(text, named: "money-\(locale)-\(currency ?? "none").txt")
    }

    @Test func confirmationsUseTheLocaleToo() throws {
        let sandbox = try Self.ledger(currency: "EUR")
        let added = try sandbox.ok(["add", "Tee", "3,20", "-b", "Food", "--date", "2026-03-04", "--locale", "de_DE"]).stdout
        #expect(added.hasPrefix("Added expense #4 2026-03-04 Tee: 3,20\u{A0}€ in Food\nFood: "))
        let edited = try sandbox.ok(["expense", "edit", "4", "--amount", "1000,5", "--locale", "de_DE"]).stdout
        #expect(edited == "Updated expense #4 2026-03-04 Tee: 1.000,50\u{A0}€ in Food\n")
        let budget = try sandbox.ok(["budget", "add", "Fun", "--limit", "1234,56", "--locale", "de_DE"]).stdout
        #expect(budget == "Added budget 'Fun' with a monthly limit of 1.234,56\u{A0}€.\n")
        let removed = try sandbox.ok(["expense", "remove", "4", "--locale", "fr_FR"]).stdout
        #expect(removed == "Removed expense #4 'Tee' (1\u{202F}000,50\u{A0}€).\n")
    }

    /// `12,50` is an amount where the comma is the decimal sign, and still an error elsewhere;
    /// grouping is never read, so `1.234` cannot silently become 1.234.
    @Test func theLocaleDecimalSignIsReadOnTheCommandLine() throws {
        let sandbox = try Self.ledger(currency: nil)
        #expect(try sandbox.run(["add", "Tea", "12,50", "-b", "Food", "--locale", "de_DE", "--date", "2026-03-05"]).status == 0)
        #expect(try sandbox.run(["expense", "list", "--json", "--search", "Tea"]).jsonArray.first?["amount"] as? String == "12.50")
        let before = try sandbox.databaseSnapshot()
        for (arguments, message) in [
            (["add", "Tea", "12,50", "-b", "Food"], "invalid amount '12,50'"),
            (["add", "Tea", "12,50", "-b", "Food", "--locale", "en_US"], "invalid amount '12,50'"),
            (["add", "Tea", "1.234,50", "-b", "Food", "--locale", "de_DE"], "invalid amount '1.234,50'"),
            (["budget", "add", "Fun", "--limit", "1.234", "--locale", "de_DE"], "invalid amount '1.234'"),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == before)
    }

    /// JSON and CSV are for programs: plain decimals whatever the locale, and the report names
    /// the currency.
    @Test func jsonAndCSVNeverChange() throws {
        let sandbox = try Self.ledger(currency: "EUR")
        let plainReport = try sandbox.ok(["report", "--month", "2026-03", "--format", "json"]).stdout
        let localReport = try sandbox.run(["report", "--month", "2026-03", "--format", "json", "--locale", "de_DE"]).stdout
        #expect(localReport == plainReport)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(localReport.utf8)) as? [String: Any])
        #expect(report["currency"] as? String == "EUR")
        #expect((report["totals"] as? [String: Any])?["spent"] as? String == "100007.13")
        for arguments in [["expense", "list", "--json"], ["budget", "list", "--json", "--month", "2026-03"], ["export", "--format", "csv"]] {
            #expect(try sandbox.run(arguments + ["--locale", "de_DE"]).stdout == sandbox.run(arguments).stdout, "\(arguments)")
        }
        let none = try Self.ledger(currency: nil)
        let noCurrency = try #require(try JSONSerialization.jsonObject(with: Data(none.ok(["report", "--month", "2026-03", "--format", "json"]).stdout.utf8)) as? [String: Any])
        #expect(noCurrency["currency"] is NSNull)
    }

    @Test func theBackupKeepsTheCurrency() throws {
        let sandbox = try Self.ledger(currency: "GBP")
        let backup = sandbox.directory.appendingPathComponent("backup.json").path
        try sandbox.ok(["export", "--format", "json", "--output", backup])
        let restored = try Sandbox()
        try restored.ok(["import", backup])
        #expect(try restored.ok(["settings", "show"]).stdout == "month-start 1\nwarn 80\ncurrency GBP\nhistory-days 365\ndefault-account none\nsnapshots 10\n")
    }

    @Test func htmlAndPNGShowTheLocaleAmounts() throws {
        let sandbox = try Self.ledger(currency: "EUR")
        let html = sandbox.directory.appendingPathComponent("report.html").path
        let png = sandbox.directory.appendingPathComponent("report.png").path
        try sandbox.ok(["report", "--month", "2026-03", "--format", "html", "--output", html, "--locale", "de_DE"])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("100.007,13\u{A0}€"))
        #expect(page.contains("1.234,50\u{A0}€"))
        #expect(!page.contains("100,007.13"))
        try sandbox.ok(["report", "--month", "2026-03", "--format", "png", "--output", png, "--locale", "de_DE"])
        let plainPNG = sandbox.directory.appendingPathComponent("plain.png").path
        try sandbox.ok(["report", "--month", "2026-03", "--format", "png", "--output", plainPNG, "--locale", "C"])
        let image = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(image != (try Data(contentsOf: URL(fileURLWithPath: plainPNG))), "the amounts drawn differ")
    }
}
