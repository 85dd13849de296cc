import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore
@testable import TallySQLite

/// Reads from several threads at once run on extra read-only connections and answer alike.
@Suite(.ownThreads) struct ConcurrentReadsTests {
    @Test func concurrentReadsAnswerLikeSequentialOnesWhileAnotherThreadWrites() throws {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        let food = try #require(try store.addBudget(Budget(name: "Food", limit: money("100"))).id)
        let rent = try #require(try store.addBudget(Budget(name: "Rent", limit: money("900"))).id)
        var expenses: [Expense] = []
        for index in 0..<600 {
            expenses.append(try Expense(
                name: "E\(index)", amount: Money(cents: Int64(index % 97 + 1)), quantity: Int64(index % 3 + 1),
                date: Day(year: 2026, month: index % 6 + 1, day: index % 28 + 1), budgetID: index % 2 == 0 ? food : rent,
                tags: index % 5 == 0 ? ["work"] : []))
        }
        try store.addExpenses(expenses)
        let march = try month("2026-03")
        let range = try month("2026-01")...month("2026-06")
        let summary = try store.monthSummary(for: march)
        let spent = try store.spentByMonth(in: range)

        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                for _ in 0..<20 {
                    if worker == 0 {
                        // Writes to a month nobody reads here: readers must neither fail nor wait forever.
                        _ = try store.addExpense(Expense(name: "Later", amount: Money(cents: 1), date: day("2027-01-01"), budgetID: food))
                    } else if worker % 2 == 0 {
                        if try store.monthSummary(for: march) != summary { failures.withLock { $0.append("summary") } }
                    } else {
                        if try store.spentByMonth(in: range) != spent { failures.withLock { $0.append("spent") } }
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try store.countExpenses(ExpenseQuery(days: month("2027-01").days)) == 20)
    }
}
