import Foundation
import TallyTestSupport
import Testing

@testable import TallyCore

/// `ImportRule+Split.swift`: which splits a rule may hold, how stores keep them, and what a
/// decision makes of a matching row.
@Suite(.ownThreads) struct ImportRuleSplitTests {
    static func splitRule(_ shares: [LineShare]) -> ImportRule {
        var rule = ImportRule(pattern: "costco", budget: "")
        rule.split = shares.enumerated().map { NamedLine(budget: "B\($0.offset)", share: $0.element) }
        return rule
    }

    @Test func aSplitMustFitAnyAmount() throws {
        #expect(try Self.splitRule([.percent(7_000), .rest]).validated().budget == "B0")
        #expect(throws: Never.self) { try Self.splitRule([.percent(7_000), .percent(3_000)]).validated() }
        #expect(throws: Never.self) { try Self.splitRule([.amount(Money(cents: 500)), .rest]).validated() }
        #expect(throws: TallyError.split(.ruleNotWhole)) { try Self.splitRule([.percent(7_000), .percent(2_000)]).validated() }
        #expect(throws: TallyError.split(.ruleNotWhole)) { try Self.splitRule([.amount(Money(cents: 500)), .percent(10_000)]).validated() }
        #expect(throws: TallyError.split(.twoRests)) { try Self.splitRule([.rest, .rest]).validated() }
        #expect(throws: TallyError.split(.tooFewLines)) { try Self.splitRule([.rest]).validated() }
        #expect(throws: TallyError.split(.sharesOverWhole(11_000))) { try Self.splitRule([.percent(6_000), .percent(5_000)]).validated() }
        var refund = Self.splitRule([.percent(7_000), .rest])
        refund.refund = true
        #expect(throws: TallyError.split(.refundSplit)) { try refund.validated() }
        var transfer = ImportRule(pattern: "x", budget: "", transferTo: "Savings")
        transfer.refund = true
        #expect(throws: TallyError.transferRuleWithBudget) { try transfer.validated() }
    }

    @Test func storesKeepTheLinesByBudgetIDAndTheRefundMark() throws {
        var rule = Self.splitRule([.percent(1_250), .rest])
        rule.split[1].name = "Supplies"
        rule.split[1].tags = ["home", "bulk"]
        rule.splitBudgetIDs = [4, 9]
        var read = ImportRule(pattern: "costco", budget: "")
        try read.restoreDetail(rule.storedDetail)
        #expect(read.splitBudgetIDs == [4, 9])
        #expect(read.split.map(\.share) == [.percent(1_250), .rest])
        #expect(read.split[1].name == "Supplies" && read.split[1].tags == ["home", "bulk"])
        #expect(read.split.allSatisfy { $0.budget.isEmpty })
        var refund = ImportRule(pattern: "refund", budget: "Household")
        refund.refund = true
        #expect(refund.storedDetail == "R")
        try read.restoreDetail("R")
        #expect(read.refund && read.split.isEmpty)
        try read.restoreDetail("")
        #expect(!read.refund && read.split.isEmpty)
        #expect(throws: TallyError.self) { try read.restoreDetail("garbage") }
        #expect(rule.uses(budgetID: 9, ownBudgetID: 4) && rule.uses(budgetID: 4, ownBudgetID: 4) && !rule.uses(budgetID: 5, ownBudgetID: 4))
    }

    /// Change sets recorded before rules could split decode with neither.
    @Test func anOldChangeSetsRuleDecodes() throws {
        let old = #"{"pattern":"bakery","budget":"","tags":["daily"],"priority":100,"id":3}"#
        let rule = try JSONDecoder().decode(ImportRule.self, from: Data(old.utf8))
        #expect(rule.split.isEmpty && !rule.refund && rule.id == 3)
        var split = Self.splitRule([.percent(7_000), .rest])
        split.splitBudgetIDs = [1, 2]
        split.refund = false
        #expect(try JSONDecoder().decode(ImportRule.self, from: JSONEncoder().encode(split)) == split)
    }

    /// A matching row takes the lines; they get their amounts when the expense is validated,
    /// by `ExpenseLines`' rounding (half up, the rest to the rest line).
    @Test func aDecisionSplitsTheRow() throws {
        var matcher = try RuleMatcher([ImportRule(id: 1, pattern: "x", budget: "B0")].map { rule in
            var rule = rule
            rule.split = [NamedLine(budget: "B0", share: .percent(3_333)), NamedLine(budget: "B1", share: .rest, tags: ["t"])]
            return rule
        })
        let found = matcher.decision(for: "X MART")
        let decision = try #require(found)
        var expense = Expense(name: "X MART", amount: Money(cents: 1_001), date: try Day(parsing: "2026-03-01"), budgetID: 0)
        let names = decision.apply(to: &expense)
        #expect(names == "B0\u{1E}B1")
        expense = try expense.validated()
        #expect(expense.lines.map(\.amount) == [Money(cents: 334), Money(cents: 667)])
        #expect(expense.lines[1].tags == ["t"])
    }
}
