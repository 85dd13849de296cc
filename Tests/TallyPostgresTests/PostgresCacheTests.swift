import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallyPostgres

/// `budgetMonth` and `expenseDay` equal the sums of the rows after every kind of write `PostgresCaches` hears
/// of, including those the differential test does not make: imports (into an empty ledger,
/// loaded without indexes, and into one with expenses), bulk inserts by COPY and by INSERT,
/// recurring posts through `LedgerRows`, a change of the month start, and the undo and redo of
/// each, bulk moves included. `expenseDay` too, whose exact largest totals bound each month's
/// largest expenses.
@Suite(.ownThreads) struct PostgresCacheTests {
    @Test func everyKindOfWriteKeepsTheCacheEqualToTheRows() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "cache")
        let store = try PostgresStore(location: ServerLocation(url: database.url))
        defer { try? store.close() }
        func check(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try store.cacheMismatches() == [], "\(step)", sourceLocation: sourceLocation)
            // Each period's figures add up to every expense's total.
            let expenses = try store.expenses(ExpenseQuery())
            let total = try expenses.reduce(Money.zero) { (sum: Money, expense: Expense) throws(TallyError) in try sum + expense.total() }
            let months = try month("2025-01")...month("2027-12")
            let spent = try store.spentByMonth(in: months).values.flatMap(\.values)
            #expect(try spent.reduce(Money.zero) { (sum: Money, value: Money) throws(TallyError) in try sum + value } == total, "\(step)", sourceLocation: sourceLocation)
            // Each month's largest, overall and per budget, come from `expenseDay`'s exact bound
            // whenever the month has that many groups, and equal the plain sort of the rows.
            var queries: [ExpenseQuery] = []
            let budgetIDs = [nil] + (try store.budgets().map(\.id))
            for index in 0..<24 {
                let days = PeriodCalendar.calendarMonths.days(of: try month("2026-01").adding(months: index))
                for budgetID in budgetIDs {
                    queries.append(ExpenseQuery(budgetID: budgetID, days: days, sort: .total, descending: true, limit: 4))
                }
            }
            // One read transaction for all of them: a round trip each is what this costs.
            var answers: [(bounded: [Expense]?, plain: [Expense])] = []
            try store.read { () throws(TallyError) in
                for query in queries {
                    let filter = try Filter(query, paged: true)
                    answers.append((try store.largestExpenses(query), try store.loadExpenses(where: filter.sql, filter.binds, suffix: filter.order)))
                }
            }
            for (query, answer) in zip(queries, answers) {
                guard let days = query.days else { continue }
                // Fewer groups than asked for bound nothing: the plain read answers.
                let inRange = expenses.filter { $0.date >= days.first && $0.date <= days.last && (query.budgetID == nil || $0.budgetID == query.budgetID) }
                let groups = Set(inRange.map { "\($0.date) \($0.budgetID) \($0.tags) \($0.by)" })
                #expect(answer.bounded == (groups.count >= 4 ? answer.plain : nil), "\(step), \(query)", sourceLocation: sourceLocation)
            }
        }
        func rows(_ count: Int, from first: Int, budget: String) throws -> [(Expense, String)] {
            try (0..<count).map { index in
                let step = (first + index) * 7
                let date = try Day(year: 2026 + step / 12 % 2, month: step % 12 + 1, day: step % 28 + 1)
                return (Expense(name: "Row \(first + index)", amount: try money("\(index % 50 + 1).25"), quantity: Int64(index % 3 + 1), date: date, budgetID: 0, tags: index % 4 == 0 ? ["t"] : []), budget)
            }
        }
        func importRows(_ rows: [(Expense, String)], settings: LedgerSettings? = nil) throws {
            let trip = Budget(name: "Trip", limit: try money("900"), period: .yearly, rollover: .both)
            _ = try store.importExpenses(ImportRequest(source: "rows", newBudgets: [trip], missingBudgetLimit: try money("100"), settings: settings)) {
                (insert: ImportInsert) throws(TallyError) -> String? in
                for (expense, budget) in rows { try insert(expense, budget) }
                return nil
            }
        }

        try importRows(try rows(250, from: 0, budget: "Food") + rows(60, from: 7, budget: "Trip"), settings: LedgerSettings(calendar: try PeriodCalendar(monthStart: 25)))
        try check("import into an empty ledger")
        try importRows(try rows(150, from: 3, budget: "Home"))
        try check("import into a ledger with expenses")
        let food = try store.budget(named: "Food")
        let trip = try store.budget(named: "Trip")
        try store.addExpenses(try rows(120, from: 11, budget: "").map { expense, _ in var expense = expense; expense.budgetID = food.id ?? 0; return expense })
        try check("addExpenses by COPY")
        try store.addExpenses(try rows(3, from: 5, budget: "").map { expense, _ in var expense = expense; expense.budgetID = trip.id ?? 0; return expense })
        try check("addExpenses by INSERT")
        let added = try store.addExpense(Expense(name: "Cake", amount: money("4.50"), quantity: 2, date: day("2026-03-24"), budgetID: 0), toBudgetNamed: "Food").expense
        try check("addExpense to a budget by name")
        var moved = added
        moved.date = try day("2026-03-26")
        moved.budgetID = trip.id ?? 0
        moved.amount = try money("7")
        _ = try store.updateExpense(moved)
        try check("updateExpense into another period and budget")
        let first = try #require(try store.expenses(ExpenseQuery(sort: .date, limit: 1)).first)
        try store.removeExpense(id: first.id ?? 0)
        try check("removeExpense")
        _ = try store.writing { (rows: any LedgerRows) throws(TallyError) in
            try rows.save([Expense(name: "Bill", amount: try money("30"), date: try day("2026-02-25"), budgetID: food.id ?? 0)])
        }
        try check("LedgerRows.save")
        _ = try store.updateSettings(LedgerSettings())
        try check("a new month start")

        // Undo everything, newest first (the imports move their rows beside the undo), then redo.
        var undos: [Int64] = []
        while let entry = try store.changeSets(since: nil, limit: nil).first(where: { !$0.undone && $0.changeSet.undoes == nil }) {
            let outcome = try store.undo(entry.changeSet.id, dryRun: false)
            undos.append(outcome.undo.id)
            try check("undo of \(entry.changeSet.summary)")
        }
        #expect(try store.countExpenses(ExpenseQuery()) == 0)
        for id in undos.reversed() {
            _ = try store.undo(id, dryRun: false)
            try check("redo of #\(id)")
        }
        #expect(try store.countExpenses(ExpenseQuery()) > 500)

        let removed = try store.removeBudget(named: "Food", includingExpenses: true)
        #expect(removed > 0)
        try check("removeBudget with its expenses")
        _ = try store.undo(nil, dryRun: false)
        try check("undo of the budget's removal")
    }
}
