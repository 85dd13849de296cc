import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

struct ReportBuilderTests {
    private func money(_ text: String) throws -> Money { try Money(parsing: text) }

    @Test func budgetLinesCarryFiguresShareAndOverFlag() throws {
        let report = try Fixtures.report(Fixtures.store())
        #expect(report.month.isoString == "2026-11")
        #expect(report.budgets.map(\.name) == ["Eating out", "Groceries", "Rent"])
        let eatingOut = report.budgets[0]
        #expect(eatingOut.limit == (try money("150")))
        #expect(eatingOut.spent == (try money("165.75")))
        #expect(eatingOut.remaining == Money(cents: -1575))
        #expect(eatingOut.share == Share(basisPoints: 11_050))
        #expect(eatingOut.isOver)
        #expect(eatingOut.expenseCount == 3)
        let groceries = report.budgets[1]
        #expect(groceries.spent == (try money("329.90")))
        #expect(groceries.share.basisPoints == 8_247)
        #expect(!groceries.isOver)
        let rent = report.budgets[2]
        #expect(rent.remaining == .zero)
        #expect(rent.share.basisPoints == 10_000)
        #expect(!rent.isOver)
    }

    @Test func totalsAddUpExactly() throws {
        let totals = try Fixtures.report(Fixtures.store()).totals
        #expect(totals.limit == (try money("1750")))
        #expect(totals.spent == (try money("1695.65")))
        #expect(totals.remaining == (try money("54.35")))
        #expect(totals.share.basisPoints == 9_689)
        #expect(totals.expenseCount == 9)
        #expect(!totals.isOver)
    }

    @Test func everyDayOfTheMonthIsListedWithItsCumulativeTotal() throws {
        let days = try Fixtures.report(Fixtures.store()).days
        #expect(days.count == 30)
        #expect(days.first?.day.isoString == "2026-11-01")
        #expect(days.last?.day.isoString == "2026-11-30")
        #expect(days[0].spent == (try money("1200")))
        #expect(days[2].spent == .zero)
        #expect(days[2].cumulative == (try money("1284.20")))
        #expect(days[6].spent == (try money("85.75")))
        #expect(days.last?.cumulative == (try money("1695.65")))
        let february = try Fixtures.report(Fixtures.store(), month: Month(unsafe: "2028-02")).days
        #expect(february.count == 29)
        #expect(february.allSatisfy { $0.cumulative == .zero })
    }

    @Test func theSpendingLineEndsTodayOnlyInsideTheReportMonth() throws {
        let store = try Fixtures.store()
        let month = try Month(parsing: "2026-11")
        let builder = ReportBuilder(store: store)
        #expect(try builder.report(for: month, today: Day(parsing: "2026-11-21")).through == (try Day(parsing: "2026-11-21")))
        #expect(try builder.report(for: month, today: Day(parsing: "2026-12-02")).through == month.lastDay)
        #expect(try builder.report(for: month).through == month.lastDay)
    }

    @Test func topExpensesAreTheLargestTotalsWithTheirBudgets() throws {
        let top = try Fixtures.report(Fixtures.store()).top
        #expect(top.map(\.total) == (try ["1200", "96.10", "94.00", "85.10", "84.20", "47.00", "38.75", "33.00", "17.50"].map(money)))
        #expect(top[0].budgetName == "Rent")
        #expect(top[5].name == "Farmers market")
        #expect(top[5].quantity == 2)
        #expect(top[5].amount == (try money("23.50")))
        #expect(top[5].tags == ["food", "local"])
    }

    @Test func topExpensesStopAtTenAndBreakTiesById() throws {
        let store = InMemoryStore(clock: Fixtures.clock)
        let budget = try store.addBudget(Budget(name: "Misc", limit: Money(cents: 100_000), createdAt: Fixtures.clock()))
        for index in 0..<12 {
            _ = try store.addExpense(
                Expense(name: "Same \(index)", amount: Money(cents: 500), date: Day(year: 2026, month: 11, day: 1),
                        budgetID: budget.id ?? 0, createdAt: Fixtures.clock())
            )
        }
        let top = try Fixtures.report(store).top
        #expect(top.count == ReportBuilder.topExpenseCount)
        // The store breaks ties by id in the direction of the sort, so the newest come first.
        #expect(top.map(\.name) == stride(from: 11, through: 2, by: -1).map { "Same \($0)" })
    }

    @Test func tagTotalsAreSortedByAmountThenTag() throws {
        let tags = try Fixtures.report(Fixtures.store()).tags
        #expect(tags.map(\.tag) == ["home", "food", "friends", "local"])
        #expect(tags.map(\.spent) == (try ["1200", "384.15", "132.75", "47.00"].map(money)))
    }

    @Test func trendCoversSixMonthsEndingWithTheReportMonth() throws {
        let trend = try Fixtures.report(Fixtures.store()).trend
        #expect(trend.months.map(\.isoString) == ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"])
        #expect(trend.totals == (try ["1150", "0", "0", "61", "1510.45", "1695.65"].map(money)))
        #expect(trend.budgets.map(\.name) == ["Eating out", "Groceries", "Rent"])
        #expect(trend.budgets[0].spent == (try ["0", "0", "0", "61", "0", "165.75"].map(money)))
        #expect(trend.budgets[2].spent == (try ["1150", "0", "0", "0", "1200", "1200"].map(money)))
    }

    @Test func emptyMonthAndEmptyStore() throws {
        let quiet = try Fixtures.report(Fixtures.store(), month: Month(unsafe: "2027-04"))
        #expect(quiet.hasNoExpenses)
        #expect(quiet.budgets.count == 3)
        #expect(quiet.budgets.allSatisfy { $0.spent == .zero && $0.share.basisPoints == 0 })
        #expect(quiet.top.isEmpty && quiet.tags.isEmpty)
        let empty = try Fixtures.report(InMemoryStore(clock: Fixtures.clock))
        #expect(empty.budgets.isEmpty)
        #expect(empty.totals.limit == .zero && empty.totals.share.basisPoints == 0)
        #expect(empty.trend.totals == Array(repeating: .zero, count: 6))
    }

    @Test func everyLineCarriesItsPeriodFigures() throws {
        let report = try Fixtures.report(Fixtures.store())
        #expect(report.periodDays == Month(unsafe: "2026-11").days)
        let eatingOut = report.budgets[0]
        #expect(eatingOut.period == .monthly)
        #expect(eatingOut.days == Month(unsafe: "2026-11").days)
        #expect(eatingOut.carried == .zero)
        #expect(eatingOut.available == eatingOut.limit)
        #expect(report.totals.carried == .zero)
        #expect(report.totals.available == report.totals.limit)
    }

    @Test func aPeriodFromThe25thIsReportedByItsOwnDays() throws {
        let store = try Fixtures.periodStore()
        let month = Month(unsafe: "2026-11")
        let report = try ReportBuilder(store: store).report(for: month, today: Day(parsing: "2026-12-03"))
        let period = DayInterval(first: try Day(parsing: "2026-11-25"), last: try Day(parsing: "2026-12-24"))
        #expect(report.periodDays == period)
        #expect(report.days.count == 30)
        #expect(report.days.first?.day == period.first)
        #expect(report.days.last?.day == period.last)
        #expect(report.days.last?.cumulative == (try money("610")), "120 + 300 + 130 + 60: not 20 Nov's nor 25 Dec's")
        #expect(report.through == (try Day(parsing: "2026-12-03")), "today counts when it is inside the period, in December")
        #expect(try ReportBuilder(store: store).report(for: month, today: Day(parsing: "2026-11-24")).through == period.last)
        #expect(try ReportBuilder(store: store).report(for: month).through == period.last)
        #expect(report.top.map(\.total) == (try ["300", "130", "120", "60"].map(money)))
        #expect(report.top.map(\.date.isoString) == ["2026-12-01", "2026-12-05", "2026-11-28", "2026-12-20"])
        #expect(report.trend.months.last == month)
    }

    @Test func rolloverYearlyAndOnceBudgetsCarryTheirFigures() throws {
        let report = try Fixtures.report(Fixtures.periodStore())
        #expect(report.budgets.map(\.name) == ["Eating out", "Groceries", "Holidays", "Paris trip"])
        let (eatingOut, groceries, holidays, trip) = (report.budgets[0], report.budgets[1], report.budgets[2], report.budgets[3])

        #expect(groceries.limit == (try money("400")))
        #expect(groceries.carried == (try money("50")))
        #expect(groceries.available == (try money("420")), "the cap")
        #expect(groceries.spent == (try money("180")))
        #expect(groceries.remaining == (try money("240")))
        #expect(groceries.share == Share(basisPoints: 4_285))
        #expect(groceries.expenseCount == 2)

        #expect(eatingOut.carried == Money(cents: -3_000))
        #expect(eatingOut.available == (try money("120")))
        #expect(eatingOut.remaining == Money(cents: -1_000))
        #expect(eatingOut.isOver, "130 is within the limit of 150 but over the 120 available")
        #expect(eatingOut.level == .over)

        #expect(holidays.period == .yearly)
        #expect(holidays.days == DayInterval(first: try Day(parsing: "2026-01-25"), last: try Day(parsing: "2026-12-24")))
        #expect(holidays.spent == (try money("1200")))
        #expect(holidays.level == .ok)

        #expect(trip.period == .once)
        #expect(trip.days == DayInterval(first: try Day(parsing: "2026-07-01"), last: try Day(parsing: "2026-07-14")))
        #expect(trip.spent == (try money("820")))
        #expect(trip.level == .near)

        let totals = report.totals
        #expect(totals.limit == (try money("3950")))
        #expect(totals.carried == (try money("20")))
        #expect(totals.available == (try money("3940")))
        #expect(totals.spent == (try money("2330")))
        #expect(totals.remaining == (try money("1610")))
        #expect(totals.share == Share(spent: totals.spent, of: totals.available))
        #expect(totals.expenseCount == 6)
    }

    @Test func shareFormats() {
        #expect(Share(basisPoints: 8_523).ratioString == "0.8523")
        #expect(Share(basisPoints: 11_050).ratioString == "1.1050")
        #expect(Share(basisPoints: 7).ratioString == "0.0007")
        #expect(Share(basisPoints: 9_999).percentString == "99%")
        #expect(Share(spent: Money(cents: Int64.max), of: Money(cents: 1)).basisPoints == Int64.max)
        #expect(Share(spent: Money(cents: 100), of: .zero).basisPoints == 0)
    }
}
