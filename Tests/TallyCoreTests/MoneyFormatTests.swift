import Foundation
import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct MoneyFormatTests {
    private func format(_ locale: String, _ currency: String?) throws -> MoneyFormat {
        let name = try #require(try LocaleName.parse(locale))
        return MoneyFormat(locale: name, currency: try currency.map { (code: String) throws(TallyError) in try Currency(code: code) })
    }

    /// The issue's examples, spelled out: NBSP (U+00A0) and narrow NBSP (U+202F) are what ICU
    /// writes and what a terminal shows as a space.
    @Test(arguments: [
        ("de_DE", "EUR", 123_456, "1.234,56\u{A0}€"),
        ("fr_FR", "EUR", 123_456, "1\u{202F}234,56\u{A0}€"),
        ("en_IE", "EUR", 123_456, "€1,234.56"),
        ("hi_IN", "INR", 1_234_567_89, "₹12,34,567.89"),
        ("en_US", "USD", -123_456, "-$1,234.56"),
        ("de_DE", nil, 123_456_789, "1.234.567,89"),
        ("es_ES", nil, 123_456, "1234,56"),
        ("es_ES", nil, 1_234_567, "12.345,67"),
        ("ja_JP", "JPY", 123_456, "¥1,234.56"),
        ("en", nil, 0, "0.00"),
    ] as [(String, String?, Int64, String)])
    func formatsAsTheLocaleWrites(locale: String, currency: String?, cents: Int64, expected: String) throws {
        #expect(try format(locale, currency).string(Money(cents: cents)) == expected)
    }

    @Test func plainIsTodaysGroupedString() {
        for cents: Int64 in [0, 5, 99, 100, 123_450, 100_000_000_000, -123_456_789, .min, .max] {
            #expect(MoneyFormat.plain.string(Money(cents: cents)) == Money(cents: cents).groupedString)
        }
    }

    /// ICU is the truth: in every locale it has, with and without a currency, the conventions
    /// read from the probes format amounts exactly as ICU formats them.
    @Test func matchesICUInEveryLocale() throws {
        var generator = SeededGenerator(seed: 19)
        let amounts: [Int64] = [0, 1, 99, 100, 999_99, 1000_00, 12345_67, 123_456_789_01, 100_000_000_000, -1, -123_456]
            + (0..<6).map { _ in Int64.random(in: -100_000_000_000...100_000_000_000, using: &generator) }
        var mismatches: [String] = []
        for identifier in Locale.availableIdentifiers.sorted() {
            let name = try #require(try LocaleName.parse(identifier))
            let locale = Locale(identifier: identifier)
            for currency in [nil, "EUR"] as [String?] {
                let format = MoneyFormat(locale: name, currency: try currency.map { (code: String) throws(TallyError) in try Currency(code: code) })
                for cents in amounts {
                    let decimal = Decimal(sign: cents < 0 ? .minus : .plus, exponent: -2, significand: Decimal(cents.magnitude))
                    let icu =
                        currency.map { decimal.formatted(.currency(code: $0).precision(.fractionLength(2)).locale(locale)) }
                        ?? decimal.formatted(.number.precision(.fractionLength(2)).locale(locale))
                    let ours = format.string(Money(cents: cents))
                    if ours != icu, cents != 0 || ours.filter(\.isNumber).count != icu.filter(\.isNumber).count {
                        mismatches.append("\(identifier) \(currency ?? "-") \(cents): \(ours) vs ICU \(icu)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test(arguments: [
        ("12,50", 1250), ("12.50", 1250), ("12,5", 1250), ("12", 1200), ("1000000000,00", 100_000_000_000),
    ] as [(String, Int64)])
    func readsTheLocaleDecimalSign(text: String, cents: Int64) throws {
        #expect(try format("de_DE", nil).parse(text) == Money(cents: cents))
    }

    @Test(arguments: ["1.234,50", "12,50,1", "12,", ",5", "12,345", "1,2.3", "-12,50"])
    func refusesGroupingAndMalformedLocalAmounts(text: String) throws {
        #expect(throws: TallyError.invalidAmount(text)) { try format("de_DE", nil).parse(text) }
    }

    @Test func theLocaleDecimalSignIsOnlyReadWhereItIsOne() throws {
        #expect(throws: TallyError.invalidAmount("12,50")) { try format("en_US", nil).parse("12,50") }
        #expect(throws: TallyError.amountOutOfRange("1000000000,01")) { try format("de_DE", nil).parse("1000000000,01") }
    }

    @Test(arguments: [
        ("de_DE.UTF-8", "de_DE"), ("de-DE", "de_DE"), ("fr_FR@euro", "fr_FR"), ("hi_IN", "hi_IN"), ("en", "en"),
    ])
    func readsLocaleNamesAsPeopleWriteThem(text: String, identifier: String) throws {
        #expect(try LocaleName.parse(text)?.identifier == identifier)
    }

    @Test func cAndPosixMeanNoLocale() throws {
        for text in ["C", "POSIX", "C.UTF-8", ""] { #expect(try LocaleName.parse(text) == nil) }
    }

    @Test(arguments: ["xx_YY", "de_XX.UTF-8", "german", "de DE"])
    func refusesUnknownLocales(text: String) {
        #expect(throws: TallyError.invalidLocale(text)) { try LocaleName.parse(text) }
    }

    @Test func currenciesAreISO4217Codes() throws {
        #expect(try Currency(code: "eur").code == "EUR")
        for code in ["EURO", "EU", "XYZ", "€", "", "E1R"] {
            #expect(throws: TallyError.invalidCurrency(code)) { try Currency(code: code) }
        }
    }
}
