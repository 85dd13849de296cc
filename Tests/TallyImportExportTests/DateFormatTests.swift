import Testing
import TallyCore
@testable import TallyImportExport

struct DateFormatTests {
    @Test(arguments: [
        ("yyyy-MM-dd", "2024-03-07"), ("dd.MM.yyyy", "07.03.2024"), ("MM/dd/yyyy", "03/07/2024"),
        ("dd/MM/yyyy", "07/03/2024"), ("yyyy/MM/dd", "2024/03/07"), ("d.M.yyyy", "7.3.2024"), ("d.M.yyyy", "07.03.2024"),
    ])
    func readsEachLayout(pattern: String, text: String) throws {
        let format = try DateFormat(pattern: pattern)
        #expect(format.day(from: text) == (try Day(year: 2024, month: 3, day: 7)))
    }

    @Test func isStrict() throws {
        let iso = DateFormat.iso
        for text in ["2024-3-07", "2024-03-7", "24-03-07", "2024-03-07 ", "2024/03/07", "2024-02-30", "2024-13-01", ""] {
            #expect(iso.day(from: text) == nil, "\(text)")
        }
        let short = try DateFormat(pattern: "d.M.yyyy")
        #expect(short.day(from: "123.3.2024") == nil)
        #expect(short.day(from: "29.2.2023") == nil)
        #expect(short.day(from: "29.2.2024") != nil)
    }

    @Test func rejectsUnsupportedPatterns() {
        for pattern in ["yy-MM-dd", "yyyy-MMM-dd", "yyyy-MM", "dd.MM.yyyy HH:mm", "Mdyyyy", "yyyy-MM-dd-dd", ""] {
            #expect(throws: TallyError.self, "\(pattern)") { try DateFormat(pattern: pattern) }
        }
        #expect(throws: TallyError.invalidImportOption(.dateFormat, value: "yyyy-MM", reason: "the format needs exactly one yyyy, one month and one day field")) {
            try DateFormat(pattern: "yyyy-MM")
        }
    }
}
