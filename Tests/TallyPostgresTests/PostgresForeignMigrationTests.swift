import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallyPostgres

/// `v13-foreign-amounts` on a ledger made before it.
@Suite(.ownThreads) struct PostgresForeignMigrationTests {
    /// What takes a database back to before `v13-foreign-amounts`.
    static let beforeV13 = PostgresSplitMigrationTests.beforeV14 + """
        DROP TABLE rate;
        DROP INDEX expense_foreign;
        ALTER TABLE expense DROP COLUMN originalMinor, DROP COLUMN originalCurrency, DROP COLUMN rate, DROP COLUMN rateSource;
        ALTER TABLE removedExpense DROP COLUMN originalMinor, DROP COLUMN originalCurrency, DROP COLUMN rate, DROP COLUMN rateSource;
        DELETE FROM tally_migration WHERE name = 'v13-foreign-amounts';
        """

    /// A ledger from before `v13-foreign-amounts` opens with every expense and figure as it was,
    /// then keeps rates and expenses in other currencies.
    @Test func aLedgerFromBeforeV13OpensWithEveryFigureAndTakesForeignAmounts() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v12")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        var settings = try old.settings()
        settings.currency = try Currency(code: "EUR")
        _ = try old.updateSettings(settings)
        let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
        try old.addExpenses((0..<150).map { index in
            Expense(name: "E\(index)", amount: Money(cents: Int64(index + 1) * 10), date: (try? day("2026-03-0\(index % 9 + 1)")) ?? Day.today(), budgetID: food.id ?? 0)
        })
        let expenses = try old.expenses(ExpenseQuery())
        let statuses = try old.budgetStatuses(for: month("2026-03"))
        try old.close()
        _ = try server.psql(Self.beforeV13, database: database.name)

        let store = try PostgresStore(location: location)
        defer { try? store.close() }
        #expect(try server.psql("SELECT count(*) FROM tally_migration WHERE name = 'v13-foreign-amounts'", database: database.name) == "1\n")
        #expect(try store.expenses(ExpenseQuery()) == expenses)
        #expect(try store.budgetStatuses(for: month("2026-03")) == statuses)
        #expect(try store.cacheMismatches() == [])

        try store.saveRates([DayRate(day: try day("2026-03-06"), from: try Currency(code: "EUR"), to: try Currency(code: "JPY"), rate: try ExchangeRate(parsing: "161.54"))])
        let dinner = try store.converting(
            Expense(name: "Dinner", amount: money("1"), date: day("2026-03-08"), budgetID: food.id ?? 0),
            from: CurrencyAmount(minorUnits: 4500, currency: try Currency(code: "JPY")), given: nil)
        let saved = try store.addExpense(dinner)
        #expect(try store.expense(id: saved.id ?? 0).foreign == dinner.foreign)
        #expect(saved.amount == (try money("27.86")))
    }
}
