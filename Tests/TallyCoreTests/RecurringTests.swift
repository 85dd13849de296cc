import Foundation
import TallyTestSupport
import Testing
import TallyCore

private func d(_ text: String) throws -> Day { try Day(parsing: text) }
private func days(_ texts: String...) throws -> [Day] { try texts.map(d) }

private func rule(
    _ every: RecurringFrequency, interval: Int = 1, day: Int? = nil, start: String, until: String? = nil, skips: [String] = [],
    amount: Int64 = 10_000, budgetID: Int64 = 1, id: Int64 = 1
) throws -> RecurringRule {
    RecurringRule(
        id: id, name: "Bill", budgetID: budgetID, amount: Money(cents: amount), every: every, interval: interval, day: day,
        start: try d(start), until: try until.map(d), skips: try skips.map(d))
}

@Suite(.ownThreads) struct RecurringOccurrenceTests {
    @Test func aThirtyFirstBecomesEachMonthsLastDay() throws {
        let rent = try rule(.month, day: 31, start: "2024-01-01")
        #expect(try rent.occurrences(from: d("2024-01-01"), through: d("2024-05-31"))
            == (try days("2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31")))
        #expect(try rent.occurrences(from: d("2025-02-01"), through: d("2025-02-28")) == (try days("2025-02-28")))
    }

    @Test func theStartDaysDayIsTheDefaultAndAnEarlierDayInTheStartMonthIsNotDue() throws {
        #expect(try rule(.month, start: "2026-01-15").occurrences(from: d("2026-01-01"), through: d("2026-03-31"))
            == (try days("2026-01-15", "2026-02-15", "2026-03-15")))
        #expect(try rule(.month, day: 10, start: "2026-01-15").occurrences(from: d("2026-01-01"), through: d("2026-03-31"))
            == (try days("2026-02-10", "2026-03-10")))
    }

    @Test func yearlyOnALeapDayFallsOnTheLastDayOfFebruaryOtherwise() throws {
        let leap = try rule(.year, start: "2024-02-29")
        #expect(try leap.occurrences(from: d("2024-01-01"), through: d("2028-12-31"))
            == (try days("2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29")))
        #expect(try rule(.year, interval: 2, start: "2024-02-29").occurrences(from: d("2024-01-01"), through: d("2028-12-31"))
            == (try days("2024-02-29", "2026-02-28", "2028-02-29")))
    }

    @Test func weeklyRulesCrossYearEndsOnTheirWeekday() throws {
        // 2026-12-24 is a Thursday; Mondays from then on.
        let gym = try rule(.week, day: 0, start: "2026-12-24")
        #expect(try gym.occurrences(from: d("2026-12-20"), through: d("2027-01-12")) == (try days("2026-12-28", "2027-01-04", "2027-01-11")))
        #expect(try d("2026-12-28").weekday == 0)
        let fortnightly = try rule(.week, interval: 2, start: "2026-12-24")
        #expect(try fortnightly.occurrences(from: d("2027-01-01"), through: d("2027-02-28")) == (try days("2027-01-07", "2027-01-21", "2027-02-04", "2027-02-18")))
    }

    @Test func intervalsCountFromTheStartWhateverTheWindow() throws {
        let everyThird = try rule(.day, interval: 3, start: "2026-02-27")
        #expect(try everyThird.occurrences(from: d("2026-03-01"), through: d("2026-03-10")) == (try days("2026-03-02", "2026-03-05", "2026-03-08")))
        let quarterly = try rule(.month, interval: 3, start: "2026-11-30")
        #expect(try quarterly.occurrences(from: d("2027-01-01"), through: d("2027-12-31")) == (try days("2027-02-28", "2027-05-30", "2027-08-30", "2027-11-30")))
    }

    @Test func skipsAreScheduledButNotDueAndUntilIsTheLastDay() throws {
        let bill = try rule(.month, start: "2026-01-05", until: "2026-04-05", skips: ["2026-02-05"])
        #expect(try bill.occurrences(from: d("2026-01-01"), through: d("2026-12-31")) == (try days("2026-01-05", "2026-03-05", "2026-04-05")))
        #expect(try bill.scheduledDays(from: d("2026-01-01"), through: d("2026-12-31")).count == 4)
        #expect(try bill.isScheduled(on: d("2026-02-05")))
        #expect(try !bill.isScheduled(on: d("2026-02-06")))
        #expect(try !bill.isScheduled(on: d("2026-05-05")))
    }

    @Test func firstDueSkipsPaidAndSkippedOccurrencesAndEndsWithTheRule() throws {
        let bill = try rule(.month, start: "2026-01-05", until: "2026-04-05", skips: ["2026-02-05"])
        #expect(try bill.firstDue(onOrAfter: d("2026-01-01"), excluding: [d("2026-01-05")]) == d("2026-03-05"))
        #expect(try bill.firstDue(onOrAfter: d("2026-01-01"), excluding: Set(days("2026-01-05", "2026-03-05", "2026-04-05"))) == nil)
        // An open-ended yearly rule is found beyond the first year looked at.
        #expect(try rule(.year, start: "2020-06-01").firstDue(onOrAfter: d("2026-07-01"), excluding: []) == d("2027-06-01"))
    }

    @Test func rulesValidateTheirIntervalDayAndEnd() throws {
        #expect(throws: TallyError.invalidInterval(0)) { try rule(.month, interval: 0, start: "2026-01-01").validated() }
        #expect(throws: TallyError.invalidInterval(1_001)) { try rule(.month, interval: 1_001, start: "2026-01-01").validated() }
        #expect(throws: TallyError.invalidRecurringDay("32", .month)) { try rule(.month, day: 32, start: "2026-01-01").validated() }
        #expect(throws: TallyError.recurringDayNotApplicable(.year)) { try rule(.year, day: 3, start: "2026-01-01").validated() }
        #expect(throws: TallyError.untilBeforeStart(start: try d("2026-01-02"), until: try d("2026-01-01"))) {
            try rule(.day, start: "2026-01-02", until: "2026-01-01").validated()
        }
        #expect(try RecurringRule.parseDay("Mon", every: .week) == 0)
        #expect(try RecurringRule.parseDay("sunday", every: .week) == 6)
        #expect(try RecurringRule.parseDay("31", every: .month) == 31)
        #expect(throws: TallyError.invalidRecurringDay("32", .month)) { try RecurringRule.parseDay("32", every: .month) }
        #expect(throws: TallyError.invalidRecurringDay("7", .week)) { try RecurringRule.parseDay("7", every: .week) }
        #expect(throws: TallyError.recurringDayNotApplicable(.day)) { try RecurringRule.parseDay("1", every: .day) }
    }
}

@Suite(.ownThreads) struct RecurringScheduleTests {
    private func expense(_ cents: Int64, _ date: String, budgetID: Int64 = 1, id: Int64 = 1) throws -> Expense {
        Expense(id: id, name: "paid", amount: Money(cents: cents), date: try d(date), budgetID: budgetID)
    }

    @Test func anExpensePaysWithinThreeDaysAndTenPercentExactly() throws {
        let occurrence = RecurringOccurrence(rule: try rule(.month, start: "2026-03-10"), date: try d("2026-03-10"))
        #expect(RecurringSchedule.pays(try expense(11_000, "2026-03-13"), occurrence))
        #expect(RecurringSchedule.pays(try expense(9_000, "2026-03-07"), occurrence))
        #expect(!RecurringSchedule.pays(try expense(11_001, "2026-03-10"), occurrence))
        #expect(!RecurringSchedule.pays(try expense(8_999, "2026-03-10"), occurrence))
        #expect(!RecurringSchedule.pays(try expense(10_000, "2026-03-14"), occurrence))
        #expect(!RecurringSchedule.pays(try expense(10_000, "2026-03-06"), occurrence))
        #expect(!RecurringSchedule.pays(try expense(10_000, "2026-03-10", budgetID: 2), occurrence))
    }

    @Test func upcomingListsOverdueFirstThenTheNextDaysWithoutPaidOrSkipped() throws {
        let rent = try rule(.month, start: "2026-01-01", skips: ["2026-02-01"], id: 1)
        let gym = try rule(.week, day: 2, start: "2026-03-01", amount: 2_000, id: 2)
        let paid = [RecurringPayment(ruleID: 1, date: try d("2026-01-01"), expenseID: 9, kind: .posted)]
        let list = RecurringSchedule.upcoming([rent, gym], payments: paid, today: try d("2026-03-05"), days: 7, budgets: [])
        #expect(list.map(\.date) == (try days("2026-03-01", "2026-03-04", "2026-03-11")))
        #expect(list.map(\.overdue) == [true, true, false])
        #expect(list.map { $0.rule.id } == [1, 2, 2])
        #expect(RecurringSchedule.next(rent, payments: paid, budget: nil) == (try d("2026-03-01")))
        #expect(RecurringSchedule.lastPaid(rent, payments: paid) == (try d("2026-01-01")))
        #expect(RecurringSchedule.lastPaid(gym, payments: paid) == nil)
    }

    /// A weekly hotel from 2026-09-20 in a trip budget for October: its next occurrence is the
    /// first Sunday of October, and none once October's are paid.
    @Test func theNextOccurrenceIsOneItsOnceBudgetTakes() throws {
        let hotel = try rule(.week, start: "2026-09-20")
        let october = DayInterval(first: try d("2026-10-01"), last: try d("2026-10-31"))
        let trip = Budget(id: 1, name: "Trip", limit: Money(cents: 50_000), period: .once, range: october)
        #expect(RecurringSchedule.next(hotel, payments: [], budget: trip) == (try d("2026-10-04")))
        #expect(RecurringSchedule.next(hotel, payments: [], budget: nil) == (try d("2026-09-20")))
        let paid = try days("2026-10-04", "2026-10-11", "2026-10-18", "2026-10-25").map {
            RecurringPayment(ruleID: 1, date: $0, expenseID: nil, kind: .posted)
        }
        #expect(RecurringSchedule.next(hotel, payments: paid, budget: trip) == nil)
    }
}

@Suite(.ownThreads) struct WarningLevelTests {
    private func status(spent: Int64, warn: Int, available: Int64 = 45_000) throws -> BudgetStatus {
        let budget = Budget(id: 1, name: "Groceries", limit: Money(cents: available), warn: warn)
        return try budget.status(viewing: Month(parsing: "2026-03"), in: .calendarMonths, spent: Money(cents: spent), expenseCount: 1)
    }

    @Test func eachBudgetIsNearFromItsOwnWarningLevelAndOverPastAllOfIt() throws {
        #expect(try status(spent: 36_000, warn: 80).level == .near)
        #expect(try status(spent: 35_999, warn: 80).level == .ok)
        #expect(try status(spent: 36_000, warn: 90).level == .ok)
        #expect(try status(spent: 40_500, warn: 90).level == .near)
        #expect(try status(spent: 45_000, warn: 100).level == .near)
        #expect(try status(spent: 45_001, warn: 100).level == .over)
        #expect(try status(spent: 1, warn: 1, available: 100).level == .near)
        #expect(throws: TallyError.invalidWarnLevel(0)) { try BudgetLevel.checkWarn(0) }
        #expect(throws: TallyError.invalidWarnLevel(101)) { try BudgetLevel.checkWarn(101) }
        #expect(throws: TallyError.invalidWarnLevel(101)) { try Budget(name: "x", limit: Money(cents: 1), warn: 101).validated() }
    }

    @Test func anExpenseCrossesALevelOnlyWhenItRaisesIt() throws {
        // 450.00 available, warning at 80 % (360.00).
        #expect(try BudgetLevel.crossed(by: Money(cents: 7_400), into: status(spent: 37_400, warn: 80)) == .near)
        #expect(try BudgetLevel.crossed(by: Money(cents: 100), into: status(spent: 37_500, warn: 80)) == nil)
        #expect(try BudgetLevel.crossed(by: Money(cents: 10_000), into: status(spent: 47_500, warn: 80)) == .over)
        #expect(try BudgetLevel.crossed(by: Money(cents: 46_000), into: status(spent: 46_000, warn: 80)) == .over)
        #expect(try BudgetLevel.crossed(by: Money(cents: 100), into: status(spent: 47_600, warn: 80)) == nil)
        #expect(try BudgetLevel.crossed(by: Money(cents: 100), into: status(spent: 1_000, warn: 80)) == nil)
    }
}
