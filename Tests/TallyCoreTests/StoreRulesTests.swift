import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The rules both stores call inside their transactions, on plain values.
@Suite(.ownThreads) struct StoreRulesTests {
    private static let food = Budget(id: 1, name: "Food", limit: Money(cents: 10_000))
    private static let cafe = Budget(id: 2, name: "Café", limit: Money(cents: 4_000))

    /// A stand-in for a store's budget insert: hands out ids from 10 and remembers what it saved.
    private final class Saved {
        var budgets: [Budget] = []

        func create(_ budget: Budget) throws(TallyError) -> Budget {
            var saved = budget
            saved.id = Int64(10 + budgets.count)
            budgets.append(saved)
            return saved
        }
    }

    @Test func declaredBudgetsAreCreatedOnceAndOnlyWhenMissing() throws {
        let request = ImportRequest(
            source: "backup.json",
            newBudgets: [
                Budget(name: " Rent ", limit: Money(cents: 100_000)), Budget(name: "FOOD", limit: Money(cents: 1)),
                Budget(name: "rent", limit: Money(cents: 5)),
            ])
        let saved = Saved()
        var resolution = ImportResolution(request: request, existing: [Self.food])
        try resolution.createDeclaredBudgets(saved.create)
        #expect(saved.budgets.map(\.name) == ["Rent"])
        #expect(resolution.createdBudgets == ["Rent"])
        #expect(try resolution.budgetID(for: "RENT", create: saved.create) == 10)
        #expect(try resolution.budgetID(for: "food", create: saved.create) == 1)
    }

    @Test func aDeclaredBudgetThatBreaksARuleFailsTheImport() {
        let request = ImportRequest(source: "backup.json", newBudgets: [Budget(name: "Zero", limit: .zero)])
        var resolution = ImportResolution(request: request, existing: [])
        #expect(throws: TallyError.limitNotPositive(.zero)) {
            try resolution.createDeclaredBudgets { (budget: Budget) throws(TallyError) in budget }
        }
    }

    @Test func rowNamesResolveIgnoringCaseDiacriticsAndWhiteSpace() throws {
        var resolution = ImportResolution(request: ImportRequest(source: "a.csv"), existing: [Self.food, Self.cafe])
        let refuse = { (budget: Budget) throws(TallyError) -> Budget in throw .duplicateBudget(budget.name) }
        #expect(try resolution.budgetID(for: "CAFE", create: refuse) == 2)
        #expect(try resolution.budgetID(for: " food ", create: refuse) == 1)
        #expect(try resolution.budgetID(for: "Food", create: refuse) == 1)
        try resolution.finish(earlier: nil)
    }

    @Test func missingBudgetsAreListedByNameKeyWithTheFirstSpelling() throws {
        var resolution = ImportResolution(request: ImportRequest(source: "a.csv"), existing: [Self.food])
        let saved = Saved()
        for name in ["Travel", "rent", "TRAVEL", "Rent", "food"] {
            _ = try resolution.budgetID(for: name, create: saved.create)
        }
        #expect(try resolution.budgetID(for: "Travel", create: saved.create) == nil)
        #expect(saved.budgets.isEmpty)
        #expect(throws: TallyError.unknownBudgets(["rent", "Travel"])) { try resolution.finish(earlier: nil) }
    }

    @Test func missingBudgetsAreCreatedWithTheRequestsLimitOncePerNameKey() throws {
        let limit = Money(cents: 25_000)
        let request = ImportRequest(source: "a.csv", missingBudgetLimit: limit)
        let saved = Saved()
        var resolution = ImportResolution(request: request, existing: [Self.food])
        #expect(try resolution.budgetID(for: " Travel ", create: saved.create) == 10)
        #expect(try resolution.budgetID(for: "travel", create: saved.create) == 10)
        #expect(try resolution.budgetID(for: "Food", create: saved.create) == 1)
        #expect(try resolution.budgetID(for: "Rent", create: saved.create) == 11)
        #expect(saved.budgets.map(\.name) == ["Travel", "Rent"])
        #expect(saved.budgets.allSatisfy { $0.limit == limit })
        #expect(resolution.createdBudgets == ["Travel", "Rent"])
        try resolution.finish(earlier: nil)
    }

    @Test func aFileImportedBeforeIsRefusedUnlessForced() throws {
        let earlier = ImportRecord(fingerprint: "abc", importedAt: Date(timeIntervalSince1970: 1_700_000_000), expenseCount: 12)
        let resolution = ImportResolution(request: ImportRequest(source: "a.csv"), existing: [])
        #expect(throws: TallyError.alreadyImported(file: "a.csv", importedAt: earlier.importedAt, expenseCount: 12)) {
            try resolution.finish(earlier: earlier)
        }
        try ImportResolution(request: ImportRequest(source: "a.csv", force: true), existing: []).finish(earlier: earlier)
    }

    @Test func unknownBudgetsAreReportedBeforeARepeatedFile() throws {
        var resolution = ImportResolution(request: ImportRequest(source: "a.csv"), existing: [])
        #expect(try resolution.budgetID(for: "Rent", create: Saved().create) == nil)
        let earlier = ImportRecord(fingerprint: "abc", importedAt: Date(), expenseCount: 1)
        #expect(throws: TallyError.unknownBudgets(["Rent"])) { try resolution.finish(earlier: earlier) }
    }

    @Test func aBudgetWithExpensesIsRemovedOnlyWhenAsked() throws {
        try Self.food.checkRemoval(expenseCount: 0, includingExpenses: false)
        try Self.food.checkRemoval(expenseCount: 3, includingExpenses: true)
        #expect(throws: TallyError.budgetNotEmpty("Food", expenseCount: 3)) {
            try Self.food.checkRemoval(expenseCount: 3, includingExpenses: false)
        }
    }

    @Test func aNameIsFreeUnlessAnotherBudgetHoldsItsKey() throws {
        try Self.food.checkNameIsFree(heldBy: nil)
        try Self.food.checkNameIsFree(heldBy: 1)
        #expect(throws: TallyError.duplicateBudget("Food")) { try Self.food.checkNameIsFree(heldBy: 7) }
        let new = Budget(name: "Food", limit: Money(cents: 1))
        #expect(throws: TallyError.duplicateBudget("Food")) { try new.checkNameIsFree(heldBy: 1) }
    }

    @Test func aBudgetNotFoundIsNamedAsTyped() throws {
        #expect(try Budget.named(" food ", found: Self.food) == Self.food)
        #expect(throws: TallyError.budgetNotFound(" Fod ")) { try Budget.named(" Fod ", found: nil) }
    }

    @Test func anExpenseNeedsAnExistingBudget() throws {
        let expense = Expense(name: "Bread", amount: Money(cents: 250), date: try Day(parsing: "2026-03-04"), budgetID: 9)
        try expense.checkBudget(exists: true)
        #expect(throws: TallyError.budgetNotFound("#9")) { try expense.checkBudget(exists: false) }
    }

    @Test func spendingIsSummedPerDayPerTagPerBudgetAndPerMonth() throws {
        let march = try Month(parsing: "2026-03")
        let (first, second, april) = (try Day(parsing: "2026-03-01"), try Day(parsing: "2026-03-31"), try Day(parsing: "2026-04-01"))
        let expenses = [
            Expense(name: "Bread", amount: Money(cents: 250), quantity: 2, date: first, budgetID: 1, tags: ["bakery", "daily"]),
            Expense(name: "Cake", amount: Money(cents: 1_000), date: second, budgetID: 1, tags: ["bakery"]),
            Expense(name: "Coffee", amount: Money(cents: 300), date: first, budgetID: 2, tags: ["daily"]),
            Expense(name: "Tea", amount: Money(cents: 400), date: april, budgetID: 2),
        ]
        #expect(try Spending.byDay(in: march.days, of: expenses) == [first: Money(cents: 800), second: Money(cents: 1_000)])
        #expect(try Spending.byTag(in: march.days, of: expenses) == ["bakery": Money(cents: 1_500), "daily": Money(cents: 800)])

        let status = try Self.food.status(viewing: march, in: .calendarMonths, of: expenses)
        #expect(status.spent == Money(cents: 1_500))
        #expect(status.expenseCount == 2)
        #expect(status.remaining == Money(cents: 8_500))

        let april2026 = try Month(parsing: "2026-04")
        let byMonth = try Spending.byMonth(
            in: try Month(parsing: "2026-02")...april2026, budgets: [Self.food, Self.cafe], of: expenses, calendar: .calendarMonths)
        #expect(byMonth.count == 3)
        #expect(byMonth[try Month(parsing: "2026-02")] == [:])
        #expect(byMonth[march] == [1: Money(cents: 1_500), 2: Money(cents: 300)])
        #expect(byMonth[april2026] == [2: Money(cents: 400)])
    }

    @Test func aMonthRangeListsEveryMonthInOrder() throws {
        let months = Spending.months(in: try Month(parsing: "2025-11")...(try Month(parsing: "2026-02")))
        #expect(months.map(\.isoString) == ["2025-11", "2025-12", "2026-01", "2026-02"])
        let one = try Month(parsing: "9999-12")
        #expect(Spending.months(in: one...one) == [one])
    }
}
