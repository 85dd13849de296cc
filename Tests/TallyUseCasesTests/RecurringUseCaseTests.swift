import Foundation
import TallyCore
import TallyInMemory
import TallyStores
import TallyUseCases
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct RecurringUseCaseTests {
    static func rent(_ changes: RecurringRuleChanges = RecurringRuleChanges(start: try? day("2026-01-15"))) throws -> AddRecurringRule {
        AddRecurringRule(name: "Rent", amount: try money("1200"), budget: "home", every: .month, changes: changes, today: try day("2026-06-01"))
    }

    @Test func addValidatesBeforeTheStoreIsOpenedAndResolvesTheBudgetByName() throws {
        let path = try absentDatabasePath()
        let ledger = Ledger(location: StoreLocation(path))
        #expect(throws: TallyError.invalidInterval(0)) { try Self.rent(RecurringRuleChanges(interval: 0)).run(in: ledger) }
        #expect(throws: TallyError.invalidRecurringDay("32", .month)) { try Self.rent(RecurringRuleChanges(day: "32")).run(in: ledger) }
        #expect(throws: TallyError.untilBeforeStart(start: try day("2026-06-01"), until: try day("2026-05-31"))) {
            try Self.rent(RecurringRuleChanges(until: try day("2026-05-31"))).run(in: ledger)
        }
        #expect(!FileManager.default.fileExists(atPath: path), "a refused rule created the database")
        _ = try AddBudget(name: "Home", limit: money("2000")).run(in: ledger)
        let saved = try Self.rent(RecurringRuleChanges(day: "31", tags: ["Housing"])).run(in: ledger)
        #expect(saved.budgetName == "Home" && saved.rule.tags == ["housing"] && saved.rule.day == 31)
        // Without --start, the rule starts today.
        #expect(try saved.rule.start == (try day("2026-06-01")) && saved.next == (try day("2026-06-30")))
        ledger.close()
    }

    @Test func editChangesOnlyTheGivenFieldsAndAWeekdayFollowsANewFrequency() throws {
        let (ledger, _) = memoryLedger()
        _ = try AddBudget(name: "Home", limit: money("2000")).run(in: ledger)
        _ = try AddBudget(name: "Fun", limit: money("200")).run(in: ledger)
        let added = try Self.rent(RecurringRuleChanges(day: "31", start: try day("2026-01-15"))).run(in: ledger)
        let id = added.rule.id ?? 0
        let (before, after) = try EditRecurringRule(id: id, changes: RecurringRuleChanges(budget: "FUN", every: .week, day: "sun"))
            .run(in: ledger)
        #expect(before == added.rule)
        #expect(try after.budgetName == "Fun" && after.rule.every == .week && after.rule.day == 6 && after.rule.amount == (try money("1200")))
        // A monthly day does not carry over to a weekly rule.
        let (_, weekly) = try EditRecurringRule(id: id, changes: RecurringRuleChanges(every: .month)).run(in: ledger)
        #expect(weekly.rule.day == nil && weekly.rule.effectiveDay == 15)
        #expect(throws: TallyError.recurringRuleNotFound(99)) { try EditRecurringRule(id: 99, changes: RecurringRuleChanges()).run(in: ledger) }
    }

    @Test func postListAndUpcomingAgreeOnWhatIsPaid() throws {
        let (ledger, store) = memoryLedger()
        _ = try AddBudget(name: "Home", limit: money("2000")).run(in: ledger)
        let rule = try Self.rent().run(in: ledger).rule
        let id = rule.id ?? 0
        #expect(try SkipOccurrence(id: id, date: day("2026-02-15")).run(in: ledger).skips == [try day("2026-02-15")])
        #expect(throws: TallyError.notAnOccurrence(ruleID: id, day: try day("2026-02-16"))) {
            try SkipOccurrence(id: id, date: day("2026-02-16")).run(in: ledger)
        }
        let dry = try PostRecurring(through: day("2026-04-15"), dryRun: true).run(in: ledger)
        #expect(dry.posts.map(\.occurrence.date) == [try day("2026-01-15"), try day("2026-03-15"), try day("2026-04-15")])
        #expect(try store.expenses(ExpenseQuery()).isEmpty)
        let posted = try PostRecurring(through: day("2026-04-15")).run(in: ledger)
        #expect(posted.budgetNames[rule.budgetID] == "Home" && posted.posts.count == 3)
        #expect(try PostRecurring(through: day("2026-04-15")).run(in: ledger).posts.isEmpty)

        let list = try ListRecurringRules().run(in: ledger)
        #expect(try list.map(\.lastPaid) == [try day("2026-04-15")] && list.map(\.next) == [try day("2026-05-15")])
        let upcoming = try ListUpcoming(today: day("2026-06-01"), days: 20).run(in: ledger)
        #expect(upcoming.occurrences.map(\.date) == [try day("2026-05-15"), try day("2026-06-15")])
        #expect(upcoming.occurrences.map(\.overdue) == [true, false])

        #expect(try RemoveRecurringRule(id: id).run(in: ledger).name == "Rent")
        #expect(try ListRecurringRules().run(in: ledger).isEmpty)
        #expect(try store.expenses(ExpenseQuery()).count == 3, "the posted expenses stay")
    }
}

@Suite(.ownThreads) struct CheckUseCaseTests {
    /// `--new-only` remembers levels per period: a new period starts from ok again.
    @Test func newOnlyStartsAfreshInEachPeriod() throws {
        let (ledger, store) = memoryLedger()
        let food = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        _ = try store.addExpense(Expense(name: "x", amount: money("85"), date: day("2026-03-05"), budgetID: food.id ?? 0))
        _ = try store.addExpense(Expense(name: "y", amount: money("85"), date: day("2026-04-05"), budgetID: food.id ?? 0))
        // On a period's last day the projection is what was spent: a warning, not an overrun.
        let march = try CheckBudgets(today: day("2026-03-31"), newOnly: true).run(in: ledger)
        #expect(march.alerts.map(\.level) == [.warning] && march.exitCode == 1)
        #expect(try CheckBudgets(today: day("2026-03-31"), newOnly: true).run(in: ledger).alerts.isEmpty)
        let april = try CheckBudgets(today: day("2026-04-30"), newOnly: true).run(in: ledger)
        #expect(april.alerts.map(\.level) == [.warning] && april.exitCode == 1)
        // Without --new-only every budget is listed, whatever was said before.
        #expect(try CheckBudgets(today: day("2026-04-30")).run(in: ledger).alerts.count == 1)
        // Projected over: 85.00 by day 5 of 30 runs towards 510.00.
        let early = try CheckBudgets(today: day("2026-04-05")).run(in: ledger)
        #expect(try early.alerts.map(\.level) == [.projectedOver] && early.alerts.first?.pace?.projected == (try money("510")))
    }
}
