import Testing
import TallyCore
@testable import TallyImportExport

struct ColumnMappingTests {
    @Test func parsesKeysAndColumns() throws {
        let mapping = try ColumnMapping(parsing: "date=Booking date, name = Payee,amount=Amount (EUR),tags=Category")
        #expect(mapping.isExplicit)
        #expect(mapping.columns == [.date: "Booking date", .name: "Payee", .amount: "Amount (EUR)", .tags: "Category"])
    }

    @Test func rejectsUnknownKeys() {
        #expect(throws: TallyError.invalidImportOption(.columnMapping, value: "date=D,name=N,amount=A,memo=M", reason: "unknown key 'memo'; use date, budget, name, amount, quantity, tags, by, currency, rate")) {
            try ColumnMapping(parsing: "date=D,name=N,amount=A,memo=M")
        }
    }

    @Test func rejectsMissingRequiredKeys() {
        #expect(throws: TallyError.invalidImportOption(.columnMapping, value: "date=D", reason: "missing name, amount")) {
            try ColumnMapping(parsing: "date=D")
        }
    }

    @Test func rejectsMalformedPairs() {
        for text in ["date", "date=D,name=N,amount=", "date=D,date=E,name=N,amount=A", "", "date=D,,name=N,amount=A"] {
            #expect(throws: TallyError.self, "\(text)") { try ColumnMapping(parsing: text) }
        }
    }

    @Test func resolvesHeaderIgnoringCaseAndSpaces() throws {
        let mapping = try ColumnMapping(parsing: "date=booking date,name=PAYEE,amount=amount")
        #expect(try mapping.resolve(header: [" Booking Date ", "Payee", "Amount"], line: 1) == [.date: 0, .name: 1, .amount: 2])
    }

    @Test func explicitColumnMissingFromHeader() throws {
        let mapping = try ColumnMapping(parsing: "date=Datum,name=Name,amount=Betrag")
        #expect(throws: TallyError.importFile(line: 1, reason: "the header has no column 'Betrag' for amount (columns: Datum, Name)")) {
            try mapping.resolve(header: ["Datum", "Name"], line: 1)
        }
    }

    @Test func defaultMappingAllowsOptionalColumnsToBeMissing() throws {
        #expect(try ColumnMapping.default.resolve(header: ["name", "amount", "date"], line: 1) == [.name: 0, .amount: 1, .date: 2])
    }

    @Test(arguments: [
        ("daily", ["daily"]),
        ("a;;b;", ["a", "b"]),
        (" ; \t;\r\n;\u{3000};\u{A0} ", [] as [String]),
        ("Café; crème ;\u{3000}x", ["Café", " crème ", "\u{3000}x"]),
        ("", [] as [String]),
        (";", [] as [String]),
    ])
    func tagCellsSplitOnSemicolonsDroppingBlankPieces(cell: String, tags: [String]) {
        var bytes = Array(cell.utf8)
        #expect(bytes.withUnsafeMutableBytes { CSVRowMapper.tagList(UnsafeRawBufferPointer($0)) } == tags)
    }
}
