import TallyCore
import TallyTestSupport
import Testing
@testable import TallyImportExport

@Suite(.ownThreads) struct ProfileOptionsTests {
    @Test(arguments: [
        ("date,budget,name,amount\n", CSVReader.Delimiter.comma),
        ("Buchungstag;Verwendungszweck;Betrag\n", .semicolon),
        ("date\tname\tamount\r\n", .tab),
        ("\"a;b;c\",x,y\n", .comma),
        ("\"Date, booked\";Name;Amount\n", .semicolon),
        ("single\n", .comma),
        ("a;b,c\nx;y;z;w;v\n", .comma),
    ])
    func theDelimiterIsTheOneTheHeaderUsesOutsideQuotes(header: String, expected: CSVReader.Delimiter) {
        #expect(CSVReader.Delimiter.detect(header: Array(header.utf8)) == expected)
    }

    @Test func aProfileBecomesTheOptionsItDescribes() throws {
        let profile = ImportProfile(
            name: "Sparkasse", columns: "date=Buchungstag,name=Verwendungszweck,amount=Betrag", dateFormat: "dd.MM.yyyy",
            expenseSign: "negative", delimiter: "tab", fallbackBudget: "Inbox", uncategorized: true)
        let options = try CSVImportOptions(profile)
        #expect(options.columns == (try ColumnMapping(parsing: "date=Buchungstag,name=Verwendungszweck,amount=Betrag")))
        #expect(options.dateFormat.pattern == "dd.MM.yyyy")
        #expect(options.expenseSign == .negative && options.delimiter == .tab)
        #expect(options.defaultBudget == "Inbox" && options.tagsFallbackUncategorized)
        #expect(options.dedupeScope == "sparkasse")
        #expect(throws: TallyError.invalidImportOption(.expenseSign, value: "minus", reason: "use positive or negative")) {
            try CSVImportOptions(ImportProfile(name: "x", expenseSign: "minus"))
        }
        #expect(throws: TallyError.invalidImportOption(.delimiter, value: "|", reason: "use ',', ';' or tab")) {
            try CSVImportOptions(ImportProfile(name: "x", delimiter: "|"))
        }
    }

    @Test func givenSettingsWinOverASavedProfile() {
        let saved = ImportProfile(name: "Bank", columns: "date=D,name=N,amount=A", expenseSign: "negative", fallbackBudget: "Inbox", uncategorized: true)
        let merged = saved.overridden(by: ImportProfile(dateFormat: "d.M.yyyy", fallbackBudget: "Misc"))
        #expect(merged == ImportProfile(
            name: "Bank", columns: "date=D,name=N,amount=A", dateFormat: "d.M.yyyy", expenseSign: "negative", fallbackBudget: "Misc", uncategorized: false))
        #expect(saved.overridden(by: ImportProfile()) == saved)
    }

    @Test func aProfileKeepsItsLinesToSkipAndAFlagWins() throws {
        let saved = ImportProfile(name: "Sparkasse", skip: 6)
        #expect(try CSVImportOptions(saved).skipLines == 6)
        #expect(try CSVImportOptions(ImportProfile(name: "Other")).skipLines == nil)
        #expect(saved.overridden(by: ImportProfile(skip: 0)).skip == 0)
        #expect(saved.overridden(by: ImportProfile()).skip == 6)
        // A document's profile is read as the import reads it: a count past the bound names the entry.
        #expect(throws: TallyError.importFile(
            line: nil, reason: "profiles[0] 'Bank': invalid number of lines to skip '1001': use a whole number from 0 to 1000")) {
            try ProfileDTO(ImportProfile(name: "Bank", skip: 1001)).profile(index: 0)
        }
        #expect(try ProfileDTO(saved).profile(index: 0) == saved)
    }
}
