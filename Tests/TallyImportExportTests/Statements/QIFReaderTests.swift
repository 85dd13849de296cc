import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

struct QIFReaderTests {
    private func read(
        _ text: String, dateOrder: QIFDateOrder? = nil, encoding: TextEncoding = .utf8
    ) -> Result<[StatementEvent], TallyError> {
        read(Array(text.utf8), dateOrder: dateOrder, encoding: encoding)
    }

    private func read(
        _ bytes: [UInt8], dateOrder: QIFDateOrder? = nil, encoding: TextEncoding = .utf8, chunkSize: Int = .max
    ) -> Result<[StatementEvent], TallyError> {
        statementEvents(
            { (input, visit) throws(TallyError) in try QIFReader.read(input, dateOrder: dateOrder, encoding: encoding, visit) },
            .bytes(bytes, chunkSize: chunkSize))
    }

    private func order(_ name: String) throws -> Result<QIFDateOrder?, TallyError> {
        let input = try StatementFixtureFiles.input(name)
        do throws(TallyError) { return .success(try QIFReader.inferDateOrder(input)) } catch { return .failure(error) }
    }

    @Test func monthFirstWrittenByCSV2OFX() throws {
        let result = statementEvents(QIFReader.self, try StatementFixtureFiles.input("qif-csv2ofx.qif"))
        #expect(result.failure == nil)
        #expect(try order("qif-csv2ofx.qif") == .success(.monthFirst))
        #expect(result.begins.map(\.account) == [StatementAccount()])
        #expect(result.begins.map(\.id) == [nil])
        #expect(result.entries == [
            StatementEntry(date: statementDay("2026-01-05"), amount: Money(cents: -1240), name: "Corner Shop", memo: "milk", line: 6),
            StatementEntry(date: statementDay("2026-01-17"), amount: Money(cents: 250_000), name: "Employer Inc", memo: "salary", line: 11),
            // `N1042` is a check number, not an id.
            StatementEntry(date: statementDay("2026-01-20"), amount: Money(cents: -123_456), name: "Power Co", line: 16),
        ])
        #expect(result.ends == [StatementSummary()])
    }

    @Test func dayFirstWithDecimalComma() throws {
        let result = statementEvents(QIFReader.self, try StatementFixtureFiles.input("qif-day-first.qif"))
        #expect(result.failure == nil)
        #expect(try order("qif-day-first.qif") == .success(.dayFirst))
        #expect(result.entries == [
            StatementEntry(date: statementDay("2026-01-03"), amount: Money(cents: -123_456), name: "Miete Januar", memo: "Wohnung", line: 2),
            StatementEntry(date: statementDay("2026-01-15"), amount: Money(cents: 250_000), name: "Arbeitgeber AG", line: 7),
            StatementEntry(date: statementDay("2026-01-31"), amount: Money(cents: -999), name: "Streaming", line: 11),
        ])
    }

    @Test func quickenApostropheYearsAndSplits() throws {
        let result = statementEvents(QIFReader.self, try StatementFixtureFiles.input("qif-quicken.qif"))
        #expect(result.failure == nil)
        #expect(try order("qif-quicken.qif") == .success(.monthFirst))
        #expect(result.begins.count == 1)
        #expect(result.entries == [
            StatementEntry(date: statementDay("2025-12-24"), amount: Money(cents: -8000), name: "Supermarket", line: 12),
            StatementEntry(date: statementDay("2026-01-02"), amount: Money(cents: -123_456), name: "Landlord", line: 22),
            StatementEntry(date: statementDay("2026-01-15"), amount: Money(cents: 200_000), name: "Paycheck", line: 30),
        ])
    }

    @Test func creditCard() throws {
        let result = statementEvents(QIFReader.self, try StatementFixtureFiles.input("qif-ccard.qif"))
        #expect(result.failure == nil)
        #expect(result.entries.map(\.date) == ["2025-11-28", "2025-12-03", "2025-12-05", "2025-12-31"].map(statementDay))
        #expect(result.entries.map(\.amount) == [-4500, 4500, -102_000, -250].map { Money(cents: $0) })
        #expect(result.entries.map(\.name) == ["Bookshop", "Bookshop", "Airline", "Card fee"])
        #expect(result.entries.map(\.memo) == ["", "Returned book", "", ""])
        #expect(result.entries.allSatisfy { $0.bankID == nil })
    }

    @Test func ambiguousDatesAskForTheFormat() throws {
        let result = statementEvents(QIFReader.self, try StatementFixtureFiles.input("qif-ambiguous.qif"))
        // The CLI words the hint with its flag (`--date-format`).
        guard case .failure(.importFile(_, let reason, let hint)) = result, case .dateOrder? = hint else {
            Issue.record("not a date-order refusal: \(String(describing: result.failure))")
            return
        }
        #expect(reason.contains("read both month-first and day-first"))
        #expect(result.failure?.message.contains("line 2") == true)
        guard case .failure = try order("qif-ambiguous.qif") else {
            Issue.record("the order was inferred")
            return
        }
        // Named, the order reads the file.
        let bytes = try StatementFixtureFiles.bytes("qif-ambiguous.qif")
        #expect(read(bytes, dateOrder: .monthFirst).entries.map(\.date) == [statementDay("2026-01-02"), statementDay("2026-03-04")])
        #expect(read(bytes, dateOrder: .dayFirst).entries.map(\.date) == [statementDay("2026-02-01"), statementDay("2026-04-03")])
    }

    @Test func dateOrderFromTheDateFormat() throws {
        #expect(QIFDateOrder(try DateFormat(pattern: "MM/dd/yyyy")) == .monthFirst)
        #expect(QIFDateOrder(try DateFormat(pattern: "d.M.yyyy")) == .dayFirst)
        #expect(QIFDateOrder(try DateFormat(pattern: "yyyy-MM-dd")) == nil)
    }

    @Test func dateForms() {
        let cases: [(String, QIFDateOrder?, String)] = [
            ("1/2/99", .monthFirst, "1999-01-02"), ("1/2/69", .monthFirst, "2069-01-02"), ("1/2/70", .monthFirst, "1970-01-02"),
            ("1/2'99", .monthFirst, "2099-01-02"), (" 1/ 2' 4", .monthFirst, "2004-01-02"), ("12/31/2025", .monthFirst, "2025-12-31"),
            ("31.12.2025", .dayFirst, "2025-12-31"), ("31-12-2025", .dayFirst, "2025-12-31"), ("2025-12-31", .dayFirst, "2025-12-31"),
            ("2025-12-31", nil, "2025-12-31"),
        ]
        for (text, order, expected) in cases {
            #expect(QIFDate(Array(text.utf8))?.day(order) == statementDay(expected), "\(text)")
        }
        for text in ["", "1/2", "1/2/3/4", "a/b/c", "123/1/2025", "1/2/12345", "1//2025", "1/2/2025x"] {
            #expect(QIFDate(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func refusals() {
        let cases: [(String, Int?, String)] = [
            ("!Type:Invst\nD1/2/2026\n^\n", 1, "!Type:Invst"),
            ("!Type:Oth A\n^\n", 1, "only !Type:Bank"),
            ("D1/13/2026\nT1.00\n^\n", 1, "before any !Type"),
            ("!Type:Bank\nD13/1/2026\nT1.00\n^\nD1/13/2026\nT1.00\n^\n", 5, "mix orders"),
            ("!Type:Bank\nD1/13/2026\nT1.00\n^\nD1/14/2026\nT1,00\n^\n", 6, "mix decimal signs"),
            ("!Type:Bank\nD1/13/2026\nT1,000\n^\n", 3, "three decimals"),
            ("!Type:Bank\nD1/13/2026\nT-12.50\nPShop\n", 2, "no closing '^'"),
            ("!Type:Bank\nD1/13/2026\nT1.00\n^\nD2/30/2026\nT1.00\n^\n", 5, "not a day"),
            ("!Type:Bank\nD13/13/2026\nT1.00\n^\n", 2, "mix orders"),
            ("!Type:Bank\nD1/13/2026\nTabc\n^\n", 3, "not an amount"),
            ("!Type:Bank\nD1/13/2026\nT1.5.0\n^\n", 3, "not an amount"),
            ("!Type:Bank\nT1.00\n^\n", 2, "no date"),
            ("!Type:Bank\nD1/13/2026\n^\n", 2, "no amount"),
            ("!Type:Bank\nDyesterday\nT1.00\n^\n", 2, "not a date QIF writes"),
            ("!Type:Bank\nD1/13/2026\nT12,34.00\n^\n", 3, "not an amount"),
            ("", nil, "no !Type:Bank"),
        ]
        for (text, line, fragment) in cases {
            let failure = read(text).failure
            #expect(failure?.line == line, "\(text)")
            #expect(failure?.message.contains(fragment) == true, "\(text): \(failure?.message ?? "read")")
        }
    }

    @Test func sectionsAreStatementsAndListsAreSkipped() {
        let text = "!Type:Cat\nNFood\n^\n!Type:Bank\nD1/13/2026\nT-1.00\nPA\n^\n!Account\nNSavings\n^\n!Type:Cash\nD1/14/2026\nT-2.00\n^\n"
        let result = read(text)
        #expect(result.failure == nil)
        #expect(result.begins.map(\.index) == [1, 2])
        #expect(result.ends.count == 2)
        #expect(result.entries.map(\.name) == ["A", "Cash"])
        guard case .success(let events) = result else { return }
        #expect(events.map(\.kind) == ["begin", "entry", "end", "begin", "entry", "end"])
    }

    @Test func encodingsAndChunks() throws {
        let text = "!Type:Bank\nD13.01.2026\nT-1,50\nPCafé Müller\n^\n"
        let latin1 = Array(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        #expect(read(latin1, encoding: .windows1252).entries.map(\.name) == ["Café Müller"])
        if case .failure(.importFile(let line, _, let hint)) = read(latin1) {
            #expect(line == 4 && hint == .encoding)
        } else {
            Issue.record("Latin-1 read as UTF-8")
        }
        let bytes = try StatementFixtureFiles.bytes("qif-quicken.qif")
        let whole = read(bytes)
        for chunk in [1, 3, 64] { #expect(read(bytes, chunkSize: chunk) == whole) }
    }

    @Test func truncatedFileIsRefused() throws {
        let bytes = try StatementFixtureFiles.bytes("qif-ccard.qif")
        // A cut inside a record is refused; a cut just after a record's `^` is a whole file.
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[..<cut])
            let atRecordEnd = prefix.last == UInt8(ascii: "^") || prefix.suffix(2) == [UInt8(ascii: "^"), 0x0A]
            let result = read(prefix)
            // `!Type:CCard` alone, with or without its line break, is a statement without entries.
            if !atRecordEnd, cut != 11, cut != 12 { #expect(result.failure != nil, "cut at \(cut)") }
        }
    }

    @Test func hugeInputsFailFast() {
        let start = threadCPUSeconds()
        let longLine = ImportInput.bytes(Array("!Type:Bank\nP".utf8) + [UInt8](repeating: 0x41, count: 10 << 20), chunkSize: 1 << 16)
        #expect(statementEvents(QIFReader.self, longLine).failure?.message.contains("longer than 256 KiB") == true)
        #expect(threadCPUSeconds() - start < 2)
        let longName = "!Type:Bank\nD1/13/2026\nT1.00\nP" + String(repeating: "x", count: 100_000) + "\n^\n"
        #expect(read(longName).failure?.message.contains("longer than 64 KiB") == true)
    }

    @Test func garbageBytesAreRefused() {
        var random = FuzzRandom(seed: 0x01F)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(read(bytes).failure != nil)
        }
    }

    @Test func detection() throws {
        for name in ["qif-csv2ofx.qif", "qif-day-first.qif", "qif-quicken.qif", "qif-ccard.qif"] {
            #expect(QIFReader.looksLikeQIF(try StatementFixtureFiles.bytes(name)), "\(name)")
        }
        #expect(QIFReader.looksLikeQIF(Array("\u{FEFF}!type:bank\r\n".utf8)))
        #expect(!QIFReader.looksLikeQIF(try StatementFixtureFiles.bytes("mt940-german.sta")))
    }
}
