import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// The rule of a budget in its own currency (``BudgetCurrency``): each expense in the budget's
/// currency, exactly when paid in it, else at the ledger → budget rate of its own day.
@Suite(.ownThreads) struct BudgetCurrencyTests {
    let eur: Currency
    let jpy: Currency
    let usd: Currency
    let bhd: Currency

    init() throws {
        eur = try Currency(code: "EUR")
        jpy = try Currency(code: "JPY")
        usd = try Currency(code: "USD")
        bhd = try Currency(code: "BHD")
    }

    func day(_ text: String) throws -> Day { try Day(parsing: text) }
    func rate(_ day: String, _ from: Currency, _ to: Currency, _ text: String) throws -> DayRate {
        DayRate(day: try self.day(day), from: from, to: to, rate: try ExchangeRate(parsing: text))
    }
    func expense(_ amount: String, on date: String, quantity: Int64 = 1, foreign: ForeignCharge? = nil) throws -> Expense {
        Expense(name: "x", amount: try Money(parsing: amount), quantity: quantity, date: try day(date), budgetID: 1, foreign: foreign)
    }

    @Test func anExpensePaidInTheBudgetsCurrencyCountsItsOriginalExactly() throws {
        let charge = ForeignCharge(original: CurrencyAmount(minorUnits: 4500, currency: jpy), rate: try ExchangeRate(parsing: "0.0062"), source: .table)
        // No rate is needed: the amount as paid, times the quantity.
        let counted = try BudgetCurrency.amount(of: try expense("27.90", on: "2026-03-08", quantity: 3, foreign: charge), in: jpy, rates: [], ledger: eur)
        #expect(counted == (try Money(parsing: "13500")))
    }

    @Test func anotherExpenseCountsAtTheRateOfItsOwnDayRoundedHalfEven() throws {
        let rates = [try rate("2026-03-05", eur, jpy, "160"), try rate("2026-03-06", eur, jpy, "161.54")]
        // 27.86 × 161.54 = 4500.5044 → 4501; on the 5th, 27.86 × 160 = 4457.6 → 4458.
        #expect(try BudgetCurrency.amount(of: expense("27.86", on: "2026-03-06"), in: jpy, rates: rates, ledger: eur) == (try Money(parsing: "4501")))
        #expect(try BudgetCurrency.amount(of: expense("27.86", on: "2026-03-05"), in: jpy, rates: rates, ledger: eur) == (try Money(parsing: "4458")))
        // Half to even: 0.25 × 10 = 2.5 → 2, 0.35 × 10 = 3.5 → 4.
        let ten = [try rate("2026-03-05", eur, jpy, "10")]
        #expect(try BudgetCurrency.amount(of: expense("0.25", on: "2026-03-05"), in: jpy, rates: ten, ledger: eur) == (try Money(parsing: "2")))
        #expect(try BudgetCurrency.amount(of: expense("0.35", on: "2026-03-05"), in: jpy, rates: ten, ledger: eur) == (try Money(parsing: "4")))
        // Two decimals in USD: 10.01 × 1.0825 = 10.835825 → 10.84.
        let dollars = [try rate("2026-03-05", eur, usd, "1.0825")]
        #expect(try BudgetCurrency.amount(of: expense("10.01", on: "2026-03-05"), in: usd, rates: dollars, ledger: eur) == (try Money(parsing: "10.84")))
    }

    @Test func aWeekendTakesFridaysRateAndAPairCrossesThroughTheBase() throws {
        // 2026-03-07 is a Saturday: Friday the 6th's rate.
        let rates = [
            try rate("2026-03-05", eur, jpy, "160"), try rate("2026-03-06", eur, jpy, "161.54"), try rate("2026-03-09", eur, jpy, "170"),
            try rate("2026-03-06", eur, usd, "1.0823"),
        ]
        #expect(try BudgetCurrency.amount(of: expense("27.86", on: "2026-03-07"), in: jpy, rates: rates, ledger: eur) == (try Money(parsing: "4501")))
        // A USD ledger, a JPY budget: USD → EUR → JPY = 161.54 / 1.0823 = 149.256213619144... per USD.
        // 10.00 USD → 1492.56 → 1493.
        #expect(try BudgetCurrency.amount(of: expense("10", on: "2026-03-07"), in: jpy, rates: rates, ledger: usd) == (try Money(parsing: "1493")))
    }

    @Test func aMissingRateIsAnErrorNamingThePairAndDayNeverOneToOne() throws {
        let rates = [try rate("2026-03-06", eur, jpy, "161.54")]
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "EUR", to: "JPY", day: try day("2026-03-05")))) {
            try BudgetCurrency.amount(of: expense("10", on: "2026-03-05"), in: jpy, rates: rates, ledger: eur)
        }
    }

    @Test func aThreeDecimalCurrencyIsKeptToTheCent() throws {
        let charge = ForeignCharge(original: CurrencyAmount(minorUnits: 1255, currency: bhd), rate: try ExchangeRate(parsing: "2.4"), source: .given)
        // 1.255 BHD: Money is hundredths, so once, half to even: 1.26 (5 after an odd 5).
        #expect(try BudgetCurrency.amount(of: expense("3.01", on: "2026-03-05", foreign: charge), in: bhd, rates: [], ledger: eur) == (try Money(parsing: "1.26")))
    }

    @Test func amountsWithMoreDecimalsThanTheCurrencyAreRefused() throws {
        #expect(throws: TallyError.foreignMoney(.invalidAmount("300000.50", currency: "JPY", digits: 0))) {
            try Budget(name: "Trip", limit: Money(parsing: "300000.5"), currency: jpy).validated()
        }
        #expect(throws: TallyError.foreignMoney(.invalidAmount("0.50", currency: "JPY", digits: 0))) {
            try Budget(name: "Trip", limit: Money(parsing: "300000"), cap: Money(parsing: "0.5"), currency: jpy).validated()
        }
        #expect(try Budget(name: "Trip", limit: Money(parsing: "300000"), currency: jpy).validated().currency == jpy)
        #expect(try Budget(name: "Trip", limit: Money(parsing: "300.25"), currency: usd).validated().limit == (try Money(parsing: "300.25")))
    }

    @Test func rolloverInTheBudgetsCurrencyCarriesYenNotEuros() throws {
        // Core's status over the converted amounts: 10,000 JPY a month, 4,000 spent in March.
        let budget = Budget(
            id: 1, name: "Trip", limit: try Money(parsing: "10000"), rollover: .surplus, start: try Month(parsing: "2026-03"), currency: jpy)
        var history = BudgetHistory()
        try history.add(try Money(parsing: "4000"), on: try day("2026-03-10"), of: budget, in: .calendarMonths)
        let april = try budget.status(
            viewing: try Month(parsing: "2026-04"), in: .calendarMonths, spent: try Money(parsing: "2500"), expenseCount: 1, history: history)
        #expect(april.carried == (try Money(parsing: "6000")))
        #expect(april.available == (try Money(parsing: "16000")))
        #expect(april.remaining == (try Money(parsing: "13500")))
    }

    @Test func moneyInACurrencyShowsItsCodeAndItsDecimals() throws {
        #expect(MoneyFormat.plain.inCurrency(jpy).string(try Money(parsing: "300000")) == "300,000 JPY")
        #expect(MoneyFormat.plain.inCurrency(jpy).string(Money(cents: -1_200)) == "-12 JPY")
        // Never rounded: a fraction shows.
        #expect(MoneyFormat.plain.inCurrency(jpy).string(try Money(parsing: "0.5")) == "0.50 JPY")
        #expect(MoneyFormat.plain.inCurrency(usd).string(try Money(parsing: "12.5")) == "12.50 USD")
    }
}
