import Foundation
import TallyCore
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ForeignMoneyTests {
    func currency(_ code: String) throws -> Currency { try Currency(code: code) }
    func rate(_ text: String) throws -> ExchangeRate { try ExchangeRate(parsing: text) }

    @Test func minorUnitsFollowISO4217NotCLDR() throws {
        #expect(try MinorUnits.digits(of: currency("JPY")) == 0)
        #expect(try MinorUnits.digits(of: currency("EUR")) == 2)
        #expect(try MinorUnits.digits(of: currency("BHD")) == 3)
        // CLDR shows these with 0 decimals; ISO 4217 gives them 3 and 2.
        #expect(try MinorUnits.digits(of: currency("IQD")) == 3)
        #expect(try MinorUnits.digits(of: currency("LAK")) == 2)
        #expect(try MinorUnits.digits(of: currency("CLF")) == 4)
        #expect(throws: TallyError.foreignMoney(.noMinorUnit("XAU"))) { try MinorUnits.digits(of: currency("XAU")) }
    }

    @Test(arguments: [
        ("4500", "JPY", 4500), ("12.5", "EUR", 1250), ("12.50", "EUR", 1250), ("1.25", "BHD", 1250), ("1.250", "BHD", 1250),
    ] as [(String, String, Int64)])
    func amountsAreReadInTheirOwnMinorUnits(text: String, code: String, minor: Int64) throws {
        let amount = try CurrencyAmount(parsing: text, currency: currency(code))
        #expect(amount.minorUnits == minor)
    }

    @Test(arguments: [("4500.5", "JPY"), ("12.505", "EUR"), ("1.2345", "BHD"), ("", "EUR"), ("-5", "EUR"), ("1e3", "JPY"), ("0", "JPY")])
    func moreDecimalsThanTheCurrencyHasAreRefused(text: String, code: String) throws {
        #expect(throws: TallyError.self) { try CurrencyAmount(parsing: text, currency: currency(code)) }
    }

    @Test func amountsPrintWithTheirCurrencysDecimals() throws {
        #expect(CurrencyAmount(minorUnits: 4500, currency: try currency("JPY")).description == "4500 JPY")
        #expect(CurrencyAmount(minorUnits: 5, currency: try currency("EUR")).plainString == "0.05")
        #expect(CurrencyAmount(minorUnits: 1250, currency: try currency("BHD")).plainString == "1.250")
    }

    @Test func ratesAreExactDecimalsInLowestTerms() throws {
        #expect(try rate("161.540").plainString == "161.54")
        #expect(try rate("0.000000000001").plainString == "0.000000000001")
        #expect(try rate("1") == rate("1.000"))
        for bad in ["0", "0.0", "-1", "1.", ".5", "1,5", "0.0000000000001", "1e3", "", "99999999999999999999"] {
            #expect(throws: TallyError.foreignMoney(.invalidRate(bad))) { try ExchangeRate(parsing: bad) }
        }
    }

    @Test func aRateTypedByHandIsAtMostAMillionAndAFilesIsNotBounded() throws {
        for good in ["1000000", "1000000.000000000000", "999999.999999999999", "0.000000000001"] {
            #expect(try ExchangeRate(typed: good) == rate(good))
        }
        for bad in ["1000000.000000000001", "1000001", "2000000", "9999999999999"] {
            #expect(throws: TallyError.foreignMoney(.typedRateTooLarge(bad))) { try ExchangeRate(typed: bad) }
            #expect(try ExchangeRate(parsing: bad).mantissa > 0)
        }
        #expect(throws: TallyError.foreignMoney(.invalidRate("0"))) { try ExchangeRate(typed: "0") }
    }

    @Test func conversionRoundsHalfToEvenAtTheLedgersMinorUnit() throws {
        let eur = try currency("EUR")
        let jpy = try currency("JPY")
        // 4500 × 0.006190417234 = 27.85687…
        #expect(try rate("0.006190417234").convert(CurrencyAmount(minorUnits: 4500, currency: jpy), into: eur) == Money(cents: 2786))
        // Exactly half a cent: to the even cent, both ways.
        #expect(try rate("0.0125").convert(CurrencyAmount(minorUnits: 1, currency: jpy), into: eur) == Money(cents: 1))
        #expect(try rate("0.0135").convert(CurrencyAmount(minorUnits: 1, currency: jpy), into: eur) == Money(cents: 1))
        #expect(try rate("0.0145").convert(CurrencyAmount(minorUnits: 1, currency: jpy), into: eur) == Money(cents: 1))
        #expect(try rate("0.0155").convert(CurrencyAmount(minorUnits: 1, currency: jpy), into: eur) == Money(cents: 2))
        // Into a ledger without decimals: whole yen, kept as hundredths.
        #expect(try rate("161.5").convert(CurrencyAmount(minorUnits: 101, currency: eur), into: jpy) == Money(cents: 16_300))
        // From three decimals.
        #expect(try rate("2.5").convert(CurrencyAmount(minorUnits: 1_001, currency: try currency("BHD")), into: eur) == Money(cents: 250))
    }

    @Test func conversionsTooLargeFailInsteadOfWrapping() throws {
        let huge = CurrencyAmount(minorUnits: Int64.max, currency: try currency("JPY"))
        #expect(throws: TallyError.self) { try rate("999999999999999999").convert(huge, into: try currency("EUR")) }
        #expect(throws: TallyError.self) { try rate("1000000").convert(CurrencyAmount(minorUnits: 1_000_000_000_000_000, currency: try currency("JPY")), into: try currency("EUR")) }
    }

    @Test func derivedRatesRoundOnceToTwelveDecimals() throws {
        #expect(try rate("161.54").inverted().plainString == "0.006190417234")
        #expect(try rate("3").inverted().plainString == "0.333333333333")
        #expect(try rate("0.000000000001").inverted().plainString == "1000000000000")
        // USD per JPY through EUR: 1.0823 / 161.54.
        #expect(try ExchangeRate.quotient(rate("1.0823"), by: rate("161.54")).plainString == "0.006699888572")
        #expect(try ExchangeRate.product(rate("0.5"), rate("0.25")).plainString == "0.125")
    }

    @Test func theRateIsTheLatestOnOrBeforeTheDayThenTheInverseThenThroughAThirdCurrency() throws {
        let eur = try currency("EUR")
        let jpy = try currency("JPY")
        let usd = try currency("USD")
        let rows = [
            DayRate(day: try Day(parsing: "2026-03-05"), from: eur, to: jpy, rate: try rate("160")),
            DayRate(day: try Day(parsing: "2026-03-06"), from: eur, to: jpy, rate: try rate("161.54")),
            DayRate(day: try Day(parsing: "2026-03-06"), from: eur, to: usd, rate: try rate("1.0823")),
            DayRate(day: try Day(parsing: "2026-03-10"), from: eur, to: jpy, rate: try rate("170")),
        ]
        // Sunday the 8th takes Friday the 6th's.
        let sunday = try Day(parsing: "2026-03-08")
        #expect(try RateLookup.rate(from: eur, to: jpy, on: sunday, in: rows) == rate("161.54"))
        #expect(try RateLookup.rate(from: jpy, to: eur, on: sunday, in: rows) == rate("161.54").inverted())
        #expect(try RateLookup.rate(from: jpy, to: usd, on: sunday, in: rows) == ExchangeRate.quotient(rate("1.0823"), by: rate("161.54")))
        #expect(try RateLookup.rate(from: jpy, to: eur, on: try Day(parsing: "2026-03-05"), in: rows) == rate("160").inverted())
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "JPY", to: "USD", day: try Day(parsing: "2026-03-05")))) {
            try RateLookup.rate(from: jpy, to: usd, on: try Day(parsing: "2026-03-05"), in: rows)
        }
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "JPY", to: "EUR", day: try Day(parsing: "2026-03-01")))) {
            try RateLookup.rate(from: jpy, to: eur, on: try Day(parsing: "2026-03-01"), in: rows)
        }
    }

    @Test(arguments: [
        ("4500 JPY", "JPY", "4500"), ("JPY 4500", "JPY", "4500"), ("4500jpy", "JPY", "4500"), ("¥4500", "JPY", "4500"),
        ("€12,50", "EUR", "12,50"), ("12.50 €", "EUR", "12.50"), ("US$5", "USD", "5"),
    ] as [(String, String, String)])
    func amountsNameTheirCurrencyByCodeOrSign(text: String, code: String, number: String) {
        let split = AmountText.split(text)
        #expect(split.code == code)
        #expect(split.number == number)
    }

    @Test func plainAmountsNameNoCurrency() {
        #expect(AmountText.split("12.50").code == nil)
        #expect(AmountText.split("$5").code == nil)
    }

    @Test func aSignOfSeveralCurrenciesIsFoundSoItCanBeRefused() {
        #expect(AmountText.sharedSign(in: "$5") == "$")
        #expect(AmountText.sharedSign(in: " 12,50 kr") == "kr")
        for text in ["12.50", "US$5", "$", "$ abc", "5 JPY"] { #expect(AmountText.sharedSign(in: text) == nil, "\(text)") }
    }
}
