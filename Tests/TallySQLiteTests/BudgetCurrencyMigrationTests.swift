import Foundation
import TallyCore
import TallyInMemory
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallySQLite

/// `v22-budget-currency` on the committed file of the schema before it (`schema-v21.sqlite`,
/// made by `makeFixtures` with an expense in yen).
@Suite(.ownThreads) struct BudgetCurrencyMigrationTests {
    /// What takes a file back to before `v22-budget-currency`.
    static let beforeV22 = """
        ALTER TABLE budget DROP COLUMN currency;
        DELETE FROM grdb_migrations WHERE identifier = 'v22-budget-currency';
        PRAGMA user_version = 21;

        """

    /// The committed fixture `name`, migrated: every row and figure is what `fillV21` made.
    static func opened(_ name: String) throws -> SQLiteStore {
        let fixture = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        let path = try temporaryFolder().appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let store = try SQLiteStore(path: path)
        let clock = TestClock()
        let expected = InMemoryStore(clock: { clock() })
        try SchemaFixtures.fillV21(expected, clock: clock)
        #expect(try Snapshot(store) == Snapshot(expected))
        #expect(try store.settings() == expected.settings())
        #expect(try store.cacheMismatches() == [])
        for text in ["2025-12", "2026-01", "2026-02", "2026-03"] {
            let month = try Month(parsing: text)
            #expect(try store.budgetStatuses(for: month) == expected.budgetStatuses(for: month))
        }
        #expect(try store.pragma("user_version") == String(Schema.version))
        return store
    }

    /// `v23-serve-tokens` on `schema-v22.sqlite`: every figure stays, and the file keeps tokens.
    @Test func aV22FileOpensWithEveryFigureUnchangedAndKeepsTokens() throws {
        let store = try Self.opened("schema-v22.sqlite")
        #expect(try store.serveTokens().isEmpty)
        try store.addServeToken(ServeToken(name: "phone", permission: .view, hash: String(repeating: "b", count: 64), createdAt: 0))
        #expect(try store.serveTokens().map(\.name) == ["phone"])
    }

    @Test func aV21FileOpensWithEveryFigureUnchangedAndTakesABudgetCurrency() throws {
        let store = try Self.opened("schema-v21.sqlite")
        // Every budget is in the ledger's currency; the yen dinner kept its original and rate.
        #expect(try store.budgets().allSatisfy { $0.currency == nil })
        let dinner = try #require(try store.expenses(ExpenseQuery(search: "Dinner")).first)
        #expect(dinner.amount == Money(cents: 2_786) && dinner.foreign?.original.minorUnits == 4_500)
        #expect(try store.rates(RateQuery()).count == 1)

        // The new column takes a currency, and the figures follow the rule (Food's other March
        // expense, on the 2nd, needs a rate on or before it).
        try store.saveRates([DayRate(day: try Day(parsing: "2026-01-02"), from: try Currency(code: "EUR"), to: try Currency(code: "JPY"), rate: try ExchangeRate(parsing: "160"))])
        var food = try store.budget(named: "Food")
        let before = try store.status(of: food, in: Month(parsing: "2026-03"))
        food.currency = try Currency(code: "JPY")
        food.limit = Money(cents: 5_000_000)
        food.limitChanges = []
        food.target = nil
        food.rollover = .none
        food.cap = nil
        let saved = try store.updateBudget(food)
        #expect(try store.budget(named: "Food").currency == food.currency)
        let march = try store.status(of: saved, in: Month(parsing: "2026-03"))
        #expect(march.ledgerSpent == before.spent)
        if before.expenseCount == 1 { #expect(march.spent == Money(cents: 450_000)) }
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE budget SET currency = 'yen' WHERE name = 'Food'") }
    }
}
