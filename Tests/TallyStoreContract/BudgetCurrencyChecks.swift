import Foundation
import TallyCore
import TallyTestSupport
import Testing

extension StoreContract {
    /// A budget in its own currency keeps it through add, edit, read, undo and redo; its figures
    /// count each expense in it (paid in it exactly, others at the ledger → budget rate of their
    /// own day, a weekend's Friday, crossing through EUR), with rollover in that currency, and
    /// its ledger spending beside; the monthly summary and a single status agree; an expense a
    /// missing rate could not count is refused up front; the ledger's currency clears it.
    static func aBudgetInItsOwnCurrencyCountsEachExpenseAtItsDaysRate(_ stores: Stores) throws {
        let store = try stores.make()
        let eur = try Currency(code: "EUR")
        let jpy = try Currency(code: "JPY")
        let usd = try Currency(code: "USD")
        // Without a ledger currency a budget cannot have its own.
        #expect(throws: TallyError.foreignMoney(.noLedgerCurrency)) {
            try store.addBudget(Budget(name: "Trip", limit: money("100000"), currency: jpy))
        }
        var settings = try store.settings()
        settings.currency = eur
        _ = try store.updateSettings(settings)
        // One in the ledger's currency is kept as the ledger's.
        #expect(try store.addBudget(Budget(name: "Food", limit: money("500"), currency: eur)).currency == nil)
        let trip = try store.addBudget(
            Budget(name: "Trip", limit: money("100000"), rollover: .surplus, start: Month(parsing: "2026-02"), currency: jpy))
        #expect(trip.currency == jpy)
        #expect(try store.budget(named: "trip") == trip)
        try store.saveRates([
            DayRate(day: try day("2026-02-02"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "160")),
            DayRate(day: try day("2026-03-06"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "161.54")),
            DayRate(day: try day("2026-03-06"), from: eur, to: usd, rate: try ExchangeRate(parsing: "1.0823")),
        ])
        // February: 100.00 EUR at 160 = 16000 JPY; 84,000 JPY carry into March.
        _ = try store.addExpense(Expense(name: "Rail pass", amount: money("100"), date: day("2026-02-10"), budgetID: 0), toBudgetNamed: "Trip")
        // March: 4500 JPY paid in yen counts 4500 exactly; 27.86 EUR on Saturday the 7th takes
        // Friday's 161.54: 4500.5044 → 4501; 2 × 5.00 USD converted to EUR first (the ledger's figure).
        let dinner = try store.converting(
            Expense(name: "Dinner", amount: money("1"), date: day("2026-03-08"), budgetID: 0),
            from: CurrencyAmount(minorUnits: 4500, currency: jpy), given: nil)
        _ = try store.addExpense(dinner, toBudgetNamed: "Trip")
        let (_, status) = try store.addExpense(Expense(name: "Museum", amount: money("27.86"), date: day("2026-03-07"), budgetID: 0), toBudgetNamed: "Trip")
        #expect(status.spent == (try money("9001")))
        #expect(status.carried == (try money("84000")))
        #expect(status.available == (try money("184000")))
        #expect(status.remaining == (try money("174999")))
        #expect(status.expenseCount == 2)
        #expect(try status.ledgerSpent == money("27.86") + dinner.amount)
        let march = try Month(parsing: "2026-03")
        #expect(try store.status(of: trip, in: march) == status)
        let summary = try store.monthSummary(for: march)
        #expect(summary.statuses.first { $0.budget.id == trip.id } == status)
        #expect(summary.statuses.first { $0.budget.name == "Food" }?.ledgerSpent == nil)
        #expect(try store.budgetStatuses(for: march).first { $0.budget.id == trip.id } == status)

        // No rate on or before 2026-01-05: refused up front, nothing written.
        let count = try store.countExpenses(ExpenseQuery(budgetID: trip.id))
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "EUR", to: "JPY", day: try day("2026-01-05")))) {
            try store.addExpense(Expense(name: "Early", amount: money("5"), date: day("2026-01-05"), budgetID: trip.id ?? 0))
        }
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "EUR", to: "JPY", day: try day("2026-01-05")))) {
            try store.addExpense(Expense(name: "Early", amount: money("5"), date: day("2026-01-05"), budgetID: 0), toBudgetNamed: "Trip")
        }
        #expect(try store.countExpenses(ExpenseQuery(budgetID: trip.id)) == count)

        // Edit and undo: the currency comes and goes like any field.
        var edited = trip
        edited.currency = usd
        edited.limit = try money("700.50")
        edited.start = nil
        edited.rollover = .none
        let saved = try store.updateBudget(edited)
        #expect(try store.budget(named: "Trip").currency == usd)
        // 27.86 EUR × 1.0823 = 30.152878 → 30.15 USD; the yen dinner at EUR→USD: its ledger amount converted.
        let inDollars = try store.status(of: saved, in: march)
        #expect(inDollars.limit == (try money("700.50")))
        let undone = try store.undo(nil, dryRun: false)
        #expect(try store.budget(named: "Trip").currency == jpy)
        _ = try store.undo(undone.undo.id, dryRun: false)
        #expect(try store.budget(named: "Trip").currency == usd)

        // Making JPY the ledger's currency would leave Trip in it: no, Trip is in USD now; a ledger
        // in USD makes Trip the ledger's.
        settings.currency = usd
        _ = try store.updateSettings(settings)
        #expect(try store.budget(named: "Trip").currency == nil)
    }
}
