import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Import rules

extension StoreContract {
    static func rulesAreAddedListedInImportOrderEditedAndRemoved(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Café", limit: money("40")))
        _ = try store.addBudget(Budget(name: "Groceries", limit: money("300")))

        let first = try store.addRule(ImportRule(pattern: "  coffee ", budget: "CAFE", tags: ["Daily", "daily"]))
        #expect(first.id != nil)
        #expect(first.budget == "Café")
        #expect(first.tags == ["daily"])
        let second = try store.addRule(ImportRule(pattern: "/^rewe/", budget: "groceries", rename: " REWE ", priority: 10))
        #expect(second.rename == "REWE")
        let third = try store.addRule(ImportRule(pattern: "market", budget: "Groceries", priority: 10))
        // Priority first, then id.
        #expect(try store.rules().map(\.id) == [second.id, third.id, first.id])
        #expect(try store.rules().first == second)

        var edited = first
        edited.priority = 5
        edited.budget = "groceries"
        edited.tags = []
        let saved = try store.updateRule(edited)
        #expect(saved.budget == "Groceries")
        #expect(try store.rules().map(\.id) == [first.id, second.id, third.id])
        #expect(try store.rules().first == saved)

        try store.removeRule(id: third.id ?? 0)
        #expect(try store.rules().map(\.id) == [first.id, second.id])
    }

    static func brokenRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("40")))
        let rule = try store.addRule(ImportRule(pattern: "bakery", budget: "Food"))

        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in try store.addRule(ImportRule(pattern: "x", budget: "Nowhere")) }
        expectError(.invalidRulePattern("", reason: "it is empty")) { () throws(TallyError) in
            try store.addRule(ImportRule(pattern: "", budget: "Food"))
        }
        expectError(.invalidRulePriority(-1)) { () throws(TallyError) in
            try store.addRule(ImportRule(pattern: "x", budget: "Food", priority: -1))
        }
        #expect(throws: TallyError.self) { try store.addRule(ImportRule(pattern: "/(a+)+$/", budget: "Food")) }
        expectError(.ruleNotFound(99)) { () throws(TallyError) in
            try store.updateRule(ImportRule(id: 99, pattern: "x", budget: "Food"))
        }
        var moved = rule
        moved.budget = "Nowhere"
        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in try store.updateRule(moved) }
        expectError(.ruleNotFound(99)) { () throws(TallyError) in try store.removeRule(id: 99) }
        #expect(try store.rules() == [rule])
    }

    static func aRenamedBudgetKeepsItsRulesAndARemovedOneTakesThem(_ stores: Stores) throws {
        let store = try stores.make()
        var food = try store.addBudget(Budget(name: "Food", limit: money("40")))
        _ = try store.addBudget(Budget(name: "Fun", limit: money("40")))
        _ = try store.addRule(ImportRule(pattern: "bakery", budget: "Food"))
        let cinema = try store.addRule(ImportRule(pattern: "cinema", budget: "Fun"))
        food.name = "Groceries"
        _ = try store.updateBudget(food)
        #expect(try store.rules().map(\.budget) == ["Groceries", "Fun"])
        try store.removeBudget(named: "Groceries", includingExpenses: false)
        #expect(try store.rules() == [cinema])
    }
}
