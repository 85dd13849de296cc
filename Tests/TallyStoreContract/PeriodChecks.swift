import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Periods, rollover and the month-start setting

extension StoreContract {
    /// Rollover makes a period's figures depend on every earlier period. Whatever a store keeps
    /// to answer fast (SQLite's `budgetMonth` per period), its figures must equal what the Core
    /// rules compute from the plain expenses, after random edits to old expenses, with monthly,
    /// yearly and once budgets, each rollover policy and cap, limit histories, and a month start
    /// that changes half way.
    static func periodFiguresAreTheCoreRulesAfterEditsToOldExpenses(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        var random = SeededGenerator(seed: 20_261_125)
        var log = FailureLog()
        let first = try month("2025-10")
        let trip = DayInterval(first: try day("2026-02-10"), last: try day("2026-03-05"))
        let budgets = try [
            Budget(name: "Food", limit: try money("400"), rollover: .both, start: first,
                   limitChanges: [LimitChange(from: try month("2026-02"), limit: try money("450"))]),
            Budget(name: "Fun", limit: try money("120"), rollover: .surplus, cap: try money("200")),
            Budget(name: "Rent", limit: try money("1200")),
            Budget(name: "Car", limit: try money("3000"), period: .yearly, rollover: .both),
            Budget(name: "Trip", limit: try money("900"), period: .once, range: trip),
        ]
        var ids: [String: Int64] = [:]
        for budget in budgets { ids[budget.name] = try store.addBudget(budget).id }

        func pick<T>(_ values: [T]) -> T { values[random.next(below: values.count)] }
        func randomDay(for name: String) -> Day {
            if name == "Trip" { return Array(trip)[random.next(below: Array(trip).count)] }
            let month = first.adding(months: random.next(below: 12))
            return (try? Day(year: month.year, month: month.month, day: 1 + random.next(below: month.numberOfDays))) ?? month.firstDay
        }
        func randomExpense() -> Expense {
            let name = pick(budgets).name
            return Expense(
                name: "Item", amount: Money(cents: Int64(100 + random.next(below: 30_000))), quantity: Int64(1 + random.next(below: 3)),
                date: randomDay(for: name), budgetID: ids[name] ?? 0)
        }

        func compare(_ checkpoint: String) throws {
            let calendar = try store.settings().calendar
            let expenses = try store.expenses(ExpenseQuery())
            let saved = try store.budgets()
            // The report over time's figures: what each budget had available and spent per period.
            let range = first.adding(months: -1)...first.adding(months: 13)
            let available = try store.availableByMonth(in: range)
            let spent = try store.spentByMonth(in: range)
            log.check(available.count == 15 && spent.count == 15, "\(checkpoint), availableByMonth and spentByMonth have every period")
            for offset in -1...13 {
                let period = first.adding(months: offset)
                for budget in saved {
                    let expected = try budget.status(viewing: period, in: calendar, of: expenses)
                    log.check(available[period]?[budget.id ?? 0] == expected.available, "\(checkpoint), availableByMonth(\(period)) \(budget.name): \(String(describing: available[period]?[budget.id ?? 0])); Core: \(expected.available)")
                    let days = calendar.days(of: period)
                    let own = try budget.spent(in: days, of: expenses.filter { $0.budgetID == budget.id && days.contains($0.date) })
                    log.check((spent[period]?[budget.id ?? 0] ?? .zero) == own, "\(checkpoint), spentByMonth(\(period)) \(budget.name): \(String(describing: spent[period]?[budget.id ?? 0])); Core: \(own)")
                }
            }
            for offset in -1...13 {
                let period = first.adding(months: offset)
                let statuses = try store.budgetStatuses(for: period)
                let summary = try store.monthSummary(for: period)
                for budget in saved {
                    let expected = try budget.status(viewing: period, in: calendar, of: expenses)
                    let listed = statuses.first { $0.budget.id == budget.id }
                    log.check(listed == expected, "\(checkpoint), budgetStatuses(\(period)) \(budget.name): \(String(describing: listed)); Core: \(expected)")
                    let single = try store.status(of: budget, in: period)
                    log.check(single == expected, "\(checkpoint), status(of: \(budget.name), in: \(period)): \(single); Core: \(expected)")
                    log.check(summary.statuses.first { $0.budget.id == budget.id } == expected, "\(checkpoint), monthSummary(\(period)) \(budget.name)")
                }
                log.check(summary.days == calendar.days(of: period), "\(checkpoint), monthSummary(\(period)).days")
            }
        }

        var added: [Expense] = []
        for _ in 0..<120 { added.append(try store.addExpense(randomExpense())) }
        try compare("after adding")
        // Edits to old expenses: amounts, dates, budgets; and removals.
        for _ in 0..<60 {
            var expense = pick(added)
            guard var current = try? store.expense(id: expense.id ?? 0) else { continue }
            switch random.next(below: 4) {
            case 0: current.amount = Money(cents: Int64(100 + random.next(below: 50_000)))
            case 1:
                let name = budgets.first { ids[$0.name] == current.budgetID }?.name ?? "Food"
                current.date = randomDay(for: name)
            case 2:
                let name = pick(["Food", "Fun", "Rent", "Car"])
                current.budgetID = ids[name] ?? 0
                current.date = randomDay(for: name)
            default:
                try store.removeExpense(id: current.id ?? 0)
                continue
            }
            expense = try store.updateExpense(current)
            _ = expense
        }
        try compare("after editing old expenses")
        _ = try store.addExpenses((0..<80).map { _ in randomExpense() })
        let (_, status) = try store.addExpense(randomExpense(), toBudgetNamed: "food")
        let calendar = try store.settings().calendar
        log.check(
            status == (try store.budget(named: "Food").status(viewing: status.month, in: calendar, of: store.expenses(ExpenseQuery()))),
            "addExpense(toBudgetNamed:) status")
        try compare("after a bulk add")
        _ = try store.updateSettings(LedgerSettings(calendar: try PeriodCalendar(monthStart: 25)))
        try compare("with months starting on the 25th")
        var fun = try store.budget(named: "Fun")
        fun.rollover = .both
        fun.cap = nil
        fun.limitChanges = [LimitChange(from: try month("2026-01"), limit: try money("150"))]
        _ = try store.updateBudget(fun)
        try compare("after changing a policy and a limit")
        for _ in 0..<40 { _ = try store.addExpense(randomExpense()) }
        try compare("after adding under the new month start")
        log.report()
    }

    /// A once budget takes only expenses dated within its range, whichever way they arrive.
    static func aOnceBudgetRefusesExpensesOutsideItsRange(_ stores: Stores) throws {
        let store = try stores.make()
        let range = DayInterval(first: try day("2026-07-01"), last: try day("2026-07-14"))
        let trip = try store.addBudget(Budget(name: "Trip", limit: try money("900"), period: .once, range: range))
        let inside = Expense(name: "Hotel", amount: try money("80"), date: try day("2026-07-03"), budgetID: trip.id ?? 0)
        var outside = inside
        outside.date = try day("2026-07-15")
        let refusal = TallyError.expenseOutsideRange(budget: "Trip", day: outside.date, range: range)
        let saved = try store.addExpense(inside)
        let before = try Snapshot(store)
        expectError(refusal) { () throws(TallyError) in try store.addExpense(outside) }
        expectError(refusal) { () throws(TallyError) in try store.addExpense(outside, toBudgetNamed: "trip") }
        expectError(refusal) { () throws(TallyError) in try store.addExpenses([inside, outside]) }
        var moved = saved
        moved.date = outside.date
        expectError(refusal) { () throws(TallyError) in try store.updateExpense(moved) }
        expectError(refusal) { () throws(TallyError) in
            try store.importExpenses(ImportRequest(source: "trip.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
                try insert(inside, "trip")
                try insert(outside, "TRIP")
                return "trip-fingerprint"
            }
        }
        #expect(try Snapshot(store) == before)
        let status = try store.status(of: trip, in: try month("2026-12"))
        let (spent, available) = (try money("80"), try money("900"))
        #expect(status.days == range && status.spent == spent && status.available == available)
    }
}
