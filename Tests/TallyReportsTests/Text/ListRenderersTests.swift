import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

struct ListRenderersTests {
    private let month = Month(unsafe: "2026-11")

    @Test func theBudgetTableHasCarriedAvailableAndThePeriod() throws {
        let store = try Fixtures.periodStore()
        let table = ListRenderers.budgetsAsTable(try store.budgetStatuses(for: month))
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].split(separator: " ") == ["Budget", "Limit", "Carried", "Available", "Spent", "Remaining", "Expenses", "Status", "Period"])
        #expect(lines[2].split(separator: " ") == ["Eating", "out", "150.00", "-30.00", "120.00", "130.00", "-10.00", "1", "OVER", "monthly"])
        #expect(lines[3].split(separator: " ") == ["Groceries", "400.00", "50.00", "420.00", "180.00", "240.00", "2", "ok", "monthly"])
        #expect(lines[4].hasPrefix("Holidays "))
        #expect(lines[4].hasSuffix("  yearly, to date"))
        #expect(lines[5].hasSuffix("  once, 1 Jul – 14 Jul 2026"))
    }

    @Test func budgetShowGivesEveryFigureTheDaysAndTheRolloverPolicy() throws {
        let store = try Fixtures.periodStore()
        let text = ListRenderers.budgetAsText(try store.status(ofBudgetNamed: "Groceries", in: month))
        #expect(text == """
            Groceries, 2026-11

            Limit      400.00
            Carried     50.00
            Available  420.00
            Spent      180.00
            Remaining  240.00

            Period     monthly
            Covers     25 Nov – 24 Dec 2026
            Rollover   both (what is left or overspent carries over)
            Cap        420.00
            """)
    }

    @Test func budgetShowMarksYearToDateAndOnceAndOmitsWhatIsNotSet() throws {
        let store = try Fixtures.periodStore()
        let holidays = ListRenderers.budgetAsText(try store.status(ofBudgetNamed: "Holidays", in: month))
        #expect(holidays.contains("\nPeriod     yearly (figures are the year to date)\nCovers     25 Jan – 24 Dec 2026"))
        #expect(!holidays.contains("Rollover") && !holidays.contains("Cap") && !holidays.contains("Limits"))
        let trip = ListRenderers.budgetAsText(try store.status(ofBudgetNamed: "Paris trip", in: month))
        #expect(trip.contains("\nPeriod     once\nCovers     1 Jul – 14 Jul 2026"))
        let eatingOut = ListRenderers.budgetAsText(try store.status(ofBudgetNamed: "Eating out", in: month))
        #expect(eatingOut.hasPrefix("Eating out, 2026-11  OVER BUDGET\n"))
        #expect(eatingOut.contains("\nCarried    -30.00\n"))
    }

    @Test func budgetShowListsTheLimitsWhenThereWasMoreThanOne() throws {
        let store = try Fixtures.periodStore()
        _ = try store.addBudget(
            Budget(name: "Rent", limit: Fixtures.money("1200"), start: Month(unsafe: "2026-01"),
                   limitChanges: [LimitChange(from: Month(unsafe: "2026-06"), limit: Fixtures.money("1250")),
                                  LimitChange(from: Month(unsafe: "2026-12"), limit: Fixtures.money("1300"))],
                   createdAt: Fixtures.clock()))
        let text = ListRenderers.budgetAsText(try store.status(ofBudgetNamed: "Rent", in: month))
        #expect(text.contains("\nLimit      1,250.00\n"), "November's limit")
        #expect(text.hasSuffix("\nLimits     1,200.00, then 1,250.00 from 2026-06, then 1,300.00 from 2026-12"))
    }

    @Test func theRemainingLineIsOfWhatWasAvailableForThePeriod() throws {
        let store = try Fixtures.periodStore()
        func line(_ name: String) throws -> String { ListRenderers.remainingLine(try store.status(ofBudgetNamed: name, in: month)) }
        #expect(try line("Groceries") == "Groceries: 240.00 remaining of 420.00 for 2026-11 (25 Nov – 24 Dec 2026); carried over: 50.00.")
        #expect(try line("Eating out") == "Eating out: -10.00 remaining of 120.00 for 2026-11 (25 Nov – 24 Dec 2026); carried over: -30.00.")
        #expect(try line("Holidays") == "Holidays: 1,200.00 remaining of 2,400.00 for 2026 to date (25 Jan – 24 Dec 2026).")
        #expect(try line("Paris trip") == "Paris trip: 180.00 remaining of 1,000.00 for 1 Jul – 14 Jul 2026.")
        let calendar = try Fixtures.store()
        #expect(ListRenderers.remainingLine(try calendar.status(ofBudgetNamed: "Groceries", in: month))
            == "Groceries: 70.10 remaining of 400.00 for 2026-11.")
    }
}
