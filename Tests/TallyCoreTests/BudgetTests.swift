import Foundation
import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct BudgetTests {
    @Test func trimsItsNameWhenValid() throws {
        let budget = try Budget(name: "  Groceries \n", limit: Money(cents: 40_000)).validated()
        #expect(budget.name == "Groceries")
        #expect(budget.period == .monthly)
    }

    @Test(arguments: [
        ("", TallyError.emptyName(.budget)),
        ("   \t", TallyError.emptyName(.budget)),
        (String(repeating: "x", count: 101), TallyError.nameTooLong(.budget, String(repeating: "x", count: 101), maximum: 100)),
        ("Food\nRent", TallyError.nameHasControlCharacters(.budget, "Food\nRent")),
        ("Bell\u{7}", TallyError.nameHasControlCharacters(.budget, "Bell\u{7}")),
    ])
    func rejectsBadNames(name: String, error: TallyError) {
        #expect(throws: error) { try Budget(name: name, limit: Money(cents: 100)).validate() }
    }

    @Test func acceptsAHundredCharactersAndNonLatinNames() throws {
        try Budget(name: String(repeating: "é", count: 100), limit: Money(cents: 1)).validate()
        try Budget(name: "食費 🍜", limit: Money(cents: 1)).validate()
        try Budget(name: "مصاريف", limit: Money(cents: 1)).validate()
    }

    @Test(arguments: [0, -1] as [Int64])
    func rejectsALimitThatIsNotPositive(cents: Int64) {
        #expect(throws: TallyError.limitNotPositive(Money(cents: cents))) {
            try Budget(name: "Food", limit: Money(cents: cents)).validate()
        }
    }

    @Test func namesClashIgnoringCaseAndDiacritics() {
        let cafe = Budget(name: "Café", limit: Money(cents: 1))
        #expect(cafe.hasSameName(as: "cafe"))
        #expect(cafe.hasSameName(as: " CAFÉ "))
        #expect(!Budget(name: "Fast Food", limit: Money(cents: 1)).hasSameName(as: "Food"))
    }

    @Test func composedAndDecomposedNamesAreOneName() {
        let composed = "한국 Café"
        let decomposed = composed.decomposedStringWithCanonicalMapping
        #expect(Array(composed.unicodeScalars) != Array(decomposed.unicodeScalars))
        #expect(Budget(name: composed, limit: Money(cents: 1)).hasSameName(as: decomposed))
        #expect(Array(NameKey.make(composed).utf8) == Array(NameKey.make(decomposed).utf8))
    }

    @Test func spentCountsOnlyItsOwnExpensesInTheMonth() throws {
        let budget = Budget(id: 1, name: "Food", limit: Money(cents: 10_000))
        let november = try Month(parsing: "2026-11")
        let expenses = [
            Expense(name: "Bread", amount: Money(cents: 250), quantity: 2, date: try Day(parsing: "2026-11-01"), budgetID: 1),
            Expense(name: "Cheese", amount: Money(cents: 1_000), date: try Day(parsing: "2026-11-30"), budgetID: 1),
            Expense(name: "October", amount: Money(cents: 9_999), date: try Day(parsing: "2026-10-31"), budgetID: 1),
            Expense(name: "December", amount: Money(cents: 9_999), date: try Day(parsing: "2026-12-01"), budgetID: 1),
            Expense(name: "Other budget", amount: Money(cents: 9_999), date: try Day(parsing: "2026-11-15"), budgetID: 2),
        ]
        let status = try budget.status(viewing: november, in: .calendarMonths, of: expenses)
        #expect(status.spent == Money(cents: 1_500))
        #expect(status.expenseCount == 2)
        #expect(status.remaining == Money(cents: 8_500))
        #expect(!status.isOverBudget)
    }

    @Test func remainingGoesNegativeWhenOverBudget() throws {
        let budget = Budget(id: 1, name: "Food", limit: Money(cents: 1_000))
        let november = try Month(parsing: "2026-11")
        let status = try budget.status(viewing: november, in: .calendarMonths, spent: Money(cents: 1_250), expenseCount: 3)
        #expect(status.remaining == Money(cents: -250))
        #expect(status.isOverBudget)
        #expect(try !budget.status(viewing: november, in: .calendarMonths, spent: Money(cents: 1_000), expenseCount: 1).isOverBudget)
    }

    @Test func aMonthlyPeriodCoversTheCalendarMonth() throws {
        let days = Budget(name: "Food", limit: Money(cents: 1)).days(viewing: try Month(parsing: "2026-02"), in: .calendarMonths)
        #expect(days == DayInterval(first: try Day(parsing: "2026-02-01"), last: try Day(parsing: "2026-02-28")))
    }
}
