import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallySQLite

/// `v24-rule-detail` on the committed file of the schema before it (`schema-v23.sqlite`, made
/// by `makeFixtures` with `fillV21`'s contents and its one rule).
@Suite(.ownThreads) struct RuleDetailMigrationTests {
    @Test func aV23FileOpensWithItsRuleAndTakesSplitAndRefundRules() throws {
        let store = try BudgetCurrencyMigrationTests.opened("schema-v23.sqlite")
        let rules = try store.rules()
        #expect(rules.map(\.pattern) == ["bakery"])
        #expect(rules.allSatisfy { $0.split.isEmpty && !$0.refund })

        var split = ImportRule(pattern: "costco", budget: "")
        split.split = [NamedLine(budget: "Food", share: .percent(7_000)), NamedLine(budget: "Café", share: .rest)]
        let saved = try store.addRule(split)
        var refund = ImportRule(pattern: "refund", budget: "Rent")
        refund.refund = true
        _ = try store.addRule(refund)
        #expect(try store.rules().map(\.split.count) == [0, 2, 0])
        #expect(try store.rules()[1] == saved)
        // The column refuses a text longer than any split could be.
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE importRule SET detail = printf('%.100001c', 'x')") }
    }
}
