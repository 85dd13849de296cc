import Foundation
import TallyCore
import TallyTestSupport
import Testing

private func day(_ text: String) throws -> Day { try Day(parsing: text) }
private func month(_ text: String) throws -> Month { try Month(parsing: text) }
private func money(_ cents: Int64) -> Money { Money(cents: cents) }

@Suite(.ownThreads) struct PeriodCalendarTests {
    @Test func periodsStartOnTheMonthStartDayAndAreNamedForTheMonthTheyStartIn() throws {
        let payday = try PeriodCalendar(monthStart: 25)
        #expect(payday.days(of: try month("2026-11")) == DayInterval(first: try day("2026-11-25"), last: try day("2026-12-24")))
        #expect(payday.days(of: try month("2026-12")) == DayInterval(first: try day("2026-12-25"), last: try day("2027-01-24")))
        #expect(payday.days(of: try month("2027-01")) == DayInterval(first: try day("2027-01-25"), last: try day("2027-02-24")))
        #expect(payday.period(containing: try day("2026-11-25")) == (try month("2026-11")))
        #expect(payday.period(containing: try day("2026-11-24")) == (try month("2026-10")))
        #expect(payday.period(containing: try day("2027-01-03")) == (try month("2026-12")))
        #expect(payday.days(ofYear: 2026) == DayInterval(first: try day("2026-01-25"), last: try day("2027-01-24")))
        let plain = PeriodCalendar.calendarMonths
        #expect(plain.days(of: try month("2028-02")) == (try month("2028-02")).days)
        #expect(plain.period(containing: try day("2026-03-01")) == (try month("2026-03")))
        #expect(plain.days(ofYear: 2026) == DayInterval(first: try day("2026-01-01"), last: try day("2026-12-31")))
    }

    @Test(arguments: [1, 2, 15, 28])
    func everyDayFallsInExactlyOnePeriodAndPeriodsTouch(monthStart: Int) throws {
        let calendar = try PeriodCalendar(monthStart: monthStart)
        var previous = calendar.days(of: try month("2025-12"))
        for offset in 0..<26 {
            let days = calendar.days(of: try month("2026-01").adding(months: offset))
            #expect(Array(DayInterval(first: previous.last, last: days.first)).count == 2, "\(monthStart): \(days) follows \(previous)")
            for each in days { #expect(calendar.period(containing: each) == (try month("2026-01")).adding(months: offset)) }
            previous = days
        }
    }

    @Test(arguments: [0, 29, 31, -1])
    func aMonthStartOutsideOneToTwentyEightIsRefused(monthStart: Int) {
        #expect(throws: TallyError.invalidMonthStart(monthStart)) { try PeriodCalendar(monthStart: monthStart) }
    }
}

@Suite(.ownThreads) struct BudgetRulesForPeriodsTests {
    @Test func onceBudgetsNeedARangeAndNeitherRollOverNorTakeOneElsewhere() throws {
        let range = DayInterval(first: try day("2026-07-01"), last: try day("2026-07-14"))
        let backwards = DayInterval(first: try day("2026-07-14"), last: try day("2026-07-01"))
        #expect(throws: TallyError.onceBudgetNeedsRange) { try Budget(name: "Trip", limit: money(1), period: .once).validated() }
        #expect(throws: TallyError.rangeEndsBeforeItStarts(backwards)) { try Budget(name: "Trip", limit: money(1), period: .once, range: backwards).validated() }
        #expect(throws: TallyError.rolloverNeedsRenewingPeriod) {
            try Budget(name: "Trip", limit: money(1), period: .once, rollover: .surplus, range: range).validated()
        }
        #expect(throws: TallyError.rangeNeedsOncePeriod) { try Budget(name: "Food", limit: money(1), range: range).validated() }
        #expect(throws: TallyError.capNotPositive(.zero)) { try Budget(name: "Food", limit: money(1), cap: .zero).validated() }
        let trip = try Budget(name: "Trip", limit: money(90_000), period: .once, range: range).validated()
        #expect(throws: TallyError.expenseOutsideRange(budget: "Trip", day: try day("2026-07-15"), range: range)) {
            try trip.checkAccepts(try day("2026-07-15"))
        }
        try trip.checkAccepts(try day("2026-07-14"))
        try Budget(name: "Food", limit: money(1)).checkAccepts(try day("1999-01-01"))
    }

    @Test func limitHistoryGivesEachPeriodItsLimitAndNewLimitsOnlyChangeTheFuture() throws {
        var food = Budget(name: "Food", limit: money(40_000), start: try month("2026-01"))
        let first = try month("2026-01")
        try food.setLimit(money(45_000), from: try month("2026-04"), firstPeriod: first)
        try food.setLimit(money(50_000), from: try month("2026-09"), firstPeriod: first)
        #expect(food.limit(forPeriod: try month("2025-06")) == money(40_000), "before the first change: the first limit")
        #expect(food.limit(forPeriod: try month("2026-03")) == money(40_000))
        #expect(food.limit(forPeriod: try month("2026-04")) == money(45_000))
        #expect(food.limit(forPeriod: try month("2026-12")) == money(50_000))
        // From a period on: later changes give way.
        try food.setLimit(money(42_000), from: try month("2026-06"), firstPeriod: first)
        #expect(food.limitChanges == [LimitChange(from: try month("2026-04"), limit: money(45_000)), LimitChange(from: try month("2026-06"), limit: money(42_000))])
        // From the first period: the first limit is replaced.
        try food.setLimit(money(30_000), from: first, firstPeriod: first)
        #expect(food.limit == money(30_000) && food.limitChanges.isEmpty)
        #expect(throws: TallyError.limitChangeBeforeStart(from: try month("2025-12"), first: first)) {
            try food.setLimit(money(1), from: try month("2025-12"), firstPeriod: first)
        }
        var unordered = food
        unordered.limitChanges = [LimitChange(from: try month("2026-05"), limit: money(1)), LimitChange(from: try month("2026-03"), limit: money(1))]
        #expect(throws: TallyError.limitChangesOutOfOrder(try month("2026-03"))) { try unordered.validated() }
    }

    @Test func aBudgetBeginsInTheEarlierOfItsCreationAndItsEarliestExpenseUnlessToldOtherwise() throws {
        let created = Date(timeIntervalSince1970: 1_794_000_000)  // 2026-11-06
        var food = Budget(name: "Food", limit: money(1), createdAt: created)
        let calendar = PeriodCalendar.calendarMonths
        let createdMonth = Day(created, in: .current).monthValue
        #expect(food.firstPeriod(in: calendar, earliestExpense: nil) == createdMonth)
        #expect(food.firstPeriod(in: calendar, earliestExpense: try day("2026-02-10")) == (try month("2026-02")))
        #expect(food.firstPeriod(in: calendar, earliestExpense: try day("2027-02-10")) == createdMonth)
        food.start = try month("2026-06")
        #expect(food.firstPeriod(in: calendar, earliestExpense: try day("2026-02-10")) == (try month("2026-06")))
        food.period = .yearly
        #expect(food.firstPeriod(in: calendar, earliestExpense: nil) == (try month("2026-01")), "a yearly budget's periods are years")
    }
}

@Suite(.ownThreads) struct RolloverTests {
    /// A monthly budget of 100.00 that began in January 2026.
    func budget(_ rollover: RolloverPolicy, cap: Money? = nil, period: BudgetPeriod = .monthly) throws -> Budget {
        Budget(name: "Food", limit: money(10_000), period: period, rollover: rollover, cap: cap, start: try month("2026-01"))
    }

    func history(_ spent: [String: Int64]) throws -> BudgetHistory {
        var byPeriod: [Month: Money] = [:]
        for (text, cents) in spent { byPeriod[try month(text)] = money(cents) }
        return BudgetHistory(spentByPeriod: byPeriod)
    }

    func figures(_ budget: Budget, _ period: String, _ history: BudgetHistory) throws -> BudgetStatus {
        let key = try month(period)
        return try budget.status(
            viewing: key, in: .calendarMonths, spent: history.spentByPeriod[key] ?? .zero, expenseCount: 0, history: history)
    }

    @Test func noneCarriesNothing() throws {
        let spent = try history(["2026-01": 2_000, "2026-02": 15_000])
        let march = try figures(try budget(.none), "2026-03", spent)
        #expect(march.carried == .zero && march.available == money(10_000) && march.remaining == money(10_000))
    }

    @Test func surplusCarriesWhatWasLeftButNeverLessThanZero() throws {
        let spent = try history(["2026-01": 2_000, "2026-02": 15_000, "2026-03": 1_000])
        let food = try budget(.surplus)
        #expect(try figures(food, "2026-01", spent).carried == .zero, "nothing into the first period")
        let february = try figures(food, "2026-02", spent)
        #expect(february.carried == money(8_000) && february.available == money(18_000) && february.remaining == money(3_000))
        // February left 30.00 of its 180.00.
        #expect(try figures(food, "2026-03", spent).carried == money(3_000))
        let overspent = try history(["2026-01": 12_000])
        #expect(try figures(food, "2026-02", overspent).carried == .zero, "surplus never carries overspending")
    }

    @Test func bothCarriesOverspendingAsANegativeAmount() throws {
        let spent = try history(["2026-01": 12_000, "2026-02": 5_000])
        let food = try budget(.both)
        let february = try figures(food, "2026-02", spent)
        #expect(february.carried == money(-2_000) && february.available == money(8_000) && february.remaining == money(3_000))
        #expect(try figures(food, "2026-03", spent).carried == money(3_000))
    }

    @Test func theCapBoundsWhatIsAvailableNotWhatIsCarried() throws {
        let spent = try history(["2026-01": 0, "2026-02": 0])
        let food = try budget(.surplus, cap: money(15_000))
        let february = try figures(food, "2026-02", spent)
        #expect(february.carried == money(10_000) && february.available == money(15_000))
        // February could only have 150.00, spent nothing: 150.00 carried into March, capped again.
        let march = try figures(food, "2026-03", spent)
        #expect(march.carried == money(15_000) && march.available == money(15_000))
    }

    /// Two years of alternating thrift and excess, checked against a plain running sum.
    @Test func aLongChainOfSurplusAndOverspendingFollowsTheRunningBalance() throws {
        var spent: [String: Int64] = [:]
        for index in 0..<24 {
            spent[(try month("2026-01")).adding(months: index).isoString] = index.isMultiple(of: 3) ? 25_000 : 3_000
        }
        let recorded = try history(spent)
        for policy in [RolloverPolicy.surplus, .both] {
            let food = try budget(policy)
            var carried: Int64 = 0
            for index in 0..<24 {
                let period = (try month("2026-01")).adding(months: index)
                #expect(try figures(food, period.isoString, recorded).carried == money(carried), "\(policy) \(period)")
                let left = 10_000 + carried - (spent[period.isoString] ?? 0)
                carried = policy == .surplus ? max(left, 0) : left
            }
        }
    }

    @Test func aYearlyBudgetRollsOverYearsAndShowsTheYearToDate() throws {
        let car = Budget(name: "Car", limit: money(120_000), period: .yearly, rollover: .surplus, start: try month("2025-03"))
        let calendar = PeriodCalendar.calendarMonths
        #expect(car.periodKey(of: try month("2025-08")) == (try month("2025-01")))
        #expect(car.days(viewing: try month("2026-03"), in: calendar) == DayInterval(first: try day("2026-01-01"), last: try day("2026-03-31")))
        let history = BudgetHistory(spentByPeriod: [try month("2025-01"): money(100_000)])
        let status = try car.status(viewing: try month("2026-03"), in: calendar, spent: money(5_000), expenseCount: 1, history: history)
        #expect(status.carried == money(20_000) && status.available == money(140_000) && status.remaining == money(135_000))
    }
}

@Suite(.ownThreads) struct PeriodChoiceTests {
    @Test func phrasesCountFromTheLedgersCurrentPeriodAndISOMonthsStandAlone() throws {
        let today = try day("2026-11-10")
        let payday = try PeriodCalendar(monthStart: 25)
        // On 10 Nov with months starting on the 25th, the current period is October's.
        #expect(try PeriodChoice.current.resolved(in: payday, today: today) == (try month("2026-10")))
        #expect(try PeriodChoice(phrase: "this", today: today).resolved(in: payday, today: today) == (try month("2026-10")))
        #expect(try PeriodChoice(phrase: "last", today: today).resolved(in: payday, today: today) == (try month("2026-09")))
        #expect(try PeriodChoice(phrase: "nov", today: today).resolved(in: payday, today: today) == (try month("2025-11")))
        #expect(try PeriodChoice(phrase: "this", today: today).resolved(in: .calendarMonths, today: today) == (try month("2026-11")))
        #expect(try PeriodChoice(phrase: "2026-03", today: today) == .month(try month("2026-03")))
        #expect(throws: TallyError.invalidMonth("2026-13")) { try PeriodChoice(phrase: "2026-13", today: today) }
        #expect(throws: (any Error).self) { try PeriodChoice(phrase: "someday", today: today) }
    }
}
