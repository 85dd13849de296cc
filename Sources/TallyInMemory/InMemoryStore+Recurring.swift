import Foundation
import TallyCore

// Recurring rules and their paid occurrences, with the same rules and cascades as SQLite's
// `recurringRule`, `recurringSkip` and `recurringPayment` tables.
extension InMemoryStore {
    // MARK: - Recurring Helpers

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
