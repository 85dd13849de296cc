import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

struct CamtReaderTests {
    private func entry(
        _ date: String, _ amount: Int64, _ id: String?, _ name: String, memo: String = "", counterparty: String? = nil, line: Int
    ) -> StatementEntry {
        StatementEntry(date: day(date), amount: cents(amount), bankID: id, name: name, memo: memo, counterparty: counterparty, line: line)
    }

    @Test func version02WithBatchReversalAndEmptyCounterparty() throws {
        let statements = try readStatements(CamtReader.self, try fixture("camt053-v02.xml"))
        #expect(statements.count == 1)
        let statement = try #require(statements.first)
        #expect(statement.account == StatementAccount(iban: "DE89370400440532013000", currency: "EUR"))
        #expect(statement.index == 1)
        #expect(statement.id == "STMT-V02-11")
        #expect(statement.entries == [
            entry("2026-11-03", -4590, "REF-0001", "Stadtwerke Muster", memo: "Strom November Kunde 4711", counterparty: "DE02120300000000202051", line: 34),
            // A date-time keeps the day the bank wrote, whatever its offset.
            entry("2026-11-05", 250_000, "REF-0002", "ACME GmbH", memo: "Gehalt November", counterparty: "DE75512108001245126199", line: 53),
            // One booking of three transactions: three entries, ids kept unique.
            entry("2026-11-10", -5000, "BATCH-7#1", "Sportverein 1900", memo: "Beitrag", line: 80),
            // An empty creditor takes the remittance text as its name.
            entry("2026-11-10", -6000, "BATCH-7#2", "Miete Garage", line: 85),
            entry("2026-11-10", -4000, "BATCH-7#3", "Zeitungsverlag", line: 90),
            // A reversal of a debit is booked CRDT: money back in.
            entry("2026-11-12", 4590, "REF-0004", "Ruecklastschrift Strom November", memo: "reversal", line: 96),
            entry("2026-11-30", -400, "REF-0005", "Kontoführung", line: 113),
        ])
        #expect(statement.summary == StatementSummary(
            period: DayInterval(first: day("2026-11-01"), last: day("2026-11-30")),
            opening: StatementBalance(amount: cents(100_000), day: day("2026-11-01")),
            closing: StatementBalance(amount: cents(334_600), day: day("2026-11-30"))))
        let total = statement.entries.reduce(Int64(100_000)) { $0 + $1.amount.cents }
        #expect(total == 334_600)
    }

    @Test func version04OtherAccountValueDateAndFallbacks() throws {
        let statements = try readStatements(CamtReader.self, try fixture("camt053-v04.xml"))
        let statement = try #require(statements.first)
        #expect(statement.account == StatementAccount(number: "0532013000", currency: "CHF"))
        let entries = statement.entries.map { StatementEntry(date: $0.date, amount: $0.amount, bankID: $0.bankID, name: $0.name, memo: $0.memo, counterparty: $0.counterparty, line: 0) }
        #expect(entries == [
            entry("2026-11-15", 60_000, "N-1", "Hans Muster", memo: "RF18539007547034", counterparty: "CH991234", line: 0),
            entry("2026-11-15", -1945, "TX-A", "Buchhandlung am Markt", line: 0),
            // No id of the booking's own: the transaction's end-to-end id.
            entry("2026-11-15", -1000, "E2E-B", "Kiosk", memo: "Kartenzahlung", line: 0),
            // The pending entry before it is left for the statement that books it.
            entry("2026-11-15", -100, nil, "Bank entry", line: 0),
        ])
        // PRCD stands in for the opening balance; ITBD is not one Tally keeps.
        #expect(statement.summary == StatementSummary(
            period: DayInterval(first: day("2026-11-15"), last: day("2026-11-15")),
            opening: StatementBalance(amount: cents(-2500), day: day("2026-11-14")),
            closing: StatementBalance(amount: cents(54_455), day: day("2026-11-15"))))
    }

    @Test func version08PartiesUnderPtyAndTwoStatements() throws {
        let statements = try readStatements(CamtReader.self, try fixture("camt053-v08.xml"))
        #expect(statements.count == 2)
        let first = try #require(statements.first)
        #expect(first.account == StatementAccount(iban: "NL91ABNA0417164300", currency: "EUR"))
        // No creditor and no remittance text: the bank transaction code names it.
        #expect(first.entries.map(\.name) == ["Jan de Vries", "Bakkerij Jansen", "PMNT/ICDT/ESCT"])
        #expect(first.entries.map(\.amount) == [cents(15_000), cents(-3000), cents(-2000)])
        #expect(first.entries.map(\.bankID) == ["V08-REF-1", "V08-REF-2#1", "V08-REF-2#2"])
        #expect(first.entries.map(\.counterparty) == ["NL20INGB0001234567", "NL39RABO0300065264", nil])
        #expect(first.summary?.opening == StatementBalance(amount: cents(-1234), day: day("2026-11-01")))
        #expect(first.summary?.closing == StatementBalance(amount: cents(8766), day: day("2026-11-30")))
        let second = try #require(statements.last)
        #expect(second.index == 2)
        #expect(second.id == "STMT-V08-B")
        #expect(second.account == StatementAccount(number: "SAVINGS42", currency: "EUR"))
        #expect(second.entries.isEmpty)
        #expect(second.summary == StatementSummary(closing: StatementBalance(amount: cents(100_000), day: day("2026-11-30"))))
    }

    @Test func everyChunkSizeReadsTheSame() throws {
        let bytes = try fixture("camt053-v02.xml")
        let whole = try readStatements(CamtReader.self, bytes)
        for size in [1, 7, 512] {
            #expect(try readStatements(CamtReader.self, bytes, chunkSize: size) == whole)
        }
    }

    private static func document(version: String = "08", entry: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.\(version)">
        <BkToCstmrStmt><Stmt><Id>S</Id><Acct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></Acct>
        <Ntry>
        \(entry)
        </Ntry>
        </Stmt></BkToCstmrStmt>
        </Document>
        """
    }

    @Test func commaDecimalIsRefusedWithValueAndLine() throws {
        let text = Self.document(entry: "<Amt Ccy=\"EUR\">12,50</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-11-02</Dt></BookgDt>")
        let failed = try #require(failure(CamtReader.self, text))
        #expect(failed.line == 5)
        #expect(failed.reason.contains("'12,50'"))
    }

    @Test func impossibleDateIsRefused() throws {
        let text = Self.document(entry: "<Amt>1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-13-40</Dt></BookgDt>")
        let failed = try #require(failure(CamtReader.self, text))
        #expect(failed.reason.contains("'2026-13-40' is not a date"))
    }

    @Test func otherDocumentsAreRefused() throws {
        for version in ["01", "09"] {
            let failed = try #require(failure(CamtReader.self, Self.document(version: version, entry: "")))
            #expect(failed.reason.contains("not a camt.053.001.02 to .08 statement"))
        }
        let notCamt = "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.052.001.08\"/>"
        #expect(failure(CamtReader.self, notCamt) != nil)
        #expect(failure(CamtReader.self, "<html><body/></html>") != nil)
        #expect(failure(CamtReader.self, "") != nil)
    }

    @Test func entryWithoutIndicatorOrDateIsRefused() throws {
        #expect(failure(CamtReader.self, Self.document(entry: "<Amt>1.00</Amt><BookgDt><Dt>2026-11-02</Dt></BookgDt>"))?.reason.contains("CdtDbtInd") == true)
        #expect(failure(CamtReader.self, Self.document(entry: "<Amt>1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>"))?.reason.contains("BookgDt") == true)
        #expect(failure(CamtReader.self, Self.document(entry: "<Amt>-1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-11-02</Dt></BookgDt>")) != nil)
    }

    /// `InstdAmt` in another currency than the statement's is the entry's original; `CcyXchg`
    /// states the rate per `UnitCcy` (else `SrcCcy`), turned into statement units per original
    /// unit. Without `Acct/Ccy`, the balances' `Ccy` is the statement's currency.
    @Test func instructedAmountsInOtherCurrencies() throws {
        let statement = try #require(try readStatements(CamtReader.self, try fixture("camt053-foreign.xml")).first)
        #expect(statement.account.currency == "EUR")
        #expect(statement.entries.map(\.amount) == [cents(-2820), cents(-1153), cents(-33)])
        #expect(statement.entries.map(\.original) == [
            // 1 EUR = 161.54 JPY: 1 / 161.54 EUR per yen.
            StatementOriginal(amount: CurrencyAmount(minorUnits: 4500, currency: try Currency(code: "JPY")), rate: try ExchangeRate(parsing: "161.54").inverted()),
            StatementOriginal(amount: CurrencyAmount(minorUnits: 1250, currency: try Currency(code: "USD")), rate: try ExchangeRate(parsing: "0.9224")),
            nil,
        ])
    }

    @Test func badInstructedCurrencyOrRateIsRefused() throws {
        for (details, value) in [
            ("<InstdAmt><Amt Ccy=\"QQQ\">10.00</Amt></InstdAmt>", "Ccy 'QQQ'"),
            ("<InstdAmt><Amt Ccy=\"USD\">10.00</Amt><CcyXchg><SrcCcy>USD</SrcCcy><TrgtCcy>EUR</TrgtCcy><XchgRate>0</XchgRate></CcyXchg></InstdAmt>", "XchgRate '0'"),
            ("<InstdAmt><Amt Ccy=\"USD\">10.00</Amt><CcyXchg><SrcCcy>USD</SrcCcy><TrgtCcy>EUR</TrgtCcy><XchgRate>abc</XchgRate></CcyXchg></InstdAmt>", "XchgRate 'abc'"),
        ] {
            let text = Self.document(entry: "<Amt Ccy=\"EUR\">9.20</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2026-11-02</Dt></BookgDt>"
                + "<NtryDtls><TxDtls><AmtDtls>\(details)</AmtDtls></TxDtls></NtryDtls>")
            do {
                _ = try readStatements(CamtReader.self, Array(text.utf8))
                Issue.record("\(value) was read")
            } catch {
                guard case .foreignMoney(.statementField) = error else { Issue.record("\(value): \(error)"); continue }
                #expect(error.errorDescription?.contains(value) == true, "\(error.errorDescription ?? "")")
            }
        }
    }

    @Test func sniffing() throws {
        #expect(CamtReader.looksLikeCamt(try fixture("camt053-v02.xml")))
        #expect(CamtReader.looksLikeCamt([0xEF, 0xBB, 0xBF, 0x0A, 0x20] + (try fixture("camt053-v08.xml"))))
        #expect(!CamtReader.looksLikeCamt(try fixture("ofx2-bank.ofx")))
        #expect(!CamtReader.looksLikeCamt(Array("date,amount\n".utf8)))
    }
}
