import Foundation
import TallyCore
import TallyTestSupport
import Testing

private func day(_ text: String) throws -> Day { try Day(parsing: text) }
private func month(_ text: String) throws -> Month { try Month(parsing: text) }

@Suite(.ownThreads) struct PeriodRangeTests {
    @Test func aRangeRunsForwardAndHoldsAtMostTenYears() throws {
        let range = try PeriodRange(from: month("2025-11"), to: month("2026-02"))
        #expect(range.count == 4)
        #expect(range.months.map(\.isoString) == ["2025-11", "2025-12", "2026-01", "2026-02"])
        #expect(try PeriodRange(from: month("2026-03"), to: month("2026-03")).count == 1)
        #expect(try PeriodRange(from: month("2017-01"), to: month("2026-12")).count == 120)
        #expect(throws: TallyError.periodRangeReversed(from: try month("2026-03"), to: try month("2026-02"))) {
            try PeriodRange(from: month("2026-03"), to: month("2026-02"))
        }
        #expect(throws: TallyError.periodRangeTooLong(from: try month("2016-12"), to: try month("2026-12"), count: 121)) {
            try PeriodRange(from: month("2016-12"), to: month("2026-12"))
        }
        let year = try PeriodRange(year: 2026)
        #expect(year.first == (try month("2026-01")))
        #expect(year.last == (try month("2026-12")))
    }

    @Test func baseRangesAreTheSameLengthBeforeOrAYearEarlier() throws {
        let range = try PeriodRange(from: month("2026-02"), to: month("2026-04"))
        #expect(range.previous == (try PeriodRange(from: month("2025-11"), to: month("2026-01"))))
        #expect(range.yearEarlier == (try PeriodRange(from: month("2025-02"), to: month("2025-04"))))
    }

    @Test func changesAreExactAndHaveNoPercentageWithoutABase() throws {
        let up = try Change(from: Money(cents: 4_000), to: Money(cents: 6_480))
        #expect(up.amount == Money(cents: 2_480) && up.basisPoints == 6_200)
        #expect(up.percentString == "+62.0%" && up.ratioString == "0.6200")
        let down = try Change(from: Money(cents: 30_000), to: Money(cents: 29_999))
        // −1/30000 = −0.33 basis points: to the nearest it is none, and shows as no change.
        #expect(down.amount == Money(cents: -1) && down.basisPoints == 0 && down.percentString == "0.0%")
        let third = try Change(from: Money(cents: 300), to: Money(cents: 200))
        #expect(third.basisPoints == -3_333 && third.percentString == "-33.3%" && third.ratioString == "-0.3333")
        // A change rounds to the nearest, halves away from zero (a share of a limit rounds down).
        let price = try Change(from: Money(cents: 110), to: Money(cents: 125))
        #expect(price.basisPoints == 1_364 && price.ratioString == "0.1364" && price.percentString == "+13.6%")
        let grown = try Change(from: Money(cents: 1_100), to: Money(cents: 1_300))
        #expect(grown.basisPoints == 1_818 && grown.percentString == "+18.2%")
        let fall = try Change(from: Money(cents: 110), to: Money(cents: 95))
        #expect(fall.basisPoints == -1_364 && fall.ratioString == "-0.1364" && fall.percentString == "-13.6%")
        let half = try Change(from: Money(cents: 20_000), to: Money(cents: 20_001))
        #expect(half.basisPoints == 1 && half.percentString == "0.0%")
        let tenthHalf = try Change(from: Money(cents: 10_000), to: Money(cents: 10_005))
        #expect(tenthHalf.basisPoints == 5 && tenthHalf.percentString == "+0.1%")
        let fromNothing = try Change(from: .zero, to: Money(cents: 1_250))
        #expect(fromNothing.amount == Money(cents: 1_250) && fromNothing.basisPoints == nil)
        #expect(fromNothing.percentString == nil && fromNothing.ratioString == nil)
        let nothing = try Change(from: .zero, to: .zero)
        #expect(nothing.amount == .zero && nothing.basisPoints == nil)
        #expect(throws: TallyError.arithmeticOverflow) { try Change(from: Money(cents: 1), to: Money(cents: Int64.max / 2)) }
    }

    @Test func theAverageRoundsTowardZeroToTheCent() {
        #expect(Money.average(of: Money(cents: 326_710), over: 3) == Money(cents: 108_903))
        #expect(Money.average(of: Money(cents: 200), over: 3) == Money(cents: 66))
        #expect(Money.average(of: Money(cents: 1_000), over: 0) == .zero)
    }
}

@Suite(.ownThreads) struct RangeSpendingTests {
    private func expenses() throws -> [Expense] {
        [
            Expense(name: "Pizza", amount: Money(cents: 2_000), date: try day("2026-01-03"), budgetID: 1, tags: ["food", "friends"]),
            Expense(name: "Bread", amount: Money(cents: 300), quantity: 2, date: try day("2026-01-24"), budgetID: 1, tags: ["food"]),
            Expense(name: "Bus", amount: Money(cents: 250), date: try day("2026-01-25"), budgetID: 2),
            Expense(name: "Cinema", amount: Money(cents: 1_200), date: try day("2026-02-26"), budgetID: 2, tags: ["friends"]),
            Expense(name: "Later", amount: Money(cents: 999), date: try day("2026-04-01"), budgetID: 2, tags: ["food"]),
        ]
    }

    @Test func anExpenseWithTwoTagsCountsInBothAndOnceInTheTotal() throws {
        let months = try month("2026-01")...month("2026-02")
        let (byTag, once) = try Spending.byTagAndPeriod(in: months, of: expenses(), calendar: .calendarMonths)
        let january = try month("2026-01")
        #expect(byTag[january] == ["food": Money(cents: 2_600), "friends": Money(cents: 2_000)])
        #expect(once[january] == Money(cents: 2_600))
        #expect(byTag[try month("2026-02")] == ["friends": Money(cents: 1_200)])
        #expect(once[try month("2026-02")] == Money(cents: 1_200))
    }

    @Test func perPeriodSpendingInOnePassIsTheTrendRule() throws {
        let budgets = [Budget(id: 1, name: "Food", limit: Money(cents: 10_000)), Budget(id: 2, name: "Out", limit: Money(cents: 5_000))]
        let payday = try PeriodCalendar(monthStart: 25)
        for calendar in [PeriodCalendar.calendarMonths, payday] {
            let months = try month("2025-12")...month("2026-04")
            let onePass = try Spending.byPeriod(in: months, of: expenses(), calendar: calendar)
            let rule = try Spending.byMonth(in: months, budgets: budgets, of: expenses(), calendar: calendar)
            #expect(onePass == rule, "month start \(calendar.monthStart)")
        }
    }

    @Test func availableIsTheStatusFigureWithCarriedIn() throws {
        let budget = Budget(id: 1, name: "Food", limit: Money(cents: 10_000), rollover: .both, start: try month("2026-01"))
        let months = try month("2026-01")...month("2026-03")
        let available = try Spending.availableByMonth(in: months, budgets: [budget], of: expenses(), calendar: .calendarMonths)
        for period in Spending.months(in: months) {
            let status = try budget.status(viewing: period, in: .calendarMonths, of: expenses())
            #expect(available[period]?[1] == status.available, "\(period)")
        }
        // January spent 26.00 of 100.00, so February has 174.00.
        #expect(available[try month("2026-02")]?[1] == Money(cents: 17_400))
    }
}
