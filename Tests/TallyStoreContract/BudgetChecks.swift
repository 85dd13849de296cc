import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The checks themselves, one function each; ``StoreContract/checks`` lists them.
extension StoreContract {
    // MARK: - Budgets

    static func budgetsAreAddedFoundListedAndUpdated(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let food = try store.addBudget(Budget(name: "  Food ", limit: money("300")))
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("1200.50")))
        let cafe = try store.addBudget(Budget(name: "Café", limit: money("40")))

        #expect(food.id != nil && rent.id != nil && cafe.id != nil)
        #expect(Set([food.id, rent.id, cafe.id]).count == 3)
        #expect(food.name == "Food")
        #expect(food.createdAt == clock().roundedToMilliseconds)
        #expect(food.updatedAt == food.createdAt)
        #expect(try store.budget(named: " FOOD ") == food)
        #expect(try store.budget(named: "cafe") == cafe)
        #expect(try store.budget(named: "CAFÉ") == cafe)
        #expect(try store.budgets().map(\.name) == ["Café", "Food", "Rent"])

        clock.advance(by: 60.000_7)
        var changed = rent
        changed.limit = try money("1300")
        changed.name = "Home"
        let updated = try store.updateBudget(changed)
        #expect(updated.createdAt == rent.createdAt)
        #expect(updated.updatedAt == clock().roundedToMilliseconds)
        #expect(updated.updatedAt != rent.updatedAt)
        #expect(try store.budget(named: "home") == updated)
        expectError(.budgetNotFound("Rent")) { () throws(TallyError) in try store.budget(named: "Rent") }
        #expect(try store.budgets().map(\.name) == ["Café", "Food", "Home"])
    }

    static func budgetsAreOrderedByNameKeyBytesThenID(_ stores: Stores) throws {
        let store = try stores.make()
        for name in ["b", "Äb", "a", "Z", "éclair", "10", "9", "a b"] {
            _ = try store.addBudget(Budget(name: name, limit: Money(cents: 100)))
        }
        #expect(try store.budgets().map(\.name) == ["10", "9", "a", "a b", "Äb", "b", "éclair", "Z"].sorted {
            Array(NameKey.make($0).utf8).lexicographicallyPrecedes(Array(NameKey.make($1).utf8))
        })
    }

    static func brokenBudgetRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        let kept = try store.addBudget(Budget(name: "Kept", limit: money("10")))
        let before = try Snapshot(store)
        let long = String(repeating: "x", count: 101)
        let cases: [(Budget, TallyError)] = [
            (Budget(name: "", limit: Money(cents: 1)), .emptyName(.budget)),
            (Budget(name: " \t\n ", limit: Money(cents: 1)), .emptyName(.budget)),
            (Budget(name: long, limit: Money(cents: 1)), .nameTooLong(.budget, long, maximum: 100)),
            (Budget(name: "a\nb", limit: Money(cents: 1)), .nameHasControlCharacters(.budget, "a\nb")),
            (Budget(name: "a\u{7}b", limit: Money(cents: 1)), .nameHasControlCharacters(.budget, "a\u{7}b")),
            (Budget(name: "a\u{2028}b", limit: Money(cents: 1)), .nameHasControlCharacters(.budget, "a\u{2028}b")),
            (Budget(name: "Zero", limit: .zero), .limitNotPositive(.zero)),
            (Budget(name: "Negative", limit: Money(cents: -5)), .limitNotPositive(Money(cents: -5))),
            (Budget(name: "Huge", limit: Money(cents: 100_000_000_001)), .amountOutOfRange("1000000000.01")),
        ]
        for (budget, error) in cases {
            expectError(error) { () throws(TallyError) in try store.addBudget(budget) }
            var update = budget
            update.id = kept.id
            expectError(error) { () throws(TallyError) in try store.updateBudget(update) }
        }
        #expect(try Snapshot(store) == before)
    }

    static func namesMadeOfManyScalarsFitTheirCharacterLimit(_ stores: Stores) throws {
        let store = try stores.make()
        let family = String(repeating: "👨‍👩‍👧", count: 100)
        let accents = String(repeating: "e\u{301}", count: 100)
        #expect(try store.addBudget(Budget(name: family, limit: Money(cents: 1))).name == family)
        #expect(try store.addBudget(Budget(name: "Z" + accents.dropFirst(2), limit: Money(cents: 1))).id != nil)
        let budget = try store.budget(named: family)
        let name = String(repeating: "🇫🇷", count: 200)
        #expect(try store.addExpense(Expense(name: name, amount: Money(cents: 1), date: day("2026-01-01"), budgetID: budget.id ?? 0)).name == name)
    }

    static func namesClashIgnoringCaseAndDiacriticsOnly(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Café", limit: money("10")))
        let before = try Snapshot(store)
        expectError(.duplicateBudget("cafe")) { () throws(TallyError) in try store.addBudget(Budget(name: "cafe", limit: money("1"))) }
        expectError(.duplicateBudget("CAFE")) { () throws(TallyError) in try store.addBudget(Budget(name: " CAFE ", limit: money("1"))) }
        #expect(try Snapshot(store) == before)

        _ = try store.addBudget(Budget(name: "Food", limit: money("10")))
        _ = try store.addBudget(Budget(name: "Fast Food", limit: money("10")))
        #expect(try store.budgets().count == 3)
    }

    static func renamingOntoAnotherBudgetIsRefusedButOwnCaseIsNot(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("10")))
        _ = try store.addBudget(Budget(name: "Rent", limit: money("10")))
        let before = try Snapshot(store)
        var clash = food
        clash.name = "rent"
        expectError(.duplicateBudget("rent")) { () throws(TallyError) in try store.updateBudget(clash) }
        #expect(try Snapshot(store) == before)

        var recased = food
        recased.name = "FOOD"
        #expect(try store.updateBudget(recased).name == "FOOD")
        #expect(try store.budget(named: "food").name == "FOOD")
    }

    static func removingABudgetCascadesOnlyWhenAsked(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("100")))
        _ = try store.addBudget(Budget(name: "Empty", limit: money("100")))
        for index in 1...3 {
            _ = try store.addExpense(Expense(name: "Meal \(index)", amount: money("10"), date: day("2026-03-0\(index)"), budgetID: food.id ?? 0, tags: ["meal", "shared"]))
        }
        let keptExpense = try store.addExpense(Expense(name: "March", amount: money("900"), date: day("2026-03-01"), budgetID: rent.id ?? 0, tags: ["shared"]))
        let before = try Snapshot(store)

        expectError(.budgetNotEmpty("Food", expenseCount: 3)) { () throws(TallyError) in
            try store.removeBudget(named: "food", includingExpenses: false)
        }
        #expect(try Snapshot(store) == before)

        #expect(try store.removeBudget(named: "EMPTY", includingExpenses: false) == 0)
        #expect(try store.removeBudget(named: "Food", includingExpenses: true) == 3)
        #expect(try store.budgets() == [rent])
        #expect(try store.expenses(ExpenseQuery()) == [keptExpense])
        #expect(try store.countExpenses(ExpenseQuery(budgetID: food.id)) == 0)
        let march = try month("2026-03").days
        #expect(try store.spendingByTag(in: march) == ["shared": try money("900")])
        expectError(.budgetNotFound("Empty")) { () throws(TallyError) in try store.budget(named: "Empty") }
    }

    /// A new budget's id is the store's to give: one it carries neither lets a taken name through
    /// nor takes another budget's place.
    static func aNewBudgetsOwnIDIsIgnored(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: try money("10")))
        expectError(.duplicateBudget("FOOD")) { () throws(TallyError) in try store.addBudget(Budget(id: food.id, name: "FOOD", limit: try money("20"))) }
        let rent = try store.addBudget(Budget(id: food.id, name: "Rent", limit: try money("20")))
        #expect(rent.id != food.id)
        #expect(try store.budgets().map(\.name) == ["Food", "Rent"])
        #expect(try store.budget(named: "food") == food)
    }
}
