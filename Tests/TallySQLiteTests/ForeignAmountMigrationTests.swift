import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallySQLite

/// `v20-foreign-amounts` on a file made here at the schema before it (`schema-v19.sqlite` is the
/// committed file of that schema, in `SchemaFixtureTests`).
@Suite(.ownThreads) struct ForeignAmountMigrationTests {
    /// What takes a file back to before `v20-foreign-amounts`.
    static let beforeV20 = """
        DROP TABLE rate;
        DROP INDEX expense_foreign;
        ALTER TABLE expense DROP COLUMN originalMinor;
        ALTER TABLE expense DROP COLUMN originalCurrency;
        ALTER TABLE expense DROP COLUMN rate;
        ALTER TABLE expense DROP COLUMN rateSource;
        ALTER TABLE removedExpense DROP COLUMN originalMinor;
        ALTER TABLE removedExpense DROP COLUMN originalCurrency;
        ALTER TABLE removedExpense DROP COLUMN rate;
        ALTER TABLE removedExpense DROP COLUMN rateSource;
        DELETE FROM grdb_migrations WHERE identifier = 'v20-foreign-amounts';
        PRAGMA user_version = 19;
        """

    @Test func aFileAtTheSchemaBeforeV20OpensWithEveryFigureAndTakesForeignAmounts() throws {
        let path = try temporaryFolder().appendingPathComponent("v19.sqlite").path
        let clock = TestClock()
        let old = try SQLiteStore(path: path, clock: { clock() })
        var settings = try old.settings()
        settings.currency = try Currency(code: "EUR")
        _ = try old.updateSettings(settings)
        let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
        try old.addExpenses((0..<40).map { index in
            Expense(name: "E\(index)", amount: Money(cents: Int64(index + 1) * 10), date: (try? day("2026-03-0\(index % 9 + 1)")) ?? Day.today(), budgetID: food.id ?? 0)
        })
        try old.removeExpense(id: 3)
        let before = try Snapshot(old)
        let statuses = try old.budgetStatuses(for: month("2026-03"))
        try old.executeUnchecked(SchemaFixtures.beforeV25 + SchemaFixtures.beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + SchemaFixtures.beforeV21 + Self.beforeV20)
        try old.close()

        let store = try SQLiteStore(path: path, clock: { clock() })
        defer { try? store.close() }
        #expect(try Snapshot(store) == before)
        #expect(try store.budgetStatuses(for: month("2026-03")) == statuses)
        #expect(try store.cacheMismatches() == [])
        // The removal recorded before the migration still undoes.
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.countExpenses(ExpenseQuery()) == 40)

        try store.saveRates([DayRate(day: try day("2026-03-06"), from: try Currency(code: "EUR"), to: try Currency(code: "JPY"), rate: try ExchangeRate(parsing: "161.54"))])
        let dinner = try store.converting(
            Expense(name: "Dinner", amount: money("1"), date: day("2026-03-08"), budgetID: food.id ?? 0),
            from: CurrencyAmount(minorUnits: 4500, currency: try Currency(code: "JPY")), given: nil)
        let saved = try store.addExpense(dinner)
        #expect(try store.expense(id: saved.id ?? 0).foreign == dinner.foreign)
        #expect(try store.cacheMismatches() == [])
    }
}
