import Foundation
import TallyCore

// Import rules, as `SQLiteStore` keeps them: by budget id, answered with the budget's current name.
extension InMemoryStore {
    static func rules(in state: State) -> [ImportRule] {
        ImportRule.ordered(state.importRules.values.map { entry in
            var rule = entry.rule
            if let account = rule.transferAccountID {
                rule.transferTo = state.accounts[account]?.name ?? rule.transferTo
            } else {
                rule.budget = state.budgets[entry.budgetID]?.name ?? rule.budget
                for (index, id) in rule.splitBudgetIDs.enumerated() { rule.split[index].budget = state.budgets[id]?.name ?? rule.split[index].budget }
            }
            return rule
        })
    }
}
