import Foundation
import TallyTestSupport
import Testing

/// `tally import` of bank statements with amounts in other currencies: entries the bank booked
/// from another currency keep their original; a statement in another currency than the
/// ledger's converts at the rate table's rates, all or nothing.
@Suite(.ownThreads) struct StatementCurrencyImportTests {
    static func fixture(_ name: String) -> String { StatementImportTests.fixture(name) }

    /// A EUR ledger with a Travel budget and the Giro account the foreign fixtures name.
    func ledger() throws -> Sandbox {
        // Made once through the real `tally` and copied into each test.
        try Sandbox.seeded("statementCurrency.ledger") { sandbox in
            try sandbox.prepare(["settings", "set", "currency", "EUR"])
            try sandbox.prepare(["budget", "add", "Travel", "--limit", "500"])
            try sandbox.prepare(["account", "add", "Giro", "--kind", "checking", "--number", "DE89370400440532013000", "--opening", "1000", "--date", "2026-01-01"])
        }
    }

    func byName(_ sandbox: Sandbox) throws -> [String: [String: Any]] {
        let list = try sandbox.ok(["expense", "list", "--json"]).jsonArray
        return Dictionary(list.compactMap { row in (row["name"] as? String).map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
    }

    /// ofxtools' ORIGCURRENCY and CURRENCY: the booked euros stay, the original is kept at a
    /// rate as given; a refund rule makes a credit a refund with its original; dedupe, `rates
    /// reapply` and undo work as for any import.
    @Test func anOFXStatementKeepsEachEntrysOriginal() throws {
        let sandbox = try ledger()
        try sandbox.ok(["rule", "add", "Museum Shop refund", "--budget", "Travel", "--refund"])
        let imported = try sandbox.ok(["import", Self.fixture("ofx2-foreign.ofx"), "--budget", "Travel"]).stdout
        #expect(imported.hasPrefix("Imported 4 expenses, 0 incomes and 0 transfers"), "\(imported)")
        let rows = try byName(sandbox)
        #expect(rows["Ramen Ichiran"]?["amount"] as? String == "27.86")
        #expect((rows["Ramen Ichiran"]?["originalAmount"] as? String) == "4501" && (rows["Ramen Ichiran"]?["currency"] as? String) == "JPY")
        #expect(rows["Ramen Ichiran"]?["rate"] as? String == "0.00619" && rows["Ramen Ichiran"]?["rateSource"] as? String == "given")
        #expect(rows["Museum Shop"]?["amount"] as? String == "11.53")
        #expect((rows["Museum Shop"]?["originalAmount"] as? String) == "12.50" && (rows["Museum Shop"]?["currency"] as? String) == "USD")
        #expect(rows["Museum Shop refund"]?["refund"] as? Bool == true)
        #expect((rows["Museum Shop refund"]?["originalAmount"] as? String) == "10.00" && (rows["Museum Shop refund"]?["currency"] as? String) == "USD")
        #expect(rows["Bakery"]?["originalAmount"] == nil && rows["Bakery"]?["rate"] == nil)
        let text = try sandbox.ok(["expense", "list"]).stdout
        #expect(text.contains("4501 JPY"), "\(text)")

        let again = try sandbox.ok(["import", Self.fixture("ofx2-foreign.ofx"), "--budget", "Travel"]).stdout
        #expect(again.contains("4 entries already there"), "\(again)")
        // Given rates are the bank's: reapplying the table leaves them.
        try sandbox.ok(["rates", "set", "2026-03-01", "EUR", "JPY", "150"])
        #expect(try sandbox.ok(["rates", "reapply"]).stdout.contains("No expense"))
        #expect(try byName(sandbox)["Ramen Ichiran"]?["amount"] as? String == "27.86")

        try sandbox.ok(["undo"])  // the rate
        try sandbox.ok(["undo"])  // the import
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.isEmpty)
    }

    /// camt's InstdAmt with CcyXchg: the JPY payment was booked with a fee in it, so the rate
    /// kept is booked / original, which gives the booked amount back exactly.
    @Test func aCamtStatementKeepsTheInstructedAmount() throws {
        let sandbox = try ledger()
        let imported = try sandbox.ok(["import", Self.fixture("camt053-foreign.xml"), "--budget", "Travel"]).stdout
        #expect(imported.contains("959.94 on 2026-03-31 matches the account"), "\(imported)")
        let rows = try byName(sandbox)
        let ramen = try #require(rows["Ramen Ichiran Shibuya"])
        #expect(ramen["amount"] as? String == "28.20")
        #expect((ramen["originalAmount"] as? String) == "4500" && (ramen["currency"] as? String) == "JPY")
        #expect(ramen["rate"] as? String == "0.006266666667" && ramen["rateSource"] as? String == "given")
        #expect(rows["Museum Shop"]?["rate"] as? String == "0.9224")
    }

    /// A USD statement into a EUR ledger: each entry at the table's rate of its day (a Sunday
    /// takes Friday's), incomes too; the USD balance is shown, not compared.
    @Test func aStatementInDollarsConvertsAtTheTablesRates() throws {
        let sandbox = try ledger()
        try sandbox.ok(["account", "add", "Checking", "--kind", "checking", "--number", "1234567890"])
        for (day, rate) in [("2026-11-02", "1.10"), ("2026-11-06", "1.08"), ("2026-11-30", "1.05")] {
            try sandbox.ok(["rates", "set", day, "EUR", "USD", rate])
        }
        let dry = try sandbox.ok(["import", Self.fixture("ofx2-bank.ofx"), "--budget", "Travel", "--dry-run"]).stdout
        let imported = try sandbox.ok(["import", Self.fixture("ofx2-bank.ofx"), "--budget", "Travel"]).stdout
        #expect(imported.hasPrefix("Imported 5 expenses, 1 income and 0 transfers"), "\(imported)")
        #expect(dry.split(separator: "\n").dropFirst().elementsEqual(imported.split(separator: "\n").dropFirst()), "\(dry)\n\(imported)")
        #expect(imported.contains("Amounts in USD converted at the rate table's rate on each entry's day."))
        #expect(imported.contains("Closing 1803.34 USD on 2026-11-30: not compared"), "\(imported)")
        let amounts = try sandbox.ok(["expense", "list", "--json"]).jsonArray.map { "\($0["date"] ?? "") \($0["amount"] ?? "") \($0["rateSource"] ?? "")" }
        #expect(amounts.sorted() == [
            "2026-11-03 38.34 table", "2026-11-08 277.78 table", "2026-11-12 79.17 table", "2026-11-20 60.18 table", "2026-11-30 3.81 table",
        ])
        let incomes = try sandbox.ok(["income", "list", "--json"]).jsonArray
        #expect(incomes.map { $0["amount"] as? String } == ["2272.73"])
        #expect(try sandbox.ok(["reconcile", "--list", "--json"]).jsonArray.isEmpty)
        // Table-rated entries follow the table.
        try sandbox.ok(["rates", "set", "2026-11-30", "EUR", "USD", "1.00"])
        try sandbox.ok(["rates", "reapply"])
        #expect(try sandbox.ok(["expense", "list", "--json"]).jsonArray.contains { $0["amount"] as? String == "4.00" })
    }

    /// Every missing pair on one line, the CSV import's words, exit 1, nothing written.
    @Test func missingRatesAreListedAndNothingIsImported() throws {
        let sandbox = try ledger()
        try sandbox.ok(["account", "add", "Checking", "--kind", "checking", "--number", "1234567890"])
        try sandbox.ok(["rates", "set", "2026-11-06", "EUR", "USD", "1.08"])
        let before = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["import", Self.fixture("ofx2-bank.ofx"), "--budget", "Travel"])
        #expect(outcome.status == 1 && outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("missing rates: USD→EUR on 2026-11-03, 2026-11-05 (add them with 'tally rates import FILE'"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        let dry = try sandbox.run(["import", Self.fixture("ofx2-bank.ofx"), "--budget", "Travel", "--dry-run"])
        #expect(dry.status == 1 && dry.stderr == outcome.stderr)
    }

    static func ofx(curdef: String = "EUR", _ transaction: String) -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102
        SECURITY:NONE
        ENCODING:USASCII
        CHARSET:NONE
        COMPRESSION:NONE
        OLDFILEUID:NONE
        NEWFILEUID:NONE

        <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>\(curdef)
        <BANKACCTFROM><BANKID>1<ACCTID>DE89370400440532013000<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><STMTTRN><TRNTYPE>POS<DTPOSTED>20260309<FITID>X1<NAME>Ramen\(transaction)</STMTTRN></BANKTRANLIST>
        </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

        """
    }

    /// A rate at or below zero, a malformed rate, an unknown code: one line naming the value,
    /// exit 64, nothing on standard output, and no ledger created.
    @Test func badCurrencyFieldsAreUsageErrorsThatWriteNothing() throws {
        let empty = try Sandbox()
        let sandbox = try ledger()
        let before = try sandbox.databaseSnapshot()
        for (curdef, transaction, value) in [
            ("EUR", "<TRNAMT>-10<ORIGCURRENCY><CURRATE>0<CURSYM>JPY</ORIGCURRENCY>", "CURRATE '0'"),
            ("EUR", "<TRNAMT>-10<ORIGCURRENCY><CURRATE>-1<CURSYM>JPY</ORIGCURRENCY>", "CURRATE '-1'"),
            ("EUR", "<TRNAMT>-10<CURRENCY><CURRATE>0.9x<CURSYM>USD</CURRENCY>", "CURRATE '0.9x'"),
            ("EUR", "<TRNAMT>-10<CURRENCY><CURRATE>0.9<CURSYM>QQQ</CURRENCY>", "CURSYM 'QQQ'"),
        ] {
            let url = empty.directory.appendingPathComponent("bad.ofx")
            try Data(Self.ofx(curdef: curdef, transaction).utf8).write(to: url)
            let outcome = try sandbox.run(["import", url.path, "--budget", "Travel"])
            #expect(outcome.status == 64 && outcome.isOneLineFailure && outcome.stdout.isEmpty, "\(value): \(outcome.stderr)")
            #expect(outcome.stderr.contains(value), "\(value): \(outcome.stderr)")
            // A new ledger knows no account the statement could go to: it fails first, and is not created.
            let fresh = try empty.run(["import", url.path, "--budget", "Travel"])
            #expect(fresh.status != 0 && fresh.isOneLineFailure && fresh.stdout.isEmpty, "\(fresh.stderr)")
        }
        // A statement in a code that is no currency, into a ledger that would convert it.
        let url = sandbox.directory.appendingPathComponent("qqq.ofx")
        try Data(Self.ofx(curdef: "QQQ", "<TRNAMT>-10").utf8).write(to: url)
        let outcome = try sandbox.run(["import", url.path, "--budget", "Travel"])
        #expect(outcome.status == 64 && outcome.stderr.contains("'QQQ': not an ISO 4217 currency code"), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: empty.db))
    }

    /// The same import on a PostgreSQL ledger answers as on a file: the statement path is the
    /// same above the store.
    @Test func aPostgreSQLLedgerImportsTheSame() throws {
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "fxstatement").url
        let sandbox = try Sandbox()
        let commands: [[String]] = [
            ["settings", "set", "currency", "EUR"],
            ["budget", "add", "Travel", "--limit", "500"],
            ["account", "add", "Giro", "--kind", "checking", "--number", "DE89370400440532013000", "--opening", "1000", "--date", "2026-01-01"],
            ["account", "add", "Checking", "--kind", "checking", "--number", "1234567890"],
            ["import", Self.fixture("ofx2-bank.ofx"), "--budget", "Travel"],
            ["rates", "set", "2026-11-02", "EUR", "USD", "1.10"],
            ["import", Self.fixture("ofx2-bank.ofx"), "--budget", "Travel", "--dry-run"],
            ["import", Self.fixture("camt053-foreign.xml"), "--budget", "Travel"],
            ["import", Self.fixture("ofx2-foreign.ofx"), "--budget", "Travel"],
            ["expense", "list", "--json"],
            ["income", "list", "--json"],
            ["undo"],
            ["expense", "list", "--json"],
        ]
        for command in commands {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.run(command + ["--db", url], useDB: false)
            #expect(Self.timeless(onServer.stdout) == Self.timeless(onFile.stdout), "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
            #expect(onServer.status == onFile.status, "\(command)")
        }
    }

    /// An import's summary without its elapsed seconds.
    static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"; [0-9]+\.[0-9]+ s\."#, with: "", options: .regularExpression)
    }
}
