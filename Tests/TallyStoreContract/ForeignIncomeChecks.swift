import Foundation
import TallyCore
import TallyTestSupport
import Testing

extension StoreContract {
    /// An income in another currency keeps its original amount, rate and source through add,
    /// edit, read, undo and redo; its account counts the ledger amount; `reapplyRates` converts
    /// again only the incomes whose rate came from the table, with the expenses in one change set.
    static func foreignIncomesRoundTripReapplyAndUndo(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.updateSettings(LedgerSettings(currency: try Currency(code: "EUR")))
        let eur = try Currency(code: "EUR")
        let usd = try Currency(code: "USD")
        try store.saveRates([DayRate(day: try day("2026-03-06"), from: eur, to: usd, rate: try ExchangeRate(parsing: "1.0823"))])
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("100")))
        func income(_ name: String, _ minor: Int64, given: String?) throws -> Income {
            let fee = try store.converting(
                Income(name: name, amount: Money(cents: 1), date: try day("2026-03-08"), accountID: 0),
                from: CurrencyAmount(minorUnits: minor, currency: usd), given: try given.map { try ExchangeRate(parsing: $0) })
            return try store.addIncome(fee, toAccountNamed: "Checking").income
        }
        // 1200 ÷ 1.0823 = 1108.7499…: 1108.75; 100 × 0.9 = 90.
        let table = try income("Fee", 120_000, given: nil)
        let given = try income("Royalty", 10_000, given: "0.9")
        #expect(try table.amount == money("1108.75") && table.foreign?.source == .table)
        #expect(try store.accountBook().incomes == [table, given])
        let checking = try store.accountBook().account(named: "Checking")
        #expect(try store.accountBook().balance(of: checking, through: day("2026-03-31")) == money("1298.75"))

        // A new rate changes nothing recorded until reapplied, and then only the table's income.
        try store.saveRates([DayRate(day: try day("2026-03-07"), from: usd, to: eur, rate: try ExchangeRate(parsing: "0.95"))])
        #expect(try store.reapplyRates(in: nil, dryRun: true).incomes.map(\.before) == [table])
        #expect(try store.accountBook().incomes == [table, given])
        let done = try store.reapplyRates(in: nil, dryRun: false)
        #expect(try done.incomes.map(\.after.amount) == [money("1140")] && done.changes.isEmpty)
        let reapplied = try store.accountBook().incomes
        #expect(try reapplied.first?.amount == money("1140") && reapplied.last == given)
        #expect(try store.accountBook().balance(of: checking, through: day("2026-03-31")) == money("1330"))
        #expect(try store.reapplyRates(in: nil, dryRun: false).incomes.isEmpty)

        // Undo puts the old conversion back, redo the new one, with every field.
        let undo = try store.undo(nil, dryRun: false)
        #expect(try store.accountBook().incomes == [table, given])
        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try store.accountBook().incomes == reapplied)
        // A removed foreign income comes back whole.
        _ = try store.removeIncome(id: given.id ?? 0, force: false)
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.accountBook().incomes == reapplied)
        #expect(try store.accountBook().balance(of: checking, through: day("2026-03-31")) == money("1330"))
    }
}
