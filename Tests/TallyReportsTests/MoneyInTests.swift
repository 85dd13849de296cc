import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// The money-in figures of the month report and the report over time, on
/// `Fixtures.accountsStore()` (figures worked out in its comment).
struct MoneyInTests {
    /// An amount as typed, a leading `-` allowed (the parser takes only positive amounts).
    private func money(_ text: String) throws -> Money {
        text.hasPrefix("-") ? Money(cents: -(try Money(parsing: String(text.dropFirst()))).cents) : try Money(parsing: text)
    }

    @Test func incomeCountsOnlyThePeriodsIncomesAndNoTransfer() throws {
        let report = try Fixtures.report(Fixtures.accountsStore())
        // Salary on the 1st; the refund (31 Oct) and the bonus (1 Dec) are outside, and the two
        // transfers of November are neither income nor spending.
        #expect(report.moneyIn.income == (try money("3200")))
        #expect(report.moneyIn.spending == report.totals.spent)
        #expect(report.moneyIn.spending == (try money("1695.65")))
        #expect(report.hasAccounts)
    }

    @Test func savedIsIncomeMinusSpendingAndTheRateIsItsShareOfIncome() throws {
        let figures = try Fixtures.report(Fixtures.accountsStore()).moneyIn
        #expect(figures.saved == (try money("1504.35")))
        // 150,435 × 10,000 / 320,000 = 4,701.09…, toward zero.
        #expect(figures.savingsRate == SavingsRate(basisPoints: 4_701))
        #expect(figures.savingsRate?.ratioString == "0.4701")
        #expect(figures.savingsRate?.percentString == "47.0%")
    }

    @Test func netWorthTakesLiabilitiesAwayAndLeavesOutAccountsNotYetOpen() throws {
        let store = try Fixtures.accountsStore()
        // Checking 3,650 + Savings 5,500 − Visa 50; the loan opens on 5 Dec.
        #expect(try Fixtures.report(store).moneyIn.netWorth == (try money("9100")))
        #expect(try Fixtures.report(store, month: Month(unsafe: "2026-10")).moneyIn.netWorth == (try money("6100")))
        #expect(try Fixtures.report(store, month: Month(unsafe: "2026-12")).moneyIn.netWorth == (try money("-400")))
        let onlyLater = InMemoryStore(clock: Fixtures.clock)
        _ = try onlyLater.addAccount(Account(name: "Loan", kind: .loan, opening: money("100"), openingDate: Day(parsing: "2026-12-05")))
        let report = try Fixtures.report(onlyLater)
        #expect(report.moneyIn.netWorth == nil && report.hasAccounts)
    }

    @Test func aMonthWithoutIncomeHasNoRateAndUnbudgetedCanBeNegative() throws {
        let store = try Fixtures.accountsStore()
        let april = try Fixtures.report(store, month: Month(unsafe: "2027-04"))
        #expect(april.moneyIn.income == .zero)
        #expect(april.moneyIn.savingsRate == nil)
        #expect(april.unbudgeted == (try money("-1750")))
        let october = try Fixtures.report(store, month: Month(unsafe: "2026-10"))
        // 100 in, 1,510.45 out: the rate is below zero, and the budgets promise 1,650 more than came in.
        #expect(october.moneyIn.saved == (try money("-1410.45")))
        #expect(october.moneyIn.savingsRate == SavingsRate(basisPoints: -141_045))
        #expect(october.moneyIn.savingsRate?.ratioString == "-14.1045")
        #expect(october.unbudgeted == (try money("-1650")))
        #expect(try Fixtures.report(store).unbudgeted == (try money("1450")))
    }

    @Test func aLedgerWithoutAccountsCarriesEmptyFigures() throws {
        let report = try Fixtures.report(Fixtures.store())
        #expect(!report.hasAccounts)
        #expect(report.moneyIn.income == .zero && report.moneyIn.netWorth == nil && report.moneyIn.savingsRate == nil)
        #expect(report.moneyIn.saved == (try money("-1695.65")))
        #expect(report.unbudgeted == (try money("-1750")))
    }

    @Test func theRateRoundsTowardZeroAndRefusesToOverflow() throws {
        #expect(try SavingsRate(saved: Money(cents: 1), of: Money(cents: 3))?.basisPoints == 3_333)
        #expect(try SavingsRate(saved: Money(cents: -1), of: Money(cents: 3))?.basisPoints == -3_333)
        #expect(try SavingsRate(saved: Money(cents: -1), of: Money(cents: 3))?.percentString == "-33.3%")
        #expect(try SavingsRate(saved: .zero, of: .zero) == nil)
        #expect(SavingsRate(basisPoints: -5).ratioString == "-0.0005")
        #expect(SavingsRate(basisPoints: -5).percentString == "0.0%")
        #expect(throws: TallyError.arithmeticOverflow) { try SavingsRate(saved: Money(cents: .max / 100), of: Money(cents: 1)) }
    }

    @Test func theRangeGivesEachPeriodsFiguresWhateverItsRowsAreNarrowedTo() throws {
        let store = try Fixtures.accountsStore()
        let range = try PeriodRange(from: Month(unsafe: "2026-10"), to: Month(unsafe: "2026-12"))
        let report = try RangeReportBuilder(store: store).report(for: range)
        #expect(report.hasAccounts)
        #expect(report.moneyIn.map(\.income) == (try ["100", "3200", "500"].map(money)))
        #expect(report.moneyIn.map(\.spending) == (try ["1510.45", "1695.65", "1200"].map(money)))
        #expect(report.moneyIn.map(\.saved) == (try ["-1410.45", "1504.35", "-700"].map(money)))
        #expect(report.moneyIn.map { $0.savingsRate?.basisPoints } == [-141_045, 4_701, -14_000])
        #expect(report.moneyIn.map(\.netWorth) == (try ["6100", "9100", "-400"].map(money)))
        for options in [RangeReportBuilder.Options(budgets: ["Rent"]), .init(tag: "food"), .init(kind: .tag)] {
            #expect(try RangeReportBuilder(store: store).report(for: range, options: options).moneyIn == report.moneyIn)
        }
        let plain = try RangeReportBuilder(store: Fixtures.store()).report(for: range)
        #expect(!plain.hasAccounts && plain.moneyIn.allSatisfy { $0.netWorth == nil && $0.savingsRate == nil })
    }
}
