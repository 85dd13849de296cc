import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The checks themselves, one function each; ``StoreContract/checks`` lists them.
extension StoreContract {
    // MARK: - Expenses

    static func expensesAreAddedReadUpdatedAndRemoved(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let food = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let home = try store.addBudget(Budget(name: "Home", limit: money("100")))
        let added = try store.addExpense(
            Expense(name: " Apples ", amount: money("1.25"), quantity: 4, date: day("2026-02-10"), budgetID: food.id ?? 0, tags: ["Fruit", " fruit", "market"]))
        #expect(added.name == "Apples")
        #expect(added.tags == ["fruit", "market"])
        #expect(try added.total() == money("5"))
        #expect(added.createdAt == clock().roundedToMilliseconds)
        #expect(try store.expense(id: added.id ?? 0) == added)

        clock.advance(by: 3.5)
        var changed = added
        changed.name = "Pears"
        changed.amount = try money("2")
        changed.quantity = 2
        changed.date = try day("2026-02-11")
        changed.budgetID = home.id ?? 0
        changed.tags = ["Orchard"]
        changed.createdAt = Date(timeIntervalSince1970: 0)
        let updated = try store.updateExpense(changed)
        #expect(updated.createdAt == added.createdAt)
        #expect(updated.updatedAt == clock().roundedToMilliseconds)
        #expect(updated.tags == ["orchard"])
        #expect(try store.expense(id: added.id ?? 0) == updated)
        #expect(try store.spendingByTag(in: month("2026-02").days) == ["orchard": try money("4")])

        try store.removeExpense(id: added.id ?? 0)
        expectError(.expenseNotFound(added.id ?? 0)) { () throws(TallyError) in try store.expense(id: added.id ?? 0) }
        #expect(try store.countExpenses(ExpenseQuery()) == 0)

        let next = try store.addExpense(Expense(name: "Bread", amount: money("3"), date: day("2026-02-12"), budgetID: food.id ?? 0))
        #expect((next.id ?? 0) > (added.id ?? 0), "ids are never reused")
    }

    static func brokenExpenseRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        let budget = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let id = budget.id ?? 0
        let kept = try store.addExpense(Expense(name: "Kept", amount: money("1"), date: day("2026-01-01"), budgetID: id, tags: ["kept"]))
        let before = try Snapshot(store)
        let date = try day("2026-01-02")
        let long = String(repeating: "y", count: 201)
        let longTag = String(repeating: "t", count: 51)
        let cases: [(Expense, TallyError)] = [
            (Expense(name: "", amount: Money(cents: 1), date: date, budgetID: id), .emptyName(.expense)),
            (Expense(name: "   ", amount: Money(cents: 1), date: date, budgetID: id), .emptyName(.expense)),
            (Expense(name: long, amount: Money(cents: 1), date: date, budgetID: id), .nameTooLong(.expense, long, maximum: 200)),
            (Expense(name: "a\rb", amount: Money(cents: 1), date: date, budgetID: id), .nameHasControlCharacters(.expense, "a\rb")),
            (Expense(name: "Free", amount: .zero, date: date, budgetID: id), .amountNotPositive(.zero)),
            (Expense(name: "Minus", amount: Money(cents: -1), date: date, budgetID: id), .amountNotPositive(Money(cents: -1))),
            (Expense(name: "Huge", amount: Money(cents: 100_000_000_001), date: date, budgetID: id), .amountOutOfRange("1000000000.01")),
            (Expense(name: "None", amount: Money(cents: 1), quantity: 0, date: date, budgetID: id), .invalidQuantity(0)),
            (Expense(name: "Many", amount: Money(cents: 1), quantity: 1_000_001, date: date, budgetID: id), .invalidQuantity(1_000_001)),
            (Expense(name: "Tag", amount: Money(cents: 1), date: date, budgetID: id, tags: [""]), .invalidTag("")),
            (Expense(name: "Tag", amount: Money(cents: 1), date: date, budgetID: id, tags: ["a,b"]), .invalidTag("a,b")),
            (Expense(name: "Tag", amount: Money(cents: 1), date: date, budgetID: id, tags: ["a;b"]), .invalidTag("a;b")),
            (Expense(name: "Tag", amount: Money(cents: 1), date: date, budgetID: id, tags: ["a\tb"]), .invalidTag("a\tb")),
            (Expense(name: "Tag", amount: Money(cents: 1), date: date, budgetID: id, tags: [longTag]), .invalidTag(longTag)),
        ]
        for (expense, error) in cases {
            expectError(error) { () throws(TallyError) in try store.addExpense(expense) }
            var update = expense
            update.id = kept.id
            expectError(error) { () throws(TallyError) in try store.updateExpense(update) }
        }
        #expect(try Snapshot(store) == before)
        #expect(try store.spendingByTag(in: month("2026-01").days) == ["kept": try money("1")])
    }

    static func missingRecordsAreReportedByName(_ stores: Stores) throws {
        let store = try stores.make()
        let budget = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let expense = try store.addExpense(Expense(name: "Bread", amount: money("2"), date: day("2026-01-01"), budgetID: budget.id ?? 0))
        let before = try Snapshot(store)

        expectError(.budgetNotFound("Nope")) { () throws(TallyError) in try store.budget(named: "Nope") }
        expectError(.budgetNotFound("Nope")) { () throws(TallyError) in try store.removeBudget(named: "Nope", includingExpenses: true) }
        expectError(.budgetNotFound("Ghost")) { () throws(TallyError) in try store.updateBudget(Budget(id: 999, name: "Ghost", limit: money("1"))) }
        expectError(.budgetNotFound("Unsaved")) { () throws(TallyError) in try store.updateBudget(Budget(name: "Unsaved", limit: money("1"))) }
        expectError(.budgetNotFound("#999")) { () throws(TallyError) in
            try store.addExpense(Expense(name: "Lost", amount: money("1"), date: day("2026-01-01"), budgetID: 999))
        }
        expectError(.expenseNotFound(999)) { () throws(TallyError) in try store.expense(id: 999) }
        expectError(.expenseNotFound(999)) { () throws(TallyError) in try store.removeExpense(id: 999) }
        expectError(.expenseNotFound(999)) { () throws(TallyError) in
            try store.updateExpense(Expense(id: 999, name: "Lost", amount: money("1"), date: day("2026-01-01"), budgetID: budget.id ?? 0))
        }
        expectError(.expenseNotFound(0)) { () throws(TallyError) in
            try store.updateExpense(Expense(name: "Unsaved", amount: money("1"), date: day("2026-01-01"), budgetID: budget.id ?? 0))
        }
        var moved = expense
        moved.budgetID = 999
        expectError(.budgetNotFound("#999")) { () throws(TallyError) in try store.updateExpense(moved) }
        #expect(try Snapshot(store) == before)
    }

    // MARK: - Queries

    static func searchIgnoresCaseAndDiacritics(_ stores: Stores) throws {
        let store = try stores.make()
        let budget = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let id = budget.id ?? 0
        for name in ["Crème brûlée", "CREME fraiche", "Bread", "Ice cream"] {
            _ = try store.addExpense(Expense(name: name, amount: money("1"), date: day("2026-01-01"), budgetID: id))
        }
        func names(_ search: String?) throws -> [String] {
            try store.expenses(ExpenseQuery(search: search, sort: .name)).map(\.name)
        }
        #expect(try names("creme") == ["Crème brûlée", "CREME fraiche"])
        #expect(try names("CRÈME") == ["Crème brûlée", "CREME fraiche"])
        #expect(try names("BRULEE") == ["Crème brûlée"])
        #expect(try names("re") == ["Bread", "Crème brûlée", "CREME fraiche", "Ice cream"])
        #expect(try names("") == ["Bread", "Crème brûlée", "CREME fraiche", "Ice cream"])
        #expect(try names(nil).count == 4)
        #expect(try names("zzz") == [])
        #expect(try store.countExpenses(ExpenseQuery(search: "cReMe", limit: 1, offset: 5)) == 2)
    }

    static func everySortIsStableWithTiesByIDInTheSameDirection(_ stores: Stores, descending: Bool) throws {
        let store = try stores.make()
        let budget = try store.addBudget(Budget(name: "Food", limit: money("1000")))
        let id = budget.id ?? 0
        // Pairs share a date, an amount, a total or a name so every sort has ties.
        let rows: [(String, String, Int64, String)] = [
            ("b", "2.00", 3, "2026-01-02"), ("B", "3.00", 2, "2026-01-01"), ("a", "2.00", 1, "2026-01-02"),
            ("é", "6.00", 1, "2026-01-03"), ("e", "1.00", 6, "2026-01-01"), ("z", "0.50", 1, "2026-01-03"),
        ]
        var added: [Expense] = []
        for (name, amount, quantity, date) in rows {
            added.append(try store.addExpense(Expense(name: name, amount: money(amount), quantity: quantity, date: day(date), budgetID: id)))
        }
        for sort in ExpenseSort.allCases {
            let expected = try added.sorted { lhs, rhs in
                let order: (Bool, Bool)
                switch sort {
                case .date: order = (lhs.date < rhs.date, lhs.date == rhs.date)
                case .amount: order = (lhs.amount < rhs.amount, lhs.amount == rhs.amount)
                case .total: order = (try lhs.total() < rhs.total(), try lhs.total() == rhs.total())
                case .name:
                    let (left, right) = (Array(lhs.nameKey.utf8), Array(rhs.nameKey.utf8))
                    order = (left.lexicographicallyPrecedes(right), left == right)
                }
                let (lhsID, rhsID) = (lhs.id ?? 0, rhs.id ?? 0)
                if order.1 { return descending ? lhsID > rhsID : lhsID < rhsID }
                return descending ? !order.0 : order.0
            }
            let listed = try store.expenses(ExpenseQuery(sort: sort, descending: descending))
            #expect(listed.map(\.id) == expected.map(\.id), "sort \(sort) descending \(descending)")
            var paged: [Expense] = []
            for page in 0..<3 {
                paged += try store.expenses(ExpenseQuery(sort: sort, descending: descending, limit: 2, offset: page * 2))
            }
            #expect(paged == listed)
        }
    }

    static func pagesCoverTheListExactlyOnce(_ stores: Stores) throws {
        let store = try stores.make()
        let budget = try store.addBudget(Budget(name: "Food", limit: money("1000")))
        for index in 0..<23 {
            _ = try store.addExpense(Expense(name: "E\(index)", amount: Money(cents: Int64(100 + index % 4)), date: day("2026-01-\(10 + index % 5)"), budgetID: budget.id ?? 0))
        }
        let all = try store.expenses(ExpenseQuery(sort: .amount, descending: true))
        #expect(all.count == 23)
        var pages: [Expense] = []
        var offset = 0
        while true {
            let page = try store.expenses(ExpenseQuery(sort: .amount, descending: true, limit: 5, offset: offset))
            if page.isEmpty { break }
            pages += page
            offset += 5
        }
        #expect(pages == all)
        #expect(try store.expenses(ExpenseQuery(limit: 0)) == [])
        #expect(try store.expenses(ExpenseQuery(offset: 100)) == [])
        #expect(try store.expenses(ExpenseQuery(limit: -3)) == [])
        #expect(try store.expenses(ExpenseQuery(sort: .amount, descending: true, offset: -4)) == all)
        #expect(try store.countExpenses(ExpenseQuery(sort: .name, limit: 2, offset: 3)) == 23)
    }

    static func tagsAreNormalizedSharedAndFilterable(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("1000")))
        let fun = try store.addBudget(Budget(name: "Fun", limit: money("1000")))
        let lunch = try store.addExpense(Expense(name: "Lunch", amount: money("12"), date: day("2026-04-01"), budgetID: food.id ?? 0, tags: ["Work", "FOOD "]))
        let cinema = try store.addExpense(Expense(name: "Cinema", amount: money("9"), date: day("2026-04-02"), budgetID: fun.id ?? 0, tags: ["friends", "work"]))
        let bread = try store.addExpense(Expense(name: "Bread", amount: money("2"), quantity: 3, date: day("2026-04-03"), budgetID: food.id ?? 0))
        let cafe = try store.addExpense(Expense(name: "Coffee", amount: money("3"), date: day("2026-04-03"), budgetID: fun.id ?? 0, tags: ["café"]))
        #expect(lunch.tags == ["food", "work"])
        #expect(bread.tags == [])

        func tagged(_ tag: String) throws -> [Int64?] { try store.expenses(ExpenseQuery(tag: tag)).map(\.id) }
        #expect(try tagged("WORK") == [lunch.id, cinema.id])
        #expect(try tagged(" food") == [lunch.id])
        #expect(try tagged("cafe\u{301}") == [cafe.id])
        #expect(try tagged("none") == [])
        #expect(try store.countExpenses(ExpenseQuery(budgetID: fun.id, tag: "work")) == 1)
        expectError(.invalidTag("a,b")) { () throws(TallyError) in try store.expenses(ExpenseQuery(tag: "a,b")) }
        expectError(.invalidTag(" ")) { () throws(TallyError) in try store.countExpenses(ExpenseQuery(tag: " ")) }

        let april = try month("2026-04").days
        #expect(try store.spendingByTag(in: april) == ["work": try money("21"), "food": try money("12"), "friends": try money("9"), "café": try money("3")])

        var retagged = cinema
        retagged.tags = ["Film"]
        _ = try store.updateExpense(retagged)
        #expect(try tagged("work") == [lunch.id])
        #expect(try tagged("friends") == [])
        #expect(try store.expense(id: cinema.id ?? 0).tags == ["film"])
        #expect(try store.spendingByTag(in: april) == ["work": try money("12"), "food": try money("12"), "film": try money("9"), "café": try money("3")])
    }

    static func filtersCombine(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("1000")))
        let fun = try store.addBudget(Budget(name: "Fun", limit: money("1000")))
        let inside = try store.addExpense(Expense(name: "Pizza night", amount: money("20"), date: day("2026-05-31"), budgetID: food.id ?? 0, tags: ["dinner"]))
        _ = try store.addExpense(Expense(name: "Pizza night", amount: money("20"), date: day("2026-06-01"), budgetID: food.id ?? 0, tags: ["dinner"]))
        _ = try store.addExpense(Expense(name: "Pizza night", amount: money("20"), date: day("2026-05-15"), budgetID: fun.id ?? 0, tags: ["dinner"]))
        _ = try store.addExpense(Expense(name: "Pizza night", amount: money("20"), date: day("2026-05-15"), budgetID: food.id ?? 0))
        _ = try store.addExpense(Expense(name: "Salad", amount: money("20"), date: day("2026-05-15"), budgetID: food.id ?? 0, tags: ["dinner"]))
        let query = ExpenseQuery(budgetID: food.id, days: try month("2026-05").days, search: "PIZZA", tag: "Dinner")
        #expect(try store.expenses(query) == [inside])
        #expect(try store.countExpenses(query) == 1)
    }

    /// `tags()` lists every tag an expense has or has had, once, sorted, without reading expenses.
    static func tagsListEveryTagEverStored(_ stores: Stores) throws {
        let store = try stores.make()
        #expect(try store.tags().isEmpty)
        let food = try store.addBudget(Budget(name: "Food", limit: try money("100")))
        let bread = try store.addExpense(
            Expense(name: "Bread", amount: try money("2"), date: try day("2026-03-01"), budgetID: food.id ?? 0, tags: ["Daily", " été "]))
        _ = try store.addExpenses([
            Expense(name: "Cake", amount: try money("4"), date: try day("2026-03-02"), budgetID: food.id ?? 0, tags: ["e\u{301}te\u{301}", "treat"]),
        ])
        var changed = bread
        changed.tags = ["weekly"]
        _ = try store.updateExpense(changed)
        try store.removeExpense(id: bread.id ?? 0)
        let tags = try store.tags()
        #expect(tags == ["daily", "treat", "weekly", "été"].sorted(), "\(tags.map { Array($0.unicodeScalars) })")
    }
}
