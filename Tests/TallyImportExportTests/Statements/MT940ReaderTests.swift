import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

struct MT940ReaderTests {
    private func read(_ text: String, encoding: TextEncoding = .utf8) -> Result<[StatementEvent], TallyError> {
        read(Array(text.utf8), encoding: encoding)
    }

    private func read(_ bytes: [UInt8], encoding: TextEncoding = .utf8, chunkSize: Int = .max) -> Result<[StatementEvent], TallyError> {
        statementEvents({ (input, visit) throws(TallyError) in try MT940Reader.read(input, encoding: encoding, visit) }, .bytes(bytes, chunkSize: chunkSize))
    }

    private let minimal = ":20:REF\n:25:DE89370400440532013000\n:60F:C260101EUR10,00\n"

    @Test func germanExport() throws {
        let result = statementEvents(MT940Reader.self, try StatementFixtureFiles.input("mt940-german.sta"))
        #expect(result.failure == nil)
        let begin = try #require(result.begins.first)
        #expect(result.begins.count == 1)
        #expect(begin.account == StatementAccount(number: "1234567890", currency: "EUR"))
        #expect(begin.index == 1 && begin.id == "STARTUMSE")
        let entries = result.entries
        try #require(entries.count == 4)
        #expect(entries[0] == StatementEntry(
            date: statementDay("2026-12-29"), amount: Money(cents: -4599), bankID: "BANK-REF-0001", name: "Stadtwerke Musterstadt GmbH",
            memo: "Strom Dezember Kundennr 4711", counterparty: "DE28500105175400001234", line: 5))
        #expect(entries[1] == StatementEntry(
            date: statementDay("2026-12-30"), amount: Money(cents: 250_000), bankID: nil, name: "Arbeitgeber AG",
            memo: "Gehalt Dezember", counterparty: "DE89370400440532013000", line: 9))
        // Booked on 2 January for value on 31 December: the booking year is the next one.
        #expect(entries[2] == StatementEntry(
            date: statementDay("2027-01-02"), amount: Money(cents: -1250), bankID: "KREF-99", name: "Kartenzahlung Bäckerei Korn", line: 11))
        #expect(entries[3] == StatementEntry(date: statementDay("2027-01-02"), amount: Money(cents: 50), name: "NCHG", line: 14))
        #expect(result.ends == [StatementSummary(
            period: DayInterval(first: statementDay("2026-12-29"), last: statementDay("2027-01-02")),
            opening: StatementBalance(amount: Money(cents: 123_456), day: statementDay("2026-12-29")),
            closing: StatementBalance(amount: Money(cents: 367_657), day: statementDay("2027-01-02")))])
    }

    @Test func swiftBlocksWithTwoStatements() throws {
        let result = statementEvents(MT940Reader.self, try StatementFixtureFiles.input("mt940-swift-two.sta"))
        #expect(result.failure == nil)
        #expect(result.begins.map(\.index) == [1, 2])
        #expect(result.begins.map(\.id) == ["ABN0001", "ABN0002"])
        #expect(result.begins.allSatisfy { $0.account == StatementAccount(iban: "NL91ABNA0417164300", currency: "EUR") })
        #expect(result.entries.map(\.amount) == [Money(cents: 10_000), Money(cents: 2000), Money(cents: -62_000)])
        #expect(result.entries.map(\.bankID) == ["B26006000001", "B26007000002", "B26008000003"])
        #expect(result.entries.map(\.name) == ["Payment from friend", "Reversal of direct debit", "NTRF"])
        #expect(result.ends.map(\.closing?.amount) == [Money(cents: 62_000), Money(cents: 0)])
        #expect(result.ends.map(\.period?.last) == [statementDay("2026-01-07"), statementDay("2026-01-08")])
        // begin, 2 entries, end, begin, 1 entry, end: in file order.
        guard case .success(let events) = result else { return }
        #expect(events.map(\.kind) == ["begin", "entry", "entry", "end", "begin", "entry", "end"])
    }

    @Test func dutchSlashDetails() throws {
        let result = statementEvents(MT940Reader.self, try StatementFixtureFiles.input("mt940-slash.sta"))
        #expect(result.failure == nil)
        #expect(result.begins.map(\.account) == [
            StatementAccount(iban: "NL44RABO0123456789", currency: "EUR"), StatementAccount(iban: "NL02ABNA0123456789", currency: "EUR"),
        ])
        let entries = result.entries
        try #require(entries.count == 3)
        #expect(entries[0] == StatementEntry(
            date: statementDay("2026-02-01"), amount: Money(cents: 25_000), bankID: "00000000001234", name: "J. de Vries",
            memo: "Terugbetaling etentje", counterparty: "NL91ABNA0417164300", line: 6))
        #expect(entries[1] == StatementEntry(
            date: statementDay("2026-02-02"), amount: Money(cents: -7525), bankID: "00000000001235", name: "Energie Nederland BV",
            memo: "1234567890123456", counterparty: "NL20INGB0001234567", line: 10))
        #expect(entries[2] == StatementEntry(
            date: statementDay("2026-02-03"), amount: Money(cents: -4210), bankID: nil, name: "Huisbaas Verhuur", memo: "Huur februari",
            counterparty: "NL44RABO0123456789", line: 18))
        #expect(result.ends.map(\.closing?.amount) == [Money(cents: 117_475), Money(cents: 25_790)])
    }

    @Test func writtenByMT940Writer() throws {
        let result = statementEvents(MT940Reader.self, try StatementFixtureFiles.input("mt940-writer.sta"))
        #expect(result.failure == nil)
        #expect(result.begins.map(\.account) == [StatementAccount(number: "12345678123456", currency: "GBP")])
        #expect(result.entries.map(\.amount) == [Money(cents: -15_000), Money(cents: 2495), Money(cents: -350)])
        #expect(result.entries.map(\.name) == ["Landlord Ltd rent March", "NMSC", "Account fee"])
        // Without `//`, the customer reference is the id, unless it is NONREF.
        #expect(result.entries.map(\.bankID) == ["RENT MARCH", "REFUND", nil])
        let sum = result.entries.reduce(Int64(100_000)) { $0 + $1.amount.cents }
        #expect(result.ends.first?.closing?.amount == Money(cents: sum))
    }

    @Test func everyChunkSizeReadsTheSame() throws {
        let bytes = try StatementFixtureFiles.bytes("mt940-german.sta")
        let whole = read(bytes)
        for chunk in [1, 2, 3, 7, 64] { #expect(read(bytes, chunkSize: chunk) == whole) }
    }

    @Test func latin1File() throws {
        let bytes = try StatementFixtureFiles.bytes("mt940-german.sta")
        // The same file in Latin-1: "ä" is one byte.
        let latin1 = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        #expect(read(latin1, encoding: .latin1) == read(bytes))
        let failure = read(latin1).failure
        #expect(failure?.line == 13)
        if case .failure(.importFile(_, _, let hint)) = read(latin1) { #expect(hint == .encoding) }
    }

    @Test func reversalsFlipAndFundsCodesAreSkipped() {
        let result = read(minimal + ":61:260102RC5,00NTRFA\n:61:260102DR1,00NTRFB\n:61:260102RDR2,00NCHGC//X\n:62F:C260102EUR10,00\n")
        #expect(result.entries.map(\.amount) == [Money(cents: -500), Money(cents: -100), Money(cents: 200)])
        #expect(result.entries.map(\.bankID) == ["A", "B", "X"])
    }

    @Test func decemberValueWithJanuaryBookingAndTheOtherWay() {
        let result = read(minimal + ":61:2612311231D1,00NTRFA\n:61:2701021230D1,00NTRFB\n:61:2602280301C1,NTRFC\n:62F:C270102EUR9,00\n")
        #expect(result.entries.map(\.date) == [statementDay("2026-12-31"), statementDay("2026-12-30"), statementDay("2026-03-01")])
        #expect(result.entries.last?.amount == Money(cents: 100))
    }

    @Test func refusals() {
        let cases: [(String, Int?, String)] = [
            (minimal + ":61:260102D1.50NTRFX\n:62F:C260102EUR8,50\n", 4, "','"),
            (":20:REF\n:25:X\n:60F:C260101EUR10.00\n:62F:C260102EUR8,50\n", 3, "','"),
            (minimal + ":61:261302D1,50NTRFX\n:62F:C260102EUR8,50\n", 4, "261302"),
            (minimal + ":61:2601021332D1,50NTRFX\n:62F:C260102EUR8,50\n", 4, "1332"),
            (":20:REF\n:60F:C260101EUR10,00\n", 2, ":25:"),
            (":20:REF\n:61:260102D1,50NTRFX\n", 2, ":25:"),
            (":61:260102D1,50NTRFX\n", 1, ":20:"),
            (minimal + ":61:260102D1,50NTRFX\n:86:Shop\n", 5, "closing balance"),
            (minimal + ":62F:C260101EUR10,00\n:61:260102D1,50NTRFX\n", 5, "after the closing"),
            (minimal + ":61:260102D1,50\n:62F:C260101EUR8,50\n", 4, "transaction type"),
            (minimal + ":61:260102X1,50NTRFX\n:62F:C260101EUR8,50\n", 4, "C, D, RC or RD"),
            (minimal + ":61:260102D99999999999999,00NTRFX\n:62F:C260101EUR8,50\n", 4, "too large"),
            ("", nil, "no MT940 statement"),
            ("hello\nworld\n", nil, "no MT940 statement"),
        ]
        for (text, line, fragment) in cases {
            let failure = read(text).failure
            #expect(failure?.line == line, "\(text)")
            #expect(failure?.message.contains(fragment) == true, "\(text): \(failure?.message ?? "read")")
        }
    }

    @Test func truncatedFileIsRefused() throws {
        let bytes = try StatementFixtureFiles.bytes("mt940-swift-two.sta")
        // Every cut before the last closing balance is refused; none traps.
        // Every cut is refused but those just after the first message's end (`-`, `-}`, `-}\n`),
        // which leave a whole file of one statement; none traps.
        let firstEnd = try #require(MT940Text.find(Array("-}".utf8), in: bytes))
        let lastEnd = try #require(MT940Text.find(Array("-}".utf8), in: bytes, from: firstEnd + 1))
        for cut in 0...lastEnd where !(firstEnd + 1...firstEnd + 3).contains(cut) {
            let result = read(Array(bytes[..<cut]))
            #expect(result.failure != nil, "cut at \(cut)")
        }
        #expect(read(Array(bytes[..<(firstEnd + 3)])).begins.count == 1)
    }

    @Test func hugeLineFailsFastInBoundedMemory() {
        // 10 MB without a line break, handed out in 64 KiB pieces: refused after the limit.
        let input = ImportInput.bytes(Array(":20:".utf8) + [UInt8](repeating: 0x41, count: 10 << 20), chunkSize: 1 << 16)
        let start = threadCPUSeconds()
        let failure = statementEvents(MT940Reader.self, input).failure
        #expect(failure?.message.contains("longer than 256 KiB") == true)
        #expect(threadCPUSeconds() - start < 2)
        // Many lines of one :86: field: refused at the field limit.
        let details = minimal + ":61:260102D1,50NTRFX\n:86:" + String(repeating: "word ", count: 20) + String(repeating: "\nmore words", count: 20_000)
        #expect(read(details).failure?.message.contains("longer than 64 KiB") == true)
    }

    @Test func garbageBytesAreRefused() {
        var random = FuzzRandom(seed: 0x940)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(read(bytes).failure != nil)
        }
    }

    @Test func detection() throws {
        #expect(MT940Reader.looksLikeMT940(try StatementFixtureFiles.bytes("mt940-german.sta")))
        #expect(MT940Reader.looksLikeMT940(try StatementFixtureFiles.bytes("mt940-swift-two.sta")))
        #expect(MT940Reader.looksLikeMT940(try StatementFixtureFiles.bytes("mt940-slash.sta")))
        #expect(MT940Reader.looksLikeMT940(Array("\u{FEFF}\r\n:20:X".utf8)))
        #expect(!MT940Reader.looksLikeMT940(try StatementFixtureFiles.bytes("qif-ccard.qif")))
        #expect(!MT940Reader.looksLikeMT940(Array("date,amount\n".utf8)))
    }
}

extension StatementEvent {
    var kind: String {
        switch self {
        case .begin: "begin"
        case .entry: "entry"
        case .end: "end"
        }
    }
}
