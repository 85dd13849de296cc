import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Restoring a backup

extension StoreContract {
    /// Budgets as a backup declares them: every field a budget has, some far from the defaults.
    static func backupBudgets() throws -> [Budget] {
        let created = Date(timeIntervalSince1970: 1_765_800_000.987_654)  // 2025-12-15 12:00 UTC
        return [
            Budget(
                name: "Holiday", limit: try money("2400"), period: .yearly, rollover: .both, cap: try money("3000"),
                start: try month("2025-01"), limitChanges: [LimitChange(from: try month("2026-01"), limit: try money("1800"))],
                createdAt: created),
            Budget(
                name: "Trip", limit: try money("900"), period: .once,
                range: DayInterval(first: try day("2026-03-20"), last: try day("2026-04-05")), createdAt: created),
            // No start: its first period is the one it was created in (December), before its first expense.
            Budget(name: "Food", limit: try money("300"), rollover: .surplus, cap: try money("700"), createdAt: created),
        ]
    }

    /// Rows of the backup: around the 25th, where its month start moves them into another period.
    static func backupRows() throws -> [(Expense, String)] {
        [
            (Expense(name: "Groceries", amount: try money("120"), date: try day("2026-02-24"), budgetID: 0), "food"),
            (Expense(name: "Market", amount: try money("80"), date: try day("2026-02-25"), budgetID: 0), "Food"),
            (Expense(name: "Hotel", amount: try money("450"), date: try day("2026-03-25"), budgetID: 0), "trip"),
            (Expense(name: "Train", amount: try money("60.50"), quantity: 2, date: try day("2026-04-05"), budgetID: 0), "Trip"),
            (Expense(name: "Flights", amount: try money("700"), date: try day("2026-01-10"), budgetID: 0), "HOLIDAY"),
        ]
    }

    /// An import that declares settings applies them, inside its transaction and before its
    /// rows, only into a store that holds no budget and no expense; declared budgets keep every
    /// field, their limit history and, when asked, their creation time.
    static func aRestoreAppliesItsSettingsOnlyToAnEmptyLedgerAndKeepsEveryBudgetField(_ stores: Stores) throws {
        let payDay = LedgerSettings(calendar: try PeriodCalendar(monthStart: 25))
        let declared = try Self.backupBudgets()
        let restore = ImportRequest(source: "backup.json", newBudgets: declared, settings: payDay, keepsCreationDates: true)

        // Into an empty store: the settings, then the budgets, then the rows.
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let outcome = try store.importExpenses(restore, rows: Self.feed(try Self.backupRows(), fingerprint: "backup"))
        #expect(outcome == ImportOutcome(importedCount: 5, createdBudgets: ["Holiday", "Trip", "Food"]))
        #expect(try store.settings() == payDay)
        let budgets = try store.budgets()
        #expect(budgets.map(\.name) == ["Food", "Holiday", "Trip"])
        for budget in budgets {
            let original = try #require(declared.first { $0.name == budget.name })
            var expected = original
            expected.id = budget.id
            expected.createdAt = original.createdAt.roundedToMilliseconds
            expected.updatedAt = clock().roundedToMilliseconds
            #expect(budget == expected, "\(budget.name)")
            #expect(try store.budget(named: budget.name) == expected)
        }
        // Every figure follows the month start and the budgets' own history, as Core computes it.
        let expenses = try store.expenses(ExpenseQuery())
        for month in try ["2025-12", "2026-01", "2026-02", "2026-03", "2026-04", "2027-01"].map(month) {
            let statuses = try store.budgetStatuses(for: month)
            #expect(statuses == (try budgets.map { try $0.status(viewing: month, in: payDay.calendar, of: expenses) }), "\(month)")
            #expect(try store.monthSummary(for: month).statuses == statuses)
        }
        let food = try store.status(ofBudgetNamed: "Food", in: month("2026-02"))
        // Created on 2025-12-15, in period 2025-11 (from the 25th on): 2025-11 left 300, 2025-12
        // had 600, 2026-01 had 700 (the cap) and spent 120 on the 24th; the 25th is in 2026-02.
        #expect(try [food.carried, food.available, food.spent] == [money("580"), money("700"), money("80")])
        #expect(try store.status(ofBudgetNamed: "Trip", in: month("2026-04")).spent == (try money("571")))
        #expect(try store.status(ofBudgetNamed: "Holiday", in: month("2026-06")).limit == (try money("1800")))

        // Without `keepsCreationDates`, declared budgets are created at the import's time.
        let plain = try stores.make(clock: clock)
        var stamped = restore
        stamped.keepsCreationDates = false
        _ = try plain.importExpenses(stamped, rows: Self.feed([], fingerprint: nil))
        #expect(try plain.budgets().allSatisfy { $0.createdAt == clock().roundedToMilliseconds })

        // An empty store with settings of its own takes the backup's; without settings in the
        // request, it keeps its own.
        let tenth = LedgerSettings(calendar: try PeriodCalendar(monthStart: 10))
        let configured = try stores.make(clock: clock)
        _ = try configured.updateSettings(tenth)
        _ = try configured.importExpenses(restore, rows: Self.feed([], fingerprint: nil))
        #expect(try configured.settings() == payDay)
        let unset = try stores.make(clock: clock)
        _ = try unset.updateSettings(tenth)
        var withoutSettings = restore
        withoutSettings.settings = nil
        _ = try unset.importExpenses(withoutSettings, rows: Self.feed(try Self.backupRows(), fingerprint: nil))
        #expect(try unset.settings() == tenth)

        // A store that holds a budget, even without expenses, keeps its settings; the declared
        // budgets are still created whole, and its figures follow its own calendar.
        let used = try stores.make(clock: clock)
        _ = try used.addBudget(Budget(name: "Rent", limit: money("1200")))
        _ = try used.importExpenses(restore, rows: Self.feed(try Self.backupRows(), fingerprint: "backup"))
        #expect(try used.settings() == LedgerSettings())
        #expect(try used.budget(named: "Holiday").limitChanges == declared[0].limitChanges)
        #expect(try used.budget(named: "Trip").range == declared[1].range)
        let usedExpenses = try used.expenses(ExpenseQuery())
        for month in try ["2026-02", "2026-03"].map(month) {
            #expect(try used.budgetStatuses(for: month)
                == (try used.budgets().map { try $0.status(viewing: month, in: .calendarMonths, of: usedExpenses) }))
        }

        // An import that fails takes its settings with it.
        let failing = try stores.make(clock: clock)
        var rows = try Self.backupRows()
        rows.append((Expense(name: "Lost", amount: try money("1"), date: try day("2026-02-26"), budgetID: 0), "Nowhere"))
        expectError(.unknownBudgets(["Nowhere"])) { () throws(TallyError) in
            try failing.importExpenses(restore, rows: Self.feed(rows, fingerprint: "bad"))
        }
        #expect(try failing.settings() == LedgerSettings())
        #expect(try failing.budgets().isEmpty)
        #expect(try failing.countExpenses(ExpenseQuery()) == 0)
    }
}
