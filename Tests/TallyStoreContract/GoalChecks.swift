import Foundation
import TallyTestSupport
import Testing
import TallyCore

extension StoreContract {
    // MARK: - Goals

    /// A target is saved, read back, changed and removed as it was given, on every store; its
    /// figures come out of the store's statuses; removing the account it names clears the link
    /// in the same change set, and undo and redo of each step restore the ledger.
    static func budgetTargetsRoundTripAndUndo(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let savings = try store.addAccount(Account(name: "Savings", kind: .savings, opening: money("250"), openingDate: day("2026-01-01")))
        let holiday = try store.addBudget(Budget(
            name: "Holiday", limit: money("100"), rollover: .surplus, start: month("2026-07"),
            target: BudgetTarget(amount: money("1200"), by: month("2027-06"), accountID: savings.id)))
        let car = try store.addBudget(Budget(name: "Car", limit: money("100"), target: BudgetTarget(amount: money("150"))))
        #expect(try store.budget(named: "holiday").target == BudgetTarget(amount: money("1200"), by: month("2027-06"), accountID: savings.id))
        #expect(try store.budget(named: "car").target == BudgetTarget(amount: money("150")))
        _ = try store.addBudget(Budget(name: "Plain", limit: money("10")))
        #expect(try store.budget(named: "plain").target == nil)

        let statuses = try store.budgetStatuses(for: month("2026-11"))
        let goals = Dictionary(uniqueKeysWithValues: statuses.map { status in (status.budget.name, status.goal) })
        #expect(goals["Holiday"]??.needed == (try money("100")))
        #expect(goals["Holiday"]??.funded == (try money("500")))
        #expect(goals["Car"]??.progress == .behind)
        #expect(goals["Plain"] == .some(nil))
        #expect(try store.goalAccounts(of: [holiday], through: day("2026-11-30"))[savings.id ?? 0]?.balance == (try money("250")))

        let steps: [(String, () throws -> Void)] = [
            ("change target", {
                var changed = try store.budget(named: "car")
                try changed.apply(TargetChange(amount: money("90"), by: month("2027-01")))
                _ = try store.updateBudget(changed)
            }),
            ("remove target", {
                var changed = try store.budget(named: "car")
                try changed.apply(TargetChange(removes: true))
                _ = try store.updateBudget(changed)
            }),
            ("remove account", { _ = try store.removeAccount(named: "savings", includingEntries: true) }),
        ]
        for (name, step) in steps {
            clock.advance(by: 60)
            let before = try LedgerState(store)
            try step()
            let after = try LedgerState(store)
            #expect(before != after, "\(name) changed nothing")
            clock.advance(by: 1)
            let undo = try store.undo(nil, dryRun: false)
            #expect(try LedgerState(store) == before, "undoing \(name) did not restore the ledger")
            _ = try store.undo(undo.undo.id, dryRun: false)
            #expect(try LedgerState(store) == after, "redoing \(name) did not restore the change")
        }
        #expect(try store.budget(named: "car").target == nil)
        let unlinked = try store.budget(named: "holiday")
        #expect(unlinked.target == BudgetTarget(amount: try money("1200"), by: try month("2027-06")))
        #expect(unlinked.id == holiday.id && car.id != nil)
    }
}
