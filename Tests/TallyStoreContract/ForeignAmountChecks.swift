import Foundation
import TallyCore
import TallyTestSupport
import Testing

extension StoreContract {
    /// Rates are kept exactly and read back by day, pair and currency; the latest on or before a
    /// day is each pair's; an expense in another currency keeps its original amount, rate and
    /// source through add, edit, read, undo and redo; `reapplyRates` changes only the expenses
    /// whose rate came from the table, as one change set that undo takes back whole.
    static func foreignAmountsAndRatesRoundTripAndReapplyChangesOnlyTableRates(_ stores: Stores) throws {
        let store = try stores.make()
        var settings = try store.settings()
        settings.currency = try Currency(code: "EUR")
        _ = try store.updateSettings(settings)
        let food = try store.addBudget(Budget(name: "Food", limit: money("500")))
        let eur = try Currency(code: "EUR")
        let jpy = try Currency(code: "JPY")
        let usd = try Currency(code: "USD")
        try store.saveRates([
            DayRate(day: try day("2026-03-05"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "160")),
            DayRate(day: try day("2026-03-06"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "161.54")),
            DayRate(day: try day("2026-03-06"), from: eur, to: usd, rate: try ExchangeRate(parsing: "1.0823")),
        ])
        #expect(try store.rates(RateQuery()).count == 3)
        #expect(try store.rates(RateQuery(currency: usd)).map(\.rate.plainString) == ["1.0823"])
        #expect(try store.rates(RateQuery(days: DayInterval(first: try day("2026-03-06"), last: try day("2026-03-06")))).count == 2)
        let latest = try store.rates(RateQuery(latestOnOrBefore: try day("2026-03-08"))).sorted { $0.to.code < $1.to.code }
        #expect(latest.map(\.rate.plainString) == ["161.54", "1.0823"])
        #expect(try store.rates(RateQuery(latestOnOrBefore: try day("2026-03-05"))).map(\.rate.plainString) == ["160"])

        let dinner = try store.converting(
            Expense(name: "Dinner", amount: money("1"), date: day("2026-03-08"), budgetID: food.id ?? 0),
            from: CurrencyAmount(minorUnits: 4500, currency: jpy), given: nil)
        let added = try store.addExpense(dinner, toBudgetNamed: "Food").expense
        let taxi = try store.addExpense(
            try store.converting(
                Expense(name: "Taxi", amount: money("1"), date: day("2026-03-08"), budgetID: 0),
                from: CurrencyAmount(minorUnits: 1200, currency: jpy), given: try ExchangeRate(parsing: "0.0063")),
            toBudgetNamed: "Food"
        ).expense
        #expect(added.amount == (try money("27.86")))
        #expect(try store.expense(id: added.id ?? 0) == added)
        #expect(try store.expense(id: taxi.id ?? 0).foreign?.source == .given)
        #expect(try store.expense(id: taxi.id ?? 0).amount == (try money("7.56")))

        // A new rate changes nothing recorded until reapplied, and then only the table's expense.
        try store.saveRates([DayRate(day: try day("2026-03-07"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "150"))])
        #expect(try store.expense(id: added.id ?? 0) == added)
        let dry = try store.reapplyRates(in: nil, dryRun: true)
        #expect(dry.changes.map(\.before.id) == [added.id])
        #expect(try store.expense(id: added.id ?? 0) == added)
        let before = try store.changeSets(since: nil, limit: nil).count
        let done = try store.reapplyRates(in: nil, dryRun: false)
        #expect(done.changes.count == 1)
        #expect(try store.changeSets(since: nil, limit: nil).count == before + 1)
        let reapplied = try store.expense(id: added.id ?? 0)
        #expect(reapplied.amount == (try money("30.00")))
        #expect(reapplied.foreign?.rate == (try ExchangeRate(parsing: "150").inverted()))
        #expect(try store.expense(id: taxi.id ?? 0) == taxi)
        #expect(try store.reapplyRates(in: nil, dryRun: false).changes.isEmpty)

        // Undo puts the old conversion back, redo the new one, with every field.
        let undo = try store.undo(nil, dryRun: false)
        #expect(try store.expense(id: added.id ?? 0) == added)
        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try store.expense(id: added.id ?? 0).foreign == reapplied.foreign)

        // A removed foreign expense comes back whole.
        try store.removeExpense(id: taxi.id ?? 0)
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.expense(id: taxi.id ?? 0) == taxi)
    }
}

extension StoreContract {
    /// Spending by currency is what the store sums beside its day groups: after adds one at a
    /// time and in bulk, splits, edits, removals and undo, every month's and a whole range's
    /// totals equal ``CurrencySpending/totals(_:)`` of the expenses (originals × quantity,
    /// converted totals, counts, ordered by code), and the month summary carries the same.
    static func spendingByCurrencyIsTheRuleAfterEveryWrite(_ stores: Stores) throws {
        let store = try stores.make()
        var settings = try store.settings()
        settings.currency = try Currency(code: "EUR")
        _ = try store.updateSettings(settings)
        for name in ["Food", "Travel", "Fun"] { _ = try store.addBudget(Budget(name: name, limit: money("500"))) }
        let currencies = [try Currency(code: "JPY"), try Currency(code: "USD"), try Currency(code: "GBP"), try Currency(code: "CHF")]
        let rates = [try ExchangeRate(parsing: "0.0063"), try ExchangeRate(parsing: "0.92"), try ExchangeRate(parsing: "1.17"), try ExchangeRate(parsing: "1.05")]
        let months = [try Month(year: 2026, month: 2), try Month(year: 2026, month: 3)]
        var random = SeededGenerator(seed: 31)
        func foreignExpense(_ index: Int) throws(TallyError) -> Expense {
            let which = random.next(below: currencies.count)
            let month = months[random.next(below: months.count)]
            let expense = Expense(
                name: "Bought \(index)", amount: try money("1"), quantity: Int64(1 + random.next(below: 3)),
                date: try Day(year: month.year, month: month.month, day: 1 + random.next(below: 28)), budgetID: 0)
            return try store.converting(
                expense, from: CurrencyAmount(minorUnits: Int64(100 + random.next(below: 50_000)), currency: currencies[which]),
                given: rates[which])
        }
        func compare(_ checkpoint: String) throws {
            let expenses = try store.expenses(ExpenseQuery())
            for month in months {
                let days = month.days
                let rule = try CurrencySpending.totals(expenses.filter { days.contains($0.date) })
                #expect(try store.spendingByCurrency(in: days) == rule, "\(checkpoint): \(month)")
                #expect(try store.monthSummary(for: month).byCurrency == rule, "\(checkpoint): summary of \(month)")
            }
            let both = DayInterval(first: months[0].days.first, last: months[1].days.last)
            #expect(try store.spendingByCurrency(in: both) == CurrencySpending.totals(expenses), "\(checkpoint): both months")
        }

        try compare("empty")
        var ids: [Int64] = []
        for index in 0..<12 {
            var expense = try foreignExpense(index)
            expense.budgetID = 0
            ids.append(try store.addExpense(expense, toBudgetNamed: ["Food", "Travel", "Fun"][index % 3]).expense.id ?? 0)
            if index % 2 == 0 {
                _ = try store.addExpense(Expense(name: "Local \(index)", amount: money("3.50"), date: expense.date, budgetID: 0), toBudgetNamed: "Food")
            }
        }
        try compare("added")
        let split = try store.addSplitExpense(
            try foreignExpense(99), lines: [NamedLine(budget: "Food", share: .percent(6_000)), NamedLine(budget: "Fun", share: .rest)])
        ids.append(split.expense.id ?? 0)
        try compare("split")
        let food = try store.budgets().first { $0.name == "Food" }?.id ?? 0
        var bulk: [Expense] = []
        for index in 0..<1_200 {
            var expense = try foreignExpense(1_000 + index)
            expense.budgetID = food
            bulk.append(expense)
        }
        _ = try store.addExpenses(bulk)
        try compare("bulk")
        var edited = try store.expense(id: ids[0])
        edited.quantity += 2
        edited.date = try day("2026-02-27")
        _ = try store.updateExpense(edited)
        try compare("edited")
        try store.removeExpense(id: ids[1])
        try compare("removed")
        _ = try store.undo(nil, dryRun: false)
        try compare("undone")
    }
}
