import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore

/// The same random fixture written to both stores must read back the same from each.
@Suite(.ownThreads) struct BothStoresTests {
    @Test func bothStoresGiveIdenticalAnswersOnTheSameRandomFixture() throws {
        let stores = try StoreKind.allCases.map { try $0.make() }
        var random = SeededGenerator(seed: 20_260_101)
        let budgetNames = ["Food", "Rent", "Fun", "Café", "Transport", "Fast Food"]
        let words = ["apple", "Crème", "bus", "ticket", "pizza", "Éclair", "rent", "coffee", "book", "taxi"]
        let tags = ["work", "Family", "trip", "gift", "daily", "Café"]
        var budgetIDs: [[Int64]] = stores.map { _ in [] }
        for name in budgetNames {
            let limit = Money(cents: Int64.random(in: 1_000...500_000, using: &random))
            for (index, store) in stores.enumerated() {
                budgetIDs[index].append(try store.addBudget(Budget(name: name, limit: limit)).id ?? 0)
            }
        }
        #expect(budgetIDs[0] == budgetIDs[1])
        for _ in 0..<400 {
            let name = "\(words.randomElement(using: &random) ?? "x") \(words.randomElement(using: &random) ?? "y")"
            let amount = Money(cents: Int64.random(in: 1...20_000, using: &random))
            let quantity = Int64.random(in: 1...4, using: &random)
            let offset = Int.random(in: 0..<150, using: &random)
            let date = Day(Date(timeIntervalSince1970: 1_761_955_200 + Double(offset) * 86_400), in: TimeZone(secondsFromGMT: 0) ?? .current)
            let budgetIndex = Int.random(in: 0..<budgetNames.count, using: &random)
            let tagCount = Int.random(in: 0...3, using: &random)
            let chosen = (0..<tagCount).compactMap { _ in tags.randomElement(using: &random) }
            for (index, store) in stores.enumerated() {
                _ = try store.addExpense(Expense(name: name, amount: amount, quantity: quantity, date: date, budgetID: budgetIDs[index][budgetIndex], tags: chosen))
            }
        }
        let (memory, sqlite) = (stores[0], stores[1])
        #expect(try memory.budgets() == sqlite.budgets())
        for text in ["2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03", "2026-04"] {
            let month = try month(text)
            #expect(try memory.budgetStatuses(for: month) == sqlite.budgetStatuses(for: month))
            #expect(try memory.spendingByDay(in: month.days) == sqlite.spendingByDay(in: month.days))
            #expect(try memory.spendingByTag(in: month.days) == sqlite.spendingByTag(in: month.days))
        }
        let wide = DayInterval(first: try day("2025-01-01"), last: try day("2026-12-31"))
        #expect(try memory.spendingByTag(in: wide) == sqlite.spendingByTag(in: wide))
        for sort in ExpenseSort.allCases {
            for descending in [false, true] {
                for query in [
                    ExpenseQuery(sort: sort, descending: descending),
                    ExpenseQuery(search: "CREME", sort: sort, descending: descending, limit: 7, offset: 3),
                    ExpenseQuery(budgetID: budgetIDs[0][2], days: try month("2026-01").days, sort: sort, descending: descending, limit: 10),
                    ExpenseQuery(tag: "family", sort: sort, descending: descending, limit: 25, offset: 25),
                ] {
                    #expect(try memory.expenses(query) == sqlite.expenses(query), "\(query)")
                    #expect(try memory.countExpenses(query) == sqlite.countExpenses(query), "\(query)")
                }
            }
        }
    }

    @Test func bothStoresGiveIdenticalReportAggregatesOnARandomFixture() throws {
        let stores = try StoreKind.allCases.map { try $0.make() }
        var random = SeededGenerator(seed: 20_261_121)
        let tags = ["work", "Family", "trip", "gift", "Café", "cafe\u{301}"]
        var budgetIDs: [Int64] = []
        for name in ["Food", "Rent", "Fun", "Transport"] {
            let limit = Money(cents: Int64.random(in: 1_000...500_000, using: &random))
            let ids = try stores.map { try #require(try $0.addBudget(Budget(name: name, limit: limit)).id) }
            #expect(Set(ids).count == 1)
            budgetIDs.append(ids[0])
        }
        for _ in 0..<300 {
            let amount = Money(cents: Int64.random(in: 1...20_000, using: &random))
            let quantity = Int64.random(in: 1...4, using: &random)
            let date = try Day(year: 2026, month: Int.random(in: 1...6, using: &random), day: Int.random(in: 1...28, using: &random))
            let budget = budgetIDs[Int.random(in: 0..<budgetIDs.count, using: &random)]
            let chosen = (0..<Int.random(in: 0...3, using: &random)).compactMap { _ in tags.randomElement(using: &random) }
            for store in stores {
                _ = try store.addExpense(Expense(name: "Thing", amount: amount, quantity: quantity, date: date, budgetID: budget, tags: chosen))
            }
        }
        let (memory, sqlite) = (stores[0], stores[1])
        for number in 1...7 {
            let month = try Month(year: 2026, month: number)
            #expect(try memory.monthSummary(for: month) == sqlite.monthSummary(for: month))
            #expect(try sqlite.monthSummary(for: month) == StoreContract.expectedSummary(sqlite, month))
        }
        let range = try month("2025-12")...month("2026-07")
        #expect(try memory.spentByMonth(in: range) == sqlite.spentByMonth(in: range))
    }
}
