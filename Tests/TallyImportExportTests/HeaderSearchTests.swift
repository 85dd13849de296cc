import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

/// Finding the header below a bank's account details, and leaving out the summary lines after the rows.
struct HeaderSearchTests {
    private static let columns = "date=Buchungstag,name=Verwendungszweck,amount=Betrag"

    private func options(skip: Int? = nil) throws -> CSVImportOptions {
        var options = CSVImportOptions(
            columns: try ColumnMapping(parsing: Self.columns), dateFormat: try DateFormat(pattern: "dd.MM.yyyy"), defaultBudget: "Inbox",
            expenseSign: .negative, delimiter: .semicolon)
        options.amountFormat = AmountFormat(decimalComma: true)
        options.skipLines = skip
        return options
    }

    private func plan(_ text: String, options: CSVImportOptions? = nil, chunkSize: Int = .max) throws -> ImportPlan {
        try ImportPlanner.plan(
            .bytes(Array(text.utf8), chunkSize: chunkSize), format: .csv, options: try options ?? self.options(),
            bufferSize: chunkSize == .max ? 1 << 20 : 16)
    }

    private func lines(_ plan: ImportPlan) throws -> [Int] {
        var lines: [Int] = []
        try ImportPlanner.forEachExpense(in: plan) { lines.append($0.line) }
        return lines
    }

    private static let preamble = """
        Kontonummer:;1234567;
        Zeitraum:;01.01.2026 - 31.01.2026;
        Kontoinhaber:;"Muster, Erika";

        """
    private static let rows = """
        Buchungstag;Verwendungszweck;Betrag
        03.01.2026;Supermarkt;-45,99
        04.01.2026;Gehalt;2.500,00
        05.01.2026;Espresso Bar;-3,20

        """

    @Test func theHeaderIsTheFirstLineHoldingEveryMappedColumn() throws {
        let plan = try plan(Self.preamble + Self.rows)
        #expect(plan.summary.frame == CSVFrame(preambleLines: 3))
        #expect(plan.summary.expenseCount == 2 && plan.summary.skipped == [.incoming: 1])
        #expect(try lines(plan) == [5, 7])
        #expect(try self.plan(Self.preamble + Self.rows, chunkSize: 5).summary == plan.summary)
    }

    @Test func aFileWithoutPreambleKeepsItsRowKeys() throws {
        let plain = try plan(Self.rows)
        #expect(plain.summary.frame == CSVFrame())
        var keys: [Int64?] = []
        try ImportPlanner.forEachExpense(in: plain) { keys.append($0.rowKey) }
        var below: [Int64?] = []
        try ImportPlanner.forEachExpense(in: try plan(Self.preamble + Self.rows)) { below.append($0.rowKey) }
        // The key is of the header and the row, so the same rows below a preamble are the same rows.
        #expect(keys == below && keys.count == 2)
    }

    @Test func skipTakesExactlyThatManyLines() throws {
        #expect(try plan(Self.preamble + Self.rows, options: try options(skip: 3)).summary.frame.preambleLines == 3)
        // One too few: the last line of the preamble is taken as the header, and lacks the columns.
        #expect(throws: TallyError.importFile(
            line: 3, reason: "the header has no column 'Buchungstag' for date (columns: Kontoinhaber:, Muster, Erika, )")) {
            try plan(Self.preamble + Self.rows, options: try options(skip: 2))
        }
        #expect(throws: TallyError.importFile(line: nil, reason: "the file ends within the 9 lines to skip above the header")) {
            try plan(Self.preamble, options: try options(skip: 9))
        }
        #expect(throws: TallyError.invalidImportOption(.skip, value: "1001", reason: "use a whole number from 0 to 1000")) {
            try HeaderSearch.validatedSkip(1001)
        }
    }

    @Test func noHeaderInTheFirstFiftyLinesFailsNamingTheMissingColumn() throws {
        // The line holding most of the columns names the one it lacks.
        let misspelled = Self.preamble + Self.rows.replacingOccurrences(of: "Betrag", with: "Betrg")
        #expect(throws: TallyError.importFile(
            line: 4, reason: "the header has no column 'Betrag' for amount (columns: Buchungstag, Verwendungszweck, Betrg)")) {
            try plan(misspelled)
        }
        // A header below line 50 is not looked for.
        let deep = String(repeating: "note;\n", count: 50) + Self.rows
        #expect(throws: TallyError.importFile(line: 1, reason: "the header has no column 'Buchungstag' for date (columns: note, )")) {
            try plan(deep)
        }
        #expect(try plan(String(repeating: "note;\n", count: 49) + Self.rows).summary.frame.preambleLines == 49)
    }

    @Test func summaryLinesAfterTheLastRowAreLeftOutAndCounted() throws {
        let footer = Self.rows + "Kontostand;;1.234,56\n\nSumme Umsätze: -49,19 EUR\n"
        let plan = try plan(Self.preamble + footer)
        #expect(plan.summary.frame == CSVFrame(preambleLines: 3, footerLines: 2))
        #expect(plan.summary.skipped == [.incoming: 1, .blankLine: 1])
        #expect(try lines(plan) == [5, 7])
    }

    @Test func theSameLinesBeforeARowFailOrAreSkippedAsBefore() throws {
        // A short line in the middle fails where it is.
        let short = Self.rows + "Summe: -49,19\n06.01.2026;Kiosk;-2,00\n"
        #expect(throws: TallyError.importFile(line: 5, reason: "the row has 1 fields but the header has 3")) { try plan(short) }
        // A line the reader refuses after it does not hide it.
        #expect(throws: TallyError.importFile(line: 5, reason: "the row has 1 fields but the header has 3")) {
            try plan(Self.rows + "Summe: -49,19\nx\"y\n")
        }
        // An empty date in the middle is a bad row, or incoming money, as it always was.
        let noDate = Self.rows + ";Kiosk;-2,00\n06.01.2026;Kiosk;-2,00\n"
        #expect(throws: TallyError.self) { try plan(noDate) }
        let incoming = Self.rows + ";Zinsen;2,00\n06.01.2026;Kiosk;-2,00\n"
        #expect(try plan(incoming).summary.skipped == [.incoming: 2])
        #expect(try plan(incoming).summary.frame == CSVFrame())
    }

    @Test func aLastRowCutShortOrWithAMistypedDateStillFails() throws {
        // Another width but a date: a row cut short, not a summary.
        #expect(throws: TallyError.importFile(line: 5, reason: "the row has 2 fields but the header has 3")) {
            try plan(Self.rows + "06.01.2026;Kiosk\n")
        }
        // A date cell starting with a digit may be a mistyped date: a row, which fails.
        #expect(throws: TallyError.importRow(
            line: 5, column: "Buchungstag", value: "3I.01.2026", reason: "use an existing day written as dd.MM.yyyy")) {
            try plan(Self.rows + "3I.01.2026;Kiosk;-2,00\n")
        }
        // Text in the date cell, as banks write their balance: a summary line, even when negative.
        #expect(try plan(Self.rows + "Kontostand;;-1.234,56\n").summary.frame.footerLines == 1)
    }

    @Test func aLongTrailingRunIsReadAsRows() throws {
        // Past fifty lines a trailing run is no footer: its first line fails as it always did.
        let long = Self.rows + String(repeating: "Summe;\n", count: 51)
        #expect(throws: TallyError.importFile(line: 5, reason: "the row has 2 fields but the header has 3")) { try plan(long) }
        #expect(try plan(Self.rows + String(repeating: "Summe;\n", count: 50)).summary.frame.footerLines == 50)
    }

    @Test func theDelimiterIsThatOfTheLineHoldingTheColumns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("header-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bank.csv").path
        // The first line has commas only; the header is `;`-separated and Latin-1.
        let text = "Umsätze, Girokonto\nZeitraum: 01.01.2026 - 31.01.2026\nBuchungstag;Empfänger;Betrag\n03.01.2026;Bäckerei;-2,50\n"
        try Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }).write(to: URL(fileURLWithPath: path))
        let columns = try ColumnMapping(parsing: "date=Buchungstag,name=Empfänger,amount=Betrag")
        #expect(try CSVReader.Delimiter.detect(path: path, encoding: .latin1, columns: columns) == .semicolon)
        // Without the mapped columns anywhere, the first line decides, as before.
        #expect(try CSVReader.Delimiter.detect(path: path, encoding: .latin1, columns: .default) == .comma)
        // With --skip, the line after the skipped ones is the header, and its delimiter decides.
        #expect(try CSVReader.Delimiter.detect(path: path, encoding: .latin1, columns: .default, skip: 2) == .semicolon)
        #expect(try CSVReader.Delimiter.detect(path: path, encoding: .latin1, columns: columns, skip: 0) == .comma)
    }
}
