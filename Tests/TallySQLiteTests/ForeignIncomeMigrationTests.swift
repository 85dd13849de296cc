import Foundation
import TallyCore
import TallyInMemory
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallySQLite

/// `v26-foreign-incomes` on the committed file of the schema before it (`schema-v25.sqlite`, made
/// by `makeFixtures` with `fillV24`'s ledger, whose incomes are in the ledger's currency).
@Suite(.ownThreads) struct ForeignIncomeMigrationTests {
    @Test func aV25FileOpensWithEveryFigureUnchangedAndTakesForeignIncomes() throws {
        let path = try copiedFixture("schema-v25.sqlite")
        let store = try SQLiteStore(path: path)
        defer { try? store.close() }
        let clock = TestClock()
        let expected = InMemoryStore(clock: { clock() })
        try SchemaFixtures.fillV24(expected, clock: clock)
        #expect(try Snapshot(store) == Snapshot(expected))
        #expect(try store.accountBook().incomes == expected.accountBook().incomes)
        #expect(try store.cacheMismatches() == [])
        for text in ["2026-01", "2026-02", "2026-03"] {
            let month = try Month(parsing: text)
            #expect(try store.budgetStatuses(for: month) == expected.budgetStatuses(for: month))
        }
        #expect(try store.pragma("user_version") == String(Schema.version))

        let usd = try Currency(code: "USD")
        let fee = try store.converting(
            Income(name: "Fee", amount: Money(cents: 1), date: try Day(parsing: "2026-03-08"), accountID: 0),
            from: CurrencyAmount(minorUnits: 1_205, currency: usd), given: try ExchangeRate(parsing: "0.9"))
        let (saved, _) = try store.addIncome(fee, toAccountNamed: "Checking")
        // 12.05 × 0.9 = 10.845, half to even: 10.84.
        #expect(saved.amount == Money(cents: 1_084) && saved.foreign?.source == .given)
        #expect(try store.accountBook().incomes.last == saved)
        #expect(try store.cacheMismatches() == [])
    }
}
