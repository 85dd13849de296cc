import TallyCore
import TallyTestSupport
import Testing
@testable import TallyImportExport

@Suite(.ownThreads) struct AmountFormatTests {
    static let german = AmountFormat(decimalComma: true, currency: "EUR")
    static let us = AmountFormat(currency: "USD")

    @Test(arguments: [
        // German and French exports: decimal comma, '.' or spaces (also U+00A0, U+202F) group thousands.
        ("-1.234,56", true, "EUR", -123_456), ("-45,99", true, "EUR", -4_599), ("1 234,56", true, "EUR", 123_456),
        ("1\u{A0}234,56", true, "EUR", 123_456), ("−1\u{202F}234,5", true, "EUR", -123_450), ("-12,50 €", true, "EUR", -1_250),
        ("€-12,50", true, "EUR", -1_250), ("-€12,50", true, "EUR", -1_250), ("12,50 EUR", true, "EUR", 1_250), ("1.234", true, nil, 123_400),
        // Swiss: apostrophes group thousands, a decimal point.
        ("1'234.50", false, "CHF", 123_450), ("CHF -1'234.50", false, "CHF", -123_450),
        // US: commas group thousands.
        ("1,234.56", false, nil, 123_456), ("-$1,234.56", false, "USD", -123_456), ("$12.50", false, "USD", 1_250), ("12.50 USD", false, "USD", 1_250),
        ("1,234,567.8", false, nil, 123_456_780),
    ] as [(String, Bool, String?, Int64)])
    func realBankLayoutsRead(cell: String, decimalComma: Bool, currency: String?, cents: Int64) {
        #expect(AmountFormat(decimalComma: decimalComma, currency: currency).signedCents(cell) == .success(cents))
    }

    @Test(arguments: [
        ("1,234", false, nil, AmountProblem.ambiguous), ("1,23", false, nil, .fitsNeither), ("1.23,45", false, nil, .fitsNeither),
        ("1.2.3", false, nil, .fitsNeither), ("1.23,45", true, nil, .fitsNeither), ("12.50", true, nil, .fitsNeither),
        ("1,234.5,6", false, nil, .fitsNeither), ("12.50 GBP", false, "EUR", .otherCurrency("GBP")), ("€12.50", false, nil, .currency("EUR")),
        ("$12.50", false, nil, .currency(nil)), ("abc", false, nil, .notANumber), ("", false, nil, .notANumber),
        ("1.234", false, nil, .ambiguous), ("1,2345", false, nil, .fitsNeither),
    ] as [(String, Bool, String?, AmountProblem)])
    func ambiguousAndForeignValuesAreRefused(cell: String, decimalComma: Bool, currency: String?, problem: AmountProblem) {
        #expect(AmountFormat(decimalComma: decimalComma, currency: currency).signedCents(cell) == .failure(problem))
    }

    @Test func reasonsNameNoFlagAndHintsNameTheSetting() {
        let problems: [(AmountProblem, TallyError.ImportHint?)] = [
            (.notANumber, nil), (.ambiguous, .decimalComma), (.fitsNeither, nil), (.otherCurrency("GBP"), .currencyGiven), (.currency("GBP"), .currencyUnnamed), (.currency(nil), .currencyUnnamed),
        ]
        for (problem, hint) in problems {
            for decimalComma in [false, true] { #expect(!problem.reason(decimalComma: decimalComma).contains("--"), "\(problem)") }
            #expect(problem.hint == hint, "\(problem)")
        }
    }

    @Test func aGermanExportImportsAndAnAmbiguousValueNamesItsLine() throws {
        let text = "Buchungstag;Verwendungszweck;Betrag\n03.01.2026;Supermarkt;-1.234,56 €\n04.01.2026;Bäcker;-3,20\n"
        var options = CSVImportOptions(defaultBudget: "Food", expenseSign: .negative, delimiter: .semicolon)
        options.columns = try ColumnMapping(parsing: "date=Buchungstag,name=Verwendungszweck,amount=Betrag")
        options.dateFormat = try DateFormat(pattern: "dd.MM.yyyy")
        options.amountFormat = Self.german
        let plan = try ImportPlanner.plan(.bytes(Array(text.utf8)), format: .csv, options: options)
        var amounts: [Int64] = []
        try ImportPlanner.forEachExpense(in: plan) { (row: ImportedExpense) throws(TallyError) in amounts.append(row.expense.amount.cents) }
        #expect(amounts == [123_456, 320])

        options.amountFormat = AmountFormat()
        options.delimiter = .comma
        let us = "Date;Payee;Amount\n2026-01-03;Shop;-1,234\n".replacingOccurrences(of: ";", with: "\t")
        options.delimiter = .tab
        options.columns = try ColumnMapping(parsing: "date=Date,name=Payee,amount=Amount")
        options.dateFormat = .iso
        do {
            _ = try ImportPlanner.plan(.bytes(Array(us.utf8)), format: .csv, options: options)
            Issue.record("an ambiguous amount was read")
        } catch {
            guard case .importRow(let line, let column, let value, let reason, let hint) = error else { throw error }
            #expect(line == 2 && column == "Amount" && value == "-1,234" && hint == .decimalComma)
            #expect(reason == "it reads differently with a decimal point and a decimal comma", "no flag name below the CLI")
        }
    }
}

@Suite(.ownThreads) struct TextEncodingTests {
    /// `Café Crème;€ 3,20` as Windows-1252 writes it, read through small chunks.
    @Test(arguments: [1, 2, 7, 1 << 16])
    func windows1252AndLatin1BecomeUTF8(chunkSize: Int) throws {
        let bytes: [UInt8] = Array("date,budget,name,amount\n2026-01-02,Caf".utf8) + [0xE9] + Array(",Cr".utf8) + [0xE8] + Array("me ".utf8)
            + [0x80, 0x93, 0x9F] + Array(",3.20\n".utf8)
        var options = CSVImportOptions()
        options.encoding = .windows1252
        var names: [String] = []
        var budgets: [String] = []
        let plan = try ImportPlanner.plan(.bytes(bytes, chunkSize: chunkSize), format: .csv, options: options)
        try ImportPlanner.forEachExpense(in: plan) { (row: ImportedExpense) throws(TallyError) in
            names.append(row.expense.name)
            budgets.append(row.budgetName)
        }
        #expect(budgets == ["Café"] && names == ["Crème €\u{201C}Ÿ"])
        options.encoding = .latin1
        let latin = try ImportPlanner.plan(.bytes(Array("date,budget,name,amount\n2026-01-02,Caf".utf8) + [0xE9] + Array(",x,1\n".utf8)), format: .csv, options: options)
        #expect(latin.summary.budgets.map(\.name) == ["Café"])
    }

    @Test func aFileThatIsNotUTF8NamesTheEncodings() throws {
        let bytes: [UInt8] = Array("date,budget,name,amount\n2026-01-02,Caf".utf8) + [0xE9] + Array(",x,1\n".utf8)
        #expect(throws: TallyError.importFile(line: 2, reason: "the text is not UTF-8", hint: .encoding)) {
            try ImportPlanner.plan(.bytes(bytes), format: .csv)
        }
        #expect(throws: TallyError.invalidImportOption(.encoding, value: "ebcdic", reason: "use utf-8, windows-1252 or latin1")) { try TextEncoding(name: "ebcdic") }
        #expect(try TextEncoding(name: "CP1252") == .windows1252 && TextEncoding(name: "ISO-8859-1") == .latin1)
    }
}

@Suite(.ownThreads) struct AmountFormatMinorUnitTests {
    @Test func amountsInACurrencysOwnDecimals() {
        let format = AmountFormat()
        #expect(format.signedMinorUnits("4500", digits: 0) == .success(4500))
        #expect(format.signedMinorUnits("4500.5", digits: 0) == .failure(.tooManyDecimals(0)))
        #expect(format.signedMinorUnits("1.250", digits: 3) == .success(1250))
        #expect(format.signedMinorUnits("1.2505", digits: 3) == .failure(.tooManyDecimals(3)))
        #expect(format.signedMinorUnits("-12.5", digits: 2) == .success(-1250))
        // Three digits after a point may group thousands: as ambiguous as for cents.
        #expect(format.signedMinorUnits("1.234", digits: 2) == .failure(.ambiguous))
        #expect(AmountFormat(decimalComma: true).signedMinorUnits("1.234,5", digits: 0) == .failure(.tooManyDecimals(0)))
        // Cents keep their own bound; other currencies CurrencyAmount's.
        #expect(format.signedCents("1000000000.01") == .failure(.notANumber))
        #expect(format.signedMinorUnits("150000000000", digits: 0) == .success(150_000_000_000))
    }
}
