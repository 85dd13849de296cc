import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

struct OFXReaderTests {
    /// The entries without their lines, which differ between the SGML and XML files.
    private func unlined(_ entries: [StatementEntry]) -> [StatementEntry] {
        entries.map { StatementEntry(date: $0.date, amount: $0.amount, bankID: $0.bankID, name: $0.name, memo: $0.memo, counterparty: $0.counterparty, line: 0) }
    }

    private func entry(_ date: String, _ amount: Int64, _ id: String, _ name: String, memo: String = "", counterparty: String? = nil) -> StatementEntry {
        StatementEntry(date: day(date), amount: cents(amount), bankID: id, name: name, memo: memo, counterparty: counterparty, line: 0)
    }

    private var checking: [StatementEntry] {
        [
            entry("2026-11-03", -4217, "CHK-0001", "Café Müller", memo: "Card 1234 groceries"),
            entry("2026-11-05", 250_000, "CHK-0002", "ACME Payroll", memo: "Salary November"),
            entry("2026-11-08", -30_000, "CHK-0003", "To savings", counterparty: "9876543210"),
            // No NAME: the memo names it.
            entry("2026-11-12", -8550, "CHK-0004", "Check 1043"),
            entry("2026-11-20", -6499, "CHK-0005", "City Power & Light"),
            // Neither NAME nor MEMO: the transaction type.
            entry("2026-11-30", -400, "CHK-0006", "FEE"),
        ]
    }

    @Test(arguments: ["ofx1-bank.ofx", "ofx2-bank.ofx"])
    func bankStatement(_ name: String) throws {
        let statements = try readStatements(OFXReader.self, try fixture(name))
        #expect(statements.count == 1)
        let statement = try #require(statements.first)
        #expect(statement.account == StatementAccount(number: "1234567890", currency: "USD"))
        #expect(statement.index == 1)
        #expect(unlined(statement.entries) == checking)
        #expect(statement.summary == StatementSummary(
            period: DayInterval(first: day("2026-11-01"), last: day("2026-11-30")),
            closing: StatementBalance(amount: cents(180_334), day: day("2026-11-30"))))
        #expect(statement.entries.allSatisfy { $0.line > 10 })
    }

    @Test(arguments: ["ofx1-card.qfx", "ofx2-card.ofx"])
    func creditCardStatement(_ name: String) throws {
        let statements = try readStatements(OFXReader.self, try fixture(name))
        let statement = try #require(statements.first)
        #expect(statement.account == StatementAccount(number: "4111111111111111", currency: "USD"))
        #expect(unlined(statement.entries) == [
            entry("2026-11-02", -1999, "CC-0001", "Streaming Service"),
            entry("2026-11-14", -12_040, "CC-0002", "Hardware Store", memo: "Tools"),
            entry("2026-11-21", 20_000, "CC-0003", "Payment thank you"),
        ])
        #expect(statement.summary?.closing == StatementBalance(amount: cents(-5961), day: day("2026-11-30")))
    }

    @Test(arguments: ["ofx1-two-accounts.ofx", "ofx2-two-accounts.ofx"])
    func twoStatements(_ name: String) throws {
        let statements = try readStatements(OFXReader.self, try fixture(name))
        #expect(statements.map(\.index) == [1, 2])
        #expect(statements.map(\.account.number) == ["1234567890", "9876543210"])
        #expect(statements.map(\.entries.count) == [2, 2])
        #expect(statements.map { $0.entries.map(\.amount) } == [[cents(-4217), cents(250_000)], [cents(30_000), cents(125)]])
        #expect(statements.map(\.summary?.closing?.amount) == [cents(245_783), cents(530_125)])
    }

    @Test func everyChunkSizeReadsTheSame() throws {
        for name in ["ofx1-bank.ofx", "ofx2-bank.ofx"] {
            let bytes = try fixture(name)
            let whole = try readStatements(OFXReader.self, bytes)
            for size in [1, 5, 300] {
                #expect(try readStatements(OFXReader.self, bytes, chunkSize: size) == whole)
            }
        }
    }

    private static func sgml(_ transaction: String, charset: String = "NONE") -> String {
        """
        OFXHEADER:100
        DATA:OFXSGML
        VERSION:102
        SECURITY:NONE
        ENCODING:USASCII
        CHARSET:\(charset)
        COMPRESSION:NONE
        OLDFILEUID:NONE
        NEWFILEUID:NONE

        <OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>EUR
        <BANKACCTFROM><BANKID>1<ACCTID>DE89 3704 0044 0532 0130 00<ACCTTYPE>CHECKING</BANKACCTFROM>
        <BANKTRANLIST><DTSTART>20261101<DTEND>20261130
        \(transaction)
        </BANKTRANLIST>
        <LEDGERBAL><BALAMT>10.00<DTASOF>20261130</LEDGERBAL>
        </STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
        """
    }

    private func onlyEntry(_ text: String) throws -> StatementEntry {
        let statements = try readStatements(OFXReader.self, Array(text.utf8))
        return try #require(statements.first?.entries.first)
    }

    @Test func datesKeepTheBanksDay() throws {
        for posted in ["20261126120000[-5:EST]", "20261126235959.000[-8:PST]", "20261126", "20261126000000.000[+12:NZST]"] {
            let entry = try onlyEntry(Self.sgml("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\(posted)<TRNAMT>-1.00<FITID>1</STMTTRN>"))
            #expect(entry.date == day("2026-11-26"), "\(posted)")
        }
        let failed = try #require(failure(OFXReader.self, Self.sgml("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261340<TRNAMT>-1.00</STMTTRN>")))
        #expect(failed.reason.contains("'20261340'"))
    }

    @Test func ibanAccountEntitiesAndClosedLeaves() throws {
        let text = Self.sgml("<STMTTRN><TRNTYPE>POS</TRNTYPE><DTPOSTED>20261102<TRNAMT>-12,34<FITID>7<NAME>Fish &amp; Chips &lt;3&gt;</NAME></STMTTRN>")
        let statements = try readStatements(OFXReader.self, Array(text.utf8))
        #expect(statements.first?.account == StatementAccount(iban: "DE89370400440532013000", currency: "EUR"))
        let entry = try #require(statements.first?.entries.first)
        #expect(entry.name == "Fish & Chips <3>")
        #expect(entry.amount == cents(-1234))
        #expect(entry.line == 14)
        // A comma is the decimal separator only when there is no point.
        #expect(failure(OFXReader.self, Self.sgml("<STMTTRN><TRNTYPE>POS<DTPOSTED>20261102<TRNAMT>-1,234.56</STMTTRN>")) != nil)
    }

    @Test func windows1252AndUTF8() throws {
        var bytes = Array(Self.sgml("<STMTTRN><TRNTYPE>POS<DTPOSTED>20261102<TRNAMT>-1<NAME>Caf_</STMTTRN>", charset: "1252").utf8)
        let underscore = try #require(bytes.lastIndex(of: UInt8(ascii: "_")))
        bytes[underscore] = 0xE9
        #expect(try readStatements(OFXReader.self, bytes).first?.entries.first?.name == "Café")
        // The same byte without CHARSET:1252 is not UTF-8.
        var utf8 = Array(Self.sgml("<STMTTRN><TRNTYPE>POS<DTPOSTED>20261102<TRNAMT>-1<NAME>Caf_</STMTTRN>").utf8)
        utf8[try #require(utf8.lastIndex(of: UInt8(ascii: "_")))] = 0xE9
        #expect(failure(OFXReader.self, utf8)?.reason.contains("UTF-8") == true)
    }

    @Test func headerOnOneLineAndBodyWithoutLineBreak() throws {
        let text = "OFXHEADER: 100 DATA:OFXSGML VERSION:102 SECURITY:NONE ENCODING:USASCII CHARSET:1252 COMPRESSION:NONE<OFX>"
            + "<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><ACCTID>42</BANKACCTFROM><BANKTRANLIST>"
            + "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261102<TRNAMT>-3<FITID>A</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
        let statements = try readStatements(OFXReader.self, Array(text.utf8))
        #expect(statements.first?.account.number == "42")
        #expect(statements.first?.entries.map(\.amount) == [cents(-300)])
        #expect(failure(OFXReader.self, "OFXHEADER:100 DATA:OFXSGML CHARSET\n<OFX></OFX>")?.reason.contains("'CHARSET' in the OFX header") == true)
    }

    /// ORIGCURRENCY: TRNAMT is already in CURDEF, and the original is TRNAMT / CURRATE (CURDEF
    /// units per CURSYM unit) in CURSYM's minor units; CURRENCY: TRNAMT is in CURSYM, booked at
    /// CURRATE × TRNAMT in CURDEF. The fixture is ofxtools' own output.
    @Test func foreignOriginalsAndAmounts() throws {
        let entries = try #require(try readStatements(OFXReader.self, try fixture("ofx2-foreign.ofx")).first).entries
        let jpy = try Currency(code: "JPY")
        let usd = try Currency(code: "USD")
        #expect(entries.map(\.amount) == [cents(-2786), cents(-1153), cents(920), cents(-310)])
        #expect(entries.map(\.original) == [
            // 27.86 / 0.00619 = 4500.8 → 4501 JPY.
            StatementOriginal(amount: CurrencyAmount(minorUnits: 4501, currency: jpy), rate: try ExchangeRate(parsing: "0.00619")),
            // 12.50 USD × 0.9224 = 11.53 EUR.
            StatementOriginal(amount: CurrencyAmount(minorUnits: 1250, currency: usd), rate: try ExchangeRate(parsing: "0.9224")),
            StatementOriginal(amount: CurrencyAmount(minorUnits: 1000, currency: usd), rate: try ExchangeRate(parsing: "0.92")),
            nil,
        ])
        // An original in CURDEF itself is none.
        let same = Self.sgml("<STMTTRN><TRNTYPE>POS<DTPOSTED>20261102<TRNAMT>-10<ORIGCURRENCY><CURRATE>1<CURSYM>EUR</ORIGCURRENCY></STMTTRN>")
        #expect(try readStatements(OFXReader.self, Array(same.utf8)).first?.entries.first?.original == nil)
    }

    /// A rate at or below zero, a malformed one, an unknown code or an amount the currency
    /// cannot hold: one usage error naming the value and its line.
    @Test func badForeignFieldsNameTheirValue() throws {
        for (transaction, value) in [
            ("<TRNAMT>-10<ORIGCURRENCY><CURRATE>0<CURSYM>JPY</ORIGCURRENCY>", "CURRATE '0'"),
            ("<TRNAMT>-10<ORIGCURRENCY><CURRATE>-0.5<CURSYM>JPY</ORIGCURRENCY>", "CURRATE '-0.5'"),
            ("<TRNAMT>-10<CURRENCY><CURRATE>1.2.3<CURSYM>USD</CURRENCY>", "CURRATE '1.2.3'"),
            ("<TRNAMT>-10<ORIGCURRENCY><CURRATE>0.5<CURSYM>QQQ</ORIGCURRENCY>", "CURSYM 'QQQ'"),
            ("<TRNAMT>-4500.50<CURRENCY><CURRATE>0.0062<CURSYM>JPY</CURRENCY>", "TRNAMT '4500.50'"),
        ] {
            let text = Self.sgml("<STMTTRN><TRNTYPE>POS<DTPOSTED>20261102\(transaction)</STMTTRN>")
            do {
                _ = try readStatements(OFXReader.self, Array(text.utf8))
                Issue.record("\(value) was read")
            } catch {
                guard case .foreignMoney(.statementField(let line, _, _, _)) = error else { Issue.record("\(value): \(error)"); continue }
                #expect(line != nil)
                #expect(error.errorDescription?.contains(value) == true, "\(error.errorDescription ?? "")")
            }
        }
    }

    @Test func sniffing() throws {
        for name in ["ofx1-bank.ofx", "ofx1-card.qfx", "ofx2-bank.ofx"] {
            #expect(OFXReader.looksLikeOFX(try fixture(name)))
        }
        #expect(OFXReader.looksLikeOFX([0xEF, 0xBB, 0xBF] + Array("\r\n <OFX><SIGNONMSGSRSV1>".utf8)))
        #expect(!OFXReader.looksLikeOFX(try fixture("camt053-v02.xml")))
        #expect(!OFXReader.looksLikeOFX(Array("date,amount\n".utf8)))
    }
}
