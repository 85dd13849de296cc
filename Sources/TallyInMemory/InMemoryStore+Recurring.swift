import Foundation
import TallyCore

// Recurring rules and their paid occurrences, with the same rules and cascades as SQLite's
// `recurringRule`, `recurringSkip` and `recurringPayment` tables.
extension InMemoryStore {
    // MARK: - Recurring Helpers

    /// A backup's rules, with their paid occurrences, into a ledger that has none.
    static func restoreRecurringRules(_ declared: [DeclaredRecurringRule], into state: inout State) throws(TallyError) {
        guard !declared.isEmpty, DeclaredRecurringRule.restores(ledgerHasRules: !state.rules.isEmpty) else { return }
        for entry in declared {
            var rule = try entry.rule.validated()
            rule.budgetID = try find(entry.budgetName, in: state).id ?? 0
            rule.id = state.nextRuleID
            state.nextRuleID += 1
            state.rules[rule.id ?? 0] = rule
            for payment in entry.payments(ruleID: rule.id ?? 0) { state.payments[payment.ruleID, default: [:]][payment.date] = payment }
        }
    }

    static func allPayments(_ state: State) -> [RecurringPayment] {
        state.payments.values.flatMap(\.values).sorted { ($0.ruleID, $0.date) < ($1.ruleID, $1.date) }
    }

    /// A removed expense no longer pays its occurrence, which stays paid (SQLite's ON DELETE SET NULL).
    static func unlinkPayments(of expenseIDs: Set<Int64>, in state: inout State) {
        guard !expenseIDs.isEmpty else { return }
        for (ruleID, days) in state.payments {
            for (day, payment) in days where payment.expenseID.map(expenseIDs.contains) ?? false {
                state.payments[ruleID]?[day]?.expenseID = nil
            }
        }
    }
}
