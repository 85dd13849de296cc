import Foundation
import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct PaceTests {
    private var april: DayInterval {
        get throws { DayInterval(first: try Day(parsing: "2026-04-01"), last: try Day(parsing: "2026-04-30")) }
    }

    private func status(spent: Int64, available: Int64 = 30_000) throws -> BudgetStatus {
        try Budget(id: 1, name: "Food", limit: Money(cents: available))
            .status(viewing: Month(parsing: "2026-04"), in: .calendarMonths, spent: Money(cents: spent), expenseCount: 1)
    }

    private func pace(spent: Int64, on day: String, paid: Int64 = 0, due: Int64 = 0) throws -> BudgetPace? {
        try BudgetPace(
            status: status(spent: spent), days: try april, today: Day(parsing: day), billsPaid: Money(cents: paid), billsDue: Money(cents: due))
    }

    @Test func tooEarlyBeforeATenthOfThePeriod() throws {
        // Day 2 of 30 is 6 %, day 3 is 10 %.
        let early = try #require(try pace(spent: 5_000, on: "2026-04-02"))
        #expect(early.projected == nil && early.elapsed == Share(basisPoints: 666))
        #expect(try pace(spent: 5_000, on: "2026-04-03")?.projected == Money(cents: 50_000))
    }

    @Test func onTheLastDayItIsWhatWasSpentPlusWhatIsStillDue() throws {
        let last = try #require(try pace(spent: 12_345, on: "2026-04-30", paid: 2_000, due: 700))
        #expect(last.projected == Money(cents: 12_345 + 700))
        #expect(last.elapsed == Share(basisPoints: 10_000))
    }

    @Test func recurringBillsAreLeftOutOfTheRateAndAddedOnce() throws {
        // Day 10 of 30: 60.00 spent, 40.00 of it a paid bill, 25.00 of bills still due.
        // Own spending 20.00 extends to 60.00; plus 40.00 paid plus 25.00 due.
        let pace = try #require(try pace(spent: 6_000, on: "2026-04-10", paid: 4_000, due: 2_500))
        #expect(pace.projected == Money(cents: 12_500))
        // (300.00 − 60.00 − 25.00) / 21 days left = 10.238… → 10.23.
        #expect(pace.perDay == Money(cents: 1_023))
        #expect(pace.isProjectedOver(try status(spent: 6_000)) == false)
        #expect(pace.isProjectedOver(try status(spent: 6_000, available: 12_000)))
    }

    @Test func perDayNeverGoesBelowZeroAndOtherPeriodsHaveNoPace() throws {
        #expect(try pace(spent: 29_000, on: "2026-04-20", due: 5_000)?.perDay == .zero)
        #expect(try pace(spent: 1_000, on: "2026-05-01") == nil)
        #expect(try pace(spent: 1_000, on: "2026-03-31") == nil)
    }

    @Test func aYearlyBudgetsPaceRunsOverItsWholeYear() throws {
        let car = Budget(name: "Car", limit: Money(cents: 100), period: .yearly)
        #expect(car.paceDays(viewing: try Month(parsing: "2026-04"), in: .calendarMonths)
            == DayInterval(first: try Day(parsing: "2026-01-01"), last: try Day(parsing: "2026-12-31")))
    }

    @Test func billsOfAPeriodSplitIntoPaidByTheirExpensesAndStillDue() throws {
        let rent = RecurringRule(
            id: 7, name: "Rent", budgetID: 1, amount: Money(cents: 1_000), every: .week, day: 0, start: try Day(parsing: "2026-01-01"),
            skips: [try Day(parsing: "2026-04-20")])
        let paidExpense = Expense(id: 3, name: "Rent", amount: Money(cents: 1_050), date: try Day(parsing: "2026-04-07"), budgetID: 1)
        let payments = [
            RecurringPayment(ruleID: 7, date: try Day(parsing: "2026-04-06"), expenseID: 3, kind: .matched),
            RecurringPayment(ruleID: 7, date: try Day(parsing: "2026-04-13"), expenseID: nil, kind: .posted),
        ]
        // Mondays of April: 6 (paid by #3), 13 (paid, expense removed), 20 (skipped), 27 (due).
        let bills = try RecurringSchedule.bills(of: 1, in: try april, rules: [rent], payments: payments, paidBy: [3: paidExpense])
        #expect(bills.paid == Money(cents: 1_050) && bills.due == Money(cents: 1_000))
    }

    @Test func alertLevelsTakeTheHighestThatAppliesAndRiseOnlyUpwards() throws {
        let nearStatus = try status(spent: 25_000)
        let rising = try #require(try pace(spent: 25_000, on: "2026-04-20"))
        #expect(AlertLevel(nearStatus, pace: rising) == .projectedOver)
        #expect(AlertLevel(nearStatus, pace: nil) == .warning)
        #expect(AlertLevel(try status(spent: 30_001), pace: rising) == .over)
        #expect(AlertLevel(try status(spent: 100), pace: nil) == .ok)
        #expect([AlertLevel.ok, .warning, .projectedOver, .over].map(\.exitCode) == [0, 1, 1, 2])
        #expect(AlertLevel.risen([1: .warning, 2: .warning, 3: .ok, 4: .over], since: [1: .warning, 2: .ok, 4: .projectedOver]) == [2, 4])
    }
}
