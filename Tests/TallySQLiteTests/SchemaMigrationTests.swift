import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore
import TallyInMemory
@testable import TallySQLite

@Suite(.ownThreads) struct HistoryMigrationTests {
    /// The import in the v10 file was recorded before `v11-removed-rows`: undoing it now moves its
    /// expense beside the undo, redoing puts it back with its id and every figure, and pruning
    /// the history takes the kept rows with their change set.
    @Test func anImportRecordedBeforeV11UndoesAndRedoesInBulk() throws {
        let path = try copiedFixture("schema-v10.sqlite", as: "v10.sqlite")
        let clock = TestClock()
        let store = try SQLiteStore(path: path, clock: { clock() })
        let migrated = try Snapshot(store)
        let history = try store.changeSets(since: nil, limit: nil)
        // Newest first: after the import, `fillV7` only changed settings, a rule and a profile.
        let imported = try #require(history.first { $0.changeSet.summary == "1 expense added" }, "\(history.map(\.changeSet.summary))")

        let undo = try store.undo(imported.changeSet.id, dryRun: false)
        #expect(undo.undo.content.removedExpenses?.count == 1)
        #expect(undo.undo.content.expensesBefore.isEmpty, "no image of the row in the content")
        #expect(try store.countExpenses(ExpenseQuery()) == 6)
        #expect(try store.keptRowCount("removedExpense") == 1)
        #expect(try store.cacheMismatches() == [])

        let redo = try store.undo(undo.undo.id, dryRun: false)
        #expect(try Snapshot(store) == migrated)
        #expect(try store.keptRowCount("removedExpense") == 0)
        #expect(try store.cacheMismatches() == [])

        // Undone once more, then pruned: the kept row goes with its change set.
        _ = try store.undo(redo.undo.id, dryRun: false)
        #expect(try store.keptRowCount("removedExpense") == 1)
        var settings = try store.settings()
        settings.historyDays = 1
        clock.advance(by: 2 * 86_400)
        _ = try store.updateSettings(settings)
        #expect(try store.keptRowCount("removedExpense") == 0)
        #expect(try store.countExpenses(ExpenseQuery()) == 6)
    }
}

@Suite(.ownThreads) struct RecurringMigrationTests {
    /// The v4 file gains the recurring tables (`Schema.v5`) with every figure as it was (above),
    /// and posting on it works and remembers its occurrences.
    @Test func aV4FileTakesRecurringRulesAfterMigrating() throws {
        let path = try copiedFixture("schema-v4.sqlite", as: "v4.sqlite")
        let store = try SQLiteStore(path: path)
        #expect(try store.pragma("user_version") == String(Schema.version))
        #expect(try store.accountBook().accounts.isEmpty)
        #expect(try store.incomes().isEmpty)
        let rule = try store.addRecurringRule(
            RecurringRule(name: "Rent", budgetID: 3, amount: Money(cents: 125_000), every: .month, start: Day(parsing: "2026-03-01")))
        let posted = try store.postRecurring(through: Day(parsing: "2026-04-01"), dryRun: false)
        #expect(posted.map(\.occurrence.date) == [try Day(parsing: "2026-03-01"), try Day(parsing: "2026-04-01")])
        #expect(try store.recurringPayments().map(\.ruleID) == [rule.id, rule.id])
        #expect(try store.cacheMismatches() == [])
    }

    /// SQLite itself refuses a second payment of one occurrence and an expense paying two.
    @Test func theSchemaRefusesPayingAnOccurrenceTwice() throws {
        let store = try SQLiteStore.inMemory()
        let budget = try store.addBudget(Budget(name: "Home", limit: Money(cents: 100_000)))
        let rule = try store.addRecurringRule(
            RecurringRule(name: "Rent", budgetID: budget.id ?? 0, amount: Money(cents: 1_000), every: .day, start: Day(parsing: "2026-03-01")))
        _ = try store.postRecurring(through: Day(parsing: "2026-03-02"), dryRun: false)
        let ruleID = rule.id ?? 0
        #expect(throws: (any Error).self) {
            try store.executeUnchecked("INSERT INTO recurringPayment (ruleId, date, expenseId, kind) VALUES (\(ruleID), 20260301, NULL, 'matched')")
        }
        #expect(throws: (any Error).self) {
            try store.executeUnchecked("UPDATE recurringPayment SET expenseId = 1 WHERE date = 20260302")
        }
        #expect(throws: (any Error).self) {
            try store.executeUnchecked("INSERT INTO recurringRule (budgetId, name, amountCents, quantity, every, interval, day, startDate, createdAt, updatedAt) VALUES (1, 'x', 1, 1, 'month', 0, 32, 20260101, 0, 0)")
        }
    }
}
