import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Import rules that split or refund (issue 30)

extension StoreContract {
    /// A split rule keeps its lines by budget id (a renamed budget renames them), a refund rule its
    /// mark; both come back from the history; a budget that is one of a split's lines takes the
    /// rule with it when removed, and an undo that would leave the rule without it is refused.
    static func splitAndRefundRulesRoundTripAndFollowTheirBudgets(_ stores: Stores) throws {
        let store = try stores.make()
        for name in ["Groceries", "Household", "Returns"] { _ = try store.addBudget(Budget(name: name, limit: money("300"))) }
        var split = ImportRule(pattern: "costco", budget: "")
        split.split = [NamedLine(budget: "groceries", share: .percent(7_000)), NamedLine(budget: "HOUSEHOLD", share: .rest, name: "Supplies", tags: ["Home"])]
        let saved = try store.addRule(split)
        #expect(saved.budget == "Groceries")
        #expect(saved.split.map(\.budget) == ["Groceries", "Household"])
        #expect(saved.split[1].tags == ["home"] && saved.split[1].name == "Supplies")
        var refund = ImportRule(pattern: "refund", budget: "returns")
        refund.refund = true
        let refunds = try store.addRule(refund)
        #expect(try store.rules() == [saved, refunds])

        // A renamed line budget renames the line; the rule keeps it by id.
        var household = try store.budget(named: "Household")
        household.name = "Home"
        _ = try store.updateBudget(household)
        #expect(try store.rules().first?.split.map(\.budget) == ["Groceries", "Home"])

        // Edits keep the shape: a split rule made a refund rule is refused, as a refund cannot be split.
        var broken = try #require(try store.rules().first)
        broken.refund = true
        expectError(.split(.refundSplit)) { () throws(TallyError) in try store.updateRule(broken) }
        var twoRests = split
        twoRests.split[0].share = .rest
        expectError(.split(.twoRests)) { () throws(TallyError) in try store.addRule(twoRests) }
        var notWhole = split
        notWhole.split = [NamedLine(budget: "Groceries", share: .percent(5_000)), NamedLine(budget: "Home", share: .amount(try money("10")))]
        expectError(.split(.ruleNotWhole)) { () throws(TallyError) in try store.addRule(notWhole) }
        var unknown = split
        unknown.split[1].budget = "Nowhere"
        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in try store.addRule(unknown) }

        // Undo of the refund rule's creation removes it; undoing the undo brings it back whole.
        let before = try Snapshot(store)
        let rules = try store.rules()
        // Newest first: the refund rule's creation is the latest change of rules.
        let latest = try #require(try store.changeSets(since: nil, limit: nil).first { $0.changeSet.summary.contains("import rule") })
        let undone = try store.undo(latest.changeSet.id, dryRun: false)
        #expect(try store.rules().map(\.id) == [saved.id])
        _ = try store.undo(undone.undo.id, dryRun: false)
        #expect(try store.rules() == rules)
        #expect(try Snapshot(store) == before)

        // Removing a budget that is the split's second line removes the rule.
        try store.removeBudget(named: "Home", includingExpenses: false)
        #expect(try store.rules().map(\.id) == [refunds.id])
        // …and undoing that removal gives it back, lines and all.
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.rules() == rules)
    }

    /// An import's rows a split rule shared and refunds a refund rule made are saved with their
    /// lines and mark, count in their budgets, and go with the import's undo; a backup's split and
    /// refund rules restore into another ledger, their lines' budgets found by name.
    static func splitAndRefundRowsImportUndoAndRestore(_ stores: Stores) throws {
        let store = try stores.make()
        for name in ["Groceries", "Household"] { _ = try store.addBudget(Budget(name: name, limit: money("300"))) }
        var rule = ImportRule(pattern: "costco", budget: "")
        rule.split = [NamedLine(budget: "Groceries", share: .percent(7_000)), NamedLine(budget: "Household", share: .rest)]
        _ = try store.addRule(rule)
        let decision = try #require(try RuleMatcher(try store.rules()).decisionOnce(for: "COSTCO WHOLESALE"))
        var row = Expense(name: "COSTCO WHOLESALE", amount: try money("100.01"), date: try Day(parsing: "2026-03-02"), budgetID: 0)
        let names = decision.apply(to: &row)
        row = try row.validated()
        var refund = Expense(name: "Returned kettle", amount: try money("20"), date: try Day(parsing: "2026-03-03"), budgetID: 0)
        refund.isRefund = true
        let before = try Snapshot(store)
        _ = try store.importExpenses(ImportRequest(source: "bank.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
            try insert(row, names)
            try insert(refund, "Household")
            return "bank-fingerprint"
        }
        let saved = try store.expenses(ExpenseQuery())
        let split = try #require(saved.first { !$0.lines.isEmpty })
        // 70 % of 100.01 is 70.007, rounded half up to 70.01; the rest takes 30.00.
        #expect(try split.lines.map(\.amount) == [money("70.01"), money("30.00")])
        #expect(saved.contains { $0.isRefund && $0.name == "Returned kettle" })
        let march = try Month(parsing: "2026-03")
        let household = try store.status(of: try store.budget(named: "Household"), in: march)
        #expect(try household.spent == money("10.00"))
        _ = try store.undo(nil, dryRun: false)
        #expect(try Snapshot(store) == before)

        // A backup's rules, into a ledger with the budgets under other spellings.
        let other = try stores.make()
        for name in ["GROCERIES", "household"] { _ = try other.addBudget(Budget(name: name, limit: money("300"))) }
        var request = ImportRequest(source: "backup.json")
        var refundRule = ImportRule(pattern: "kettle", budget: "Household")
        refundRule.refund = true
        request.newRules = [rule, refundRule]
        _ = try other.importExpenses(request) { (_: ImportInsert) throws(TallyError) -> String? in "backup-fingerprint" }
        let restored = try other.rules()
        #expect(restored.map(\.split.count) == [2, 0])
        #expect(restored.first?.split.map(\.budget) == ["GROCERIES", "household"])
        #expect(restored.last?.refund == true && restored.last?.budget == "household")
        // The same backup again adds no rule twice.
        var again = request
        again.force = true
        _ = try other.importExpenses(again) { (_: ImportInsert) throws(TallyError) -> String? in "backup-fingerprint" }
        #expect(try other.rules().count == 2)
    }
}

extension RuleMatcher {
    /// The decision for one name, from a matcher made for it.
    fileprivate func decisionOnce(for name: String) -> RuleDecision? {
        var matcher = self
        return matcher.decision(for: name)
    }
}
