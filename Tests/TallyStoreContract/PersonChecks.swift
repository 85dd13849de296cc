import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Who spent each expense (`Expense.by`): kept through every write, filtered on exactly, and
/// summed per person as `Spending.byPerson` does.
extension StoreContract {
    // MARK: - Who spent it

    static func whoSpentItIsKeptThroughEveryWriteAndFiltersTheList(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let id = food.id ?? 0
        let anna = try store.addExpense(Expense(name: "Bread", amount: money("2"), date: day("2026-02-01"), budgetID: id, by: " Anna "))
        #expect(anna.by == "Anna", "trimmed like a name")
        #expect(try store.expense(id: anna.id ?? 0).by == "Anna")
        let (ben, _) = try store.addExpense(
            Expense(name: "Milk", amount: money("1"), date: day("2026-02-02"), budgetID: 0, by: "Zoe\u{0308}"), toBudgetNamed: "food")
        #expect(try store.expense(id: ben.id ?? 0).by == "Zoë", "composed, so every store matches it byte by byte")
        #expect(Array(try store.expense(id: ben.id ?? 0).by.utf8) == Array("Zoë".precomposedStringWithCanonicalMapping.utf8))
        let nobody = try store.addExpense(Expense(name: "Eggs", amount: money("3"), date: day("2026-02-03"), budgetID: id))
        #expect(nobody.by == "")
        #expect(try store.addExpenses([
            Expense(name: "Jam", amount: money("4"), date: day("2026-02-04"), budgetID: id, by: "Anna"),
            Expense(name: "Tea", amount: money("5"), date: day("2026-03-01"), budgetID: id, by: "anna"),
        ]) == 2)
        _ = try store.importExpenses(ImportRequest(source: "x.csv"), rows: Self.feed([
            (Expense(name: "Rice", amount: money("6"), date: day("2026-02-05"), budgetID: 0, by: "Ben"), "Food"),
        ], fingerprint: "people"))

        // An edit keeps who spent it unless it changes it.
        var edited = try store.expense(id: anna.id ?? 0)
        edited.amount = try money("2.50")
        #expect(try store.updateExpense(edited).by == "Anna")
        #expect(try store.expense(id: anna.id ?? 0).by == "Anna")

        func names(_ query: ExpenseQuery) throws -> [String] { try store.expenses(query).map(\.name) }
        #expect(try names(ExpenseQuery(by: "Anna")) == ["Bread", "Jam"], "exact: 'anna' is another spelling")
        #expect(try names(ExpenseQuery(by: " anna ")) == ["Tea"])
        #expect(try names(ExpenseQuery(by: "Zoe\u{0308}")) == ["Milk"])
        #expect(try names(ExpenseQuery(by: "")) == ["Eggs"], "empty: the expenses that record no one")
        #expect(try names(ExpenseQuery(days: month("2026-02").days, by: "Ben")) == ["Rice"])
        #expect(try store.countExpenses(ExpenseQuery(by: "Anna")) == 2)
        #expect(try names(ExpenseQuery(by: "Nobody")) == [])
        var visited: [String] = []
        try store.forEachExpense(ExpenseQuery(by: "Anna")) { (expense: Expense) throws(TallyError) in visited.append(expense.by) }
        #expect(visited == ["Anna", "Anna"])

        let february = try month("2026-02").days
        let people = try store.spendingByPerson(in: february)
        #expect(people == [
            PersonSpending(by: "Ben", spent: try money("6"), expenses: 1),
            PersonSpending(by: "Anna", spent: try money("6.50"), expenses: 2),
            PersonSpending(by: "", spent: try money("3"), expenses: 1),
            PersonSpending(by: "Zoë", spent: try money("1"), expenses: 1),
        ].sorted { $0.spent != $1.spent ? $0.spent > $1.spent : Array($0.by.utf8).lexicographicallyPrecedes($1.by.utf8) })
        #expect(people == (try Spending.byPerson(in: february, of: store.expenses(ExpenseQuery()))))
        #expect(try store.spendingByPerson(in: month("2025-01").days) == [])
        // One person in the period: the answer without grouping (SQLite), the same as grouped.
        #expect(try store.spendingByPerson(in: month("2026-03").days) == [PersonSpending(by: "anna", spent: try money("5"), expenses: 1)])
        #expect(try store.spendingByPerson(in: DayInterval(first: day("2026-02-03"), last: day("2026-02-03"))) == [
            PersonSpending(by: "", spent: try money("3"), expenses: 1)
        ])
    }

    static func brokenNamesOfWhoSpentItAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        let id = try store.addBudget(Budget(name: "Food", limit: money("100"))).id ?? 0
        let before = try Snapshot(store)
        let long = String(repeating: "p", count: 101)
        let date = try day("2026-01-02")
        let cases: [(Expense, TallyError)] = [
            (Expense(name: "A", amount: Money(cents: 1), date: date, budgetID: id, by: long), .nameTooLong(.person, long, maximum: 100)),
            (Expense(name: "A", amount: Money(cents: 1), date: date, budgetID: id, by: "a\tb"), .nameHasControlCharacters(.person, "a\tb")),
        ]
        for (expense, error) in cases {
            expectError(error) { () throws(TallyError) in try store.addExpense(expense) }
            expectError(error) { () throws(TallyError) in try store.addExpenses([expense]) }
            expectError(error) { () throws(TallyError) in try store.addExpense(expense, toBudgetNamed: "Food") }
        }
        #expect(try Snapshot(store) == before)
        // Blank is no one, not an error.
        #expect(try store.addExpense(Expense(name: "A", amount: Money(cents: 1), date: date, budgetID: id, by: "   ")).by == "")
        expectError(.nameTooLong(.person, long, maximum: 100)) { () throws(TallyError) in try store.expenses(ExpenseQuery(by: long)) }
    }
}
