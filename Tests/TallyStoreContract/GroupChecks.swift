import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Why over's groups follow every write, spelling included

extension StoreContract {
    /// `spendingGroups(ofBudgets:in:)` equals Core's grouping of the periods' expenses after each
    /// kind of write: a group's name is the smallest spelling among its expenses, so removing or
    /// renaming the expense that held it shows the next; moving an expense to another period,
    /// budget or tag set moves it between groups; a new month start regroups every period; and a
    /// budget removed with its expenses leaves no group.
    static func whyOverGroupsFollowEveryWrite(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: Money(cents: 10_000)))
        let fun = try store.addBudget(Budget(name: "Fun", limit: Money(cents: 10_000)))
        let ids = Set([food.id, fun.id].compactMap { $0 })
        let months = try month("2026-09")...month("2026-11")

        func expectCore(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let calendar = try store.settings().calendar
            let expenses = try store.expenses(ExpenseQuery())
            for range in [months, months.upperBound...months.upperBound, months.lowerBound...months.lowerBound] {
                let stored = try store.spendingGroups(ofBudgets: ids, in: range)
                let core = try SpendingGroup.groups(ofBudgets: ids, in: calendar.days(of: range), of: expenses)
                #expect(Set(stored) == Set(core) && stored.count == core.count, "\(step), \(range): \(stored); Core: \(core)", sourceLocation: sourceLocation)
            }
        }
        func nameOfGroup(_ key: String, in range: ClosedRange<Month>) throws -> String? {
            try store.spendingGroups(ofBudgets: ids, in: range).first { $0.nameKey == NameKey.make(key) && $0.budgetID == food.id }?.name
        }

        let foodID = try #require(food.id)
        let lower = try store.addExpense(Expense(name: "pizza", amount: Money(cents: 1_250), date: day("2026-11-10"), budgetID: foodID, tags: ["delivery"]))
        let upper = try store.addExpense(Expense(name: "Pizza", amount: Money(cents: 900), quantity: 2, date: day("2026-11-12"), budgetID: foodID, tags: ["delivery"]))
        let october = try store.addExpense(Expense(name: "PIZZA", amount: Money(cents: 3_000), date: day("2026-10-05"), budgetID: foodID, tags: ["delivery"]))
        _ = try store.addExpenses([
            Expense(name: "Bread", amount: Money(cents: 300), date: day("2026-11-01"), budgetID: foodID),
            Expense(name: "bread", amount: Money(cents: 320), date: day("2026-09-30"), budgetID: foodID),
            Expense(name: "Cinema", amount: Money(cents: 1_400), date: day("2026-11-30"), budgetID: try #require(fun.id), tags: ["date", "night"]),
        ])
        try expectCore("after the adds")
        #expect(try nameOfGroup("pizza", in: months.upperBound...months.upperBound) == "Pizza")
        #expect(try nameOfGroup("pizza", in: months) == "PIZZA")

        try store.removeExpense(id: try #require(upper.id))
        try expectCore("after removing the smallest spelling")
        #expect(try nameOfGroup("pizza", in: months.upperBound...months.upperBound) == "pizza")

        var moved = october
        moved.date = try day("2026-11-20")
        _ = try store.updateExpense(moved)
        try expectCore("after moving an expense into the period")
        #expect(try nameOfGroup("pizza", in: months.upperBound...months.upperBound) == "PIZZA")

        var renamed = moved
        renamed.name = "Pasta"
        renamed.tags = ["delivery", "family"]
        _ = try store.updateExpense(renamed)
        try expectCore("after renaming and retagging it")
        #expect(try nameOfGroup("pizza", in: months.upperBound...months.upperBound) == "pizza")

        var settings = try store.settings()
        settings.calendar = try PeriodCalendar(monthStart: 25)
        _ = try store.updateSettings(settings)
        try expectCore("after a new month start")

        _ = try store.removeExpense(id: try #require(lower.id))
        try expectCore("after a removal under the new month start")

        _ = try store.removeBudget(named: "Food", includingExpenses: true)
        try expectCore("after removing a budget with its expenses")
        #expect(try store.spendingGroups(ofBudgets: [foodID], in: months).isEmpty)
    }
}
