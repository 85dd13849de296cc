import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The goal rules (``GoalFigures``): funded, needed, status and shortfall, computed from a
/// budget's figures in the view of one period.
@Suite(.ownThreads) struct BudgetTargetTests {
    let calendar = PeriodCalendar.calendarMonths

    func month(_ text: String) throws -> Month { try Month(parsing: text) }
    func money(_ cents: Int64) -> Money { Money(cents: cents) }

    /// A monthly budget from July 2026 saving `limit` a month toward 1,200.00 by June 2027.
    func holiday(limit: Int64 = 10_000, rollover: RolloverPolicy = .surplus, target: Int64 = 120_000, by: String = "2027-06") throws -> Budget {
        try Budget(
            id: 1, name: "Holiday", limit: money(limit), rollover: rollover, start: month("2026-07"),
            target: BudgetTarget(amount: money(target), by: month(by))
        ).validated()
    }

    func goal(_ budget: Budget, viewing text: String, spent: [String: Int64] = [:], spentNow: Int64 = 0) throws -> GoalFigures {
        var history = BudgetHistory()
        for (key, cents) in spent { history.spentByPeriod[try month(key)] = money(cents) }
        let status = try budget.status(viewing: month(text), in: calendar, spent: money(spentNow), expenseCount: 0, history: history)
        return try #require(status.goal)
    }

    // MARK: - By a date (sinking funds)

    @Test func aSinkingFundWithRolloverCountsWhatCarriedIn() throws {
        // Four months of 100.00 carried in: 400.00 held; 800.00 over the 8 periods through June.
        let figures = try goal(try holiday(), viewing: "2026-11")
        #expect(figures.funded == money(50_000))
        #expect(figures.periodsLeft == 8)
        #expect(figures.needed == money(10_000))
        #expect(figures.progress == .onTrack)
        #expect(figures.shortfall == .zero)
    }

    @Test func withoutRolloverOnlyThisPeriodCounts() throws {
        let figures = try goal(try holiday(rollover: .none), viewing: "2026-11")
        #expect(figures.funded == money(10_000))
        // Nothing held at the start: the whole 1,200.00 over 8 periods.
        #expect(figures.needed == money(15_000))
        #expect(figures.progress == .behind)
        #expect(figures.shortfall == money(5_000))
    }

    @Test func spendingFromTheFundJustCounts() throws {
        let figures = try goal(try holiday(), viewing: "2026-11", spentNow: 30_000)
        #expect(figures.funded == money(20_000))
        #expect(figures.needed == money(10_000))
    }

    @Test func neededRoundsUpToTheCent() throws {
        // 1,000.00 over 12 periods is 83.333…: 83.34, so twelve of them reach the target.
        let budget = try holiday(limit: 8_334, target: 100_000, by: "2027-06")
        let figures = try goal(budget, viewing: "2026-07")
        #expect(figures.periodsLeft == 12)
        #expect(figures.needed == money(8_334))
        #expect(figures.progress == .onTrack)
        #expect(GoalFigures.needed(remainder: money(1), periodsLeft: 3) == money(1))
        #expect(GoalFigures.needed(remainder: money(300), periodsLeft: 3) == money(100))
        #expect(GoalFigures.needed(remainder: money(301), periodsLeft: 3) == money(101))
    }

    @Test func afterTheDateTheWholeRemainderIsNeeded() throws {
        // Limit 50.00 from July 2026: by July 2027, 12 periods carried 600.00 of 1,200.00.
        let figures = try goal(try holiday(limit: 5_000), viewing: "2027-07")
        #expect(figures.periodsLeft == 1)
        #expect(figures.needed == money(60_000))
        #expect(figures.progress == .behind)
        #expect(figures.shortfall == money(55_000))
    }

    @Test func aFundAlreadyFundedNeedsNothing() throws {
        // Actual users report being asked to fund categories that are already funded.
        let figures = try goal(try holiday(limit: 40_000), viewing: "2026-11")
        #expect(figures.needed == .zero)
        #expect(figures.progress == .funded)
        #expect(figures.shortfall == .zero)
    }

    @Test func aShrinkingScheduleNeedsMoreEachPeriodNeverLessThanTheStraightLine() throws {
        // Saving 50.00 a month toward 1,200.00 over 12: the straight line is 100.00, and each
        // period that falls short makes the next need more (Actual's stacked by-date templates
        // under-saved here).
        let budget = try holiday(limit: 5_000)
        var previous = Money.zero
        for offset in 0..<12 {
            let viewed = try month("2026-07").adding(months: offset)
            let figures = try goal(budget, viewing: viewed.isoString)
            #expect(figures.needed >= money(10_000))
            #expect(figures.needed >= previous)
            #expect(figures.progress == .behind)
            previous = figures.needed
        }
        #expect(previous == money(65_000))
    }

    @Test func twoSinkingFundsEachKeepTheirOwnNeed() throws {
        let holiday = try holiday()
        let car = try Budget(
            id: 2, name: "Car", limit: money(5_000), rollover: .surplus, start: month("2026-07"),
            target: BudgetTarget(amount: money(60_000), by: month("2026-12"))
        ).validated()
        let holidayGoal = try goal(holiday, viewing: "2026-11")
        let carGoal = try goal(car, viewing: "2026-11")
        #expect(holidayGoal.needed == money(10_000))
        // Car: 200.00 carried, 400.00 left over November and December.
        #expect(carGoal.needed == money(20_000))
        #expect(carGoal.progress == .behind)
        #expect(carGoal.shortfall == money(15_000))
    }

    @Test func aYearlyBudgetCountsYears() throws {
        let budget = try Budget(
            id: 3, name: "Insurance", limit: money(50_000), period: .yearly, rollover: .surplus, start: month("2026-01"),
            target: BudgetTarget(amount: money(150_000), by: month("2028-06"))
        ).validated()
        let figures = try goal(budget, viewing: "2026-05")
        #expect(figures.periodsLeft == 3)
        #expect(figures.needed == money(50_000))
        #expect(figures.progress == .onTrack)
    }

    // MARK: - Every period

    @Test func aPerPeriodTargetIsFundedByWhatIsSetAside() throws {
        let car = try Budget(id: 4, name: "Car", limit: money(10_000), target: BudgetTarget(amount: money(10_000))).validated()
        let figures = try goal(car, viewing: "2026-11", spentNow: 2_500)
        #expect(figures.funded == money(10_000))
        #expect(figures.needed == money(10_000))
        #expect(figures.progress == .funded)
        #expect(figures.periodsLeft == nil)
    }

    @Test func aPerPeriodTargetAboveTheLimitIsBehind() throws {
        let car = try Budget(id: 4, name: "Car", limit: money(10_000), target: BudgetTarget(amount: money(15_000))).validated()
        let figures = try goal(car, viewing: "2026-11")
        #expect(figures.progress == .behind)
        #expect(figures.shortfall == money(5_000))
    }

    @Test func aPerPeriodTargetCountsWhatCarriedIn() throws {
        // Refill up to: 100.00 carried from October, so November needs 50.00 of its 150.00.
        let car = try Budget(
            id: 4, name: "Car", limit: money(10_000), rollover: .surplus, start: month("2026-10"),
            target: BudgetTarget(amount: money(15_000))
        ).validated()
        let figures = try goal(car, viewing: "2026-11")
        #expect(figures.needed == money(5_000))
        #expect(figures.funded == money(20_000))
        #expect(figures.progress == .funded)
    }

    @Test func aBudgetBehindItsGoalIsAtTheWarningLevel() throws {
        let budget = try holiday(rollover: .none)
        let status = try budget.status(viewing: month("2026-11"), in: calendar, spent: .zero, expenseCount: 0)
        #expect(status.isBehindGoal)
        #expect(AlertLevel(status, pace: nil) == .warning)
        let onTrack = try holiday().status(viewing: month("2026-11"), in: calendar, spent: .zero, expenseCount: 0)
        #expect(AlertLevel(onTrack, pace: nil) == .ok)
    }

    // MARK: - Validation and changes

    @Test func aTargetValidatesItself() throws {
        #expect(throws: TallyError.targetNotPositive(.zero)) {
            try Budget(name: "A", limit: money(100), target: BudgetTarget(amount: .zero)).validate()
        }
        #expect(throws: TallyError.amountOutOfRange(Money(cents: Money.maximumInput.cents + 1).plainString)) {
            try Budget(name: "A", limit: money(100), target: BudgetTarget(amount: Money(cents: Money.maximumInput.cents + 1))).validate()
        }
        let range = DayInterval(first: try Day(parsing: "2026-07-01"), last: try Day(parsing: "2026-07-14"))
        #expect(throws: TallyError.targetNeedsRenewingPeriod) {
            try Budget(name: "Trip", limit: money(100), period: .once, range: range, target: BudgetTarget(amount: money(100))).validate()
        }
        #expect(throws: TallyError.targetBeforeStart(by: try month("2026-06"), start: try month("2026-07"))) {
            try Budget(name: "A", limit: money(100), start: month("2026-07"), target: BudgetTarget(amount: money(100), by: month("2026-06")))
                .validate()
        }
    }

    @Test func changesKeepWhatIsNotGiven() throws {
        var budget = Budget(name: "Car", limit: money(100))
        #expect(throws: TallyError.targetNeedsSchedule("Car")) { try budget.apply(TargetChange(amount: money(500))) }
        #expect(throws: TallyError.targetNeedsAmount("Car")) { try budget.apply(TargetChange(by: try month("2027-01"))) }
        #expect(throws: TallyError.targetAccountNeedsTarget("Car")) { try budget.apply(TargetChange(accountID: 3)) }
        #expect(throws: TallyError.targetCadenceMismatch(budget: "Car", period: .monthly)) {
            try budget.apply(TargetChange(amount: money(500), every: .yearly))
        }
        try budget.apply(TargetChange(amount: money(500), by: try month("2027-01"), accountID: 3))
        #expect(budget.target == BudgetTarget(amount: money(500), by: try month("2027-01"), accountID: 3))
        try budget.apply(TargetChange(amount: money(700)))
        #expect(budget.target == BudgetTarget(amount: money(700), by: try month("2027-01"), accountID: 3))
        try budget.apply(TargetChange(every: .monthly, removesAccount: true))
        #expect(budget.target == BudgetTarget(amount: money(700)))
        try budget.apply(TargetChange(removes: true))
        #expect(budget.target == nil)
    }

    @Test func aBudgetWithATargetCodesAndOneWithoutDecodesAsBefore() throws {
        let budget = try holiday()
        let data = try JSONEncoder().encode(budget)
        #expect(try JSONDecoder().decode(Budget.self, from: data).target == budget.target)
        var plain = budget
        plain.target = nil
        var object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(plain)) as? [String: Any])
        object.removeValue(forKey: "target")
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(Budget.self, from: old).target == nil)
    }
}
