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

    @Test func shareFormats() {
        #expect(Share(basisPoints: 8_523).ratioString == "0.8523")
        #expect(Share(basisPoints: 11_050).ratioString == "1.1050")
        #expect(Share(basisPoints: 7).ratioString == "0.0007")
        #expect(Share(basisPoints: 9_999).percentString == "99%")
        #expect(Share(spent: Money(cents: Int64.max), of: Money(cents: 1)).basisPoints == Int64.max)
        #expect(Share(spent: Money(cents: 100), of: .zero).basisPoints == 0)
    }
}
