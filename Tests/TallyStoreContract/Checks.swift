import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The checks themselves, one function each; ``StoreContract/checks`` lists them.
extension StoreContract {
    // MARK: - Budgets

    static func budgetsAreAddedFoundListedAndUpdated(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let food = try store.addBudget(Budget(name: "  Food ", limit: money("300")))
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("1200.50")))
        let cafe = try store.addBudget(Budget(name: "Café", limit: money("40")))

        #expect(food.id != nil && rent.id != nil && cafe.id != nil)
        #expect(Set([food.id, rent.id, cafe.id]).count == 3)
        #expect(food.name == "Food")
        #expect(food.createdAt == clock().roundedToMilliseconds)
        #expect(food.updatedAt == food.createdAt)
        #expect(try store.budget(named: " FOOD ") == food)
        #expect(try store.budget(named: "cafe") == cafe)
        #expect(try store.budget(named: "CAFÉ") == cafe)
        #expect(try store.budgets().map(\.name) == ["Café", "Food", "Rent"])

        clock.advance(by: 60.000_7)
        var changed = rent
        changed.limit = try money("1300")
        changed.name = "Home"
        let updated = try store.updateBudget(changed)
        #expect(updated.createdAt == rent.createdAt)
        #expect(updated.updatedAt == clock().roundedToMilliseconds)
        #expect(updated.updatedAt != rent.updatedAt)
        #expect(try store.budget(named: "home") == updated)
        expectError(.budgetNotFound("Rent")) { () throws(TallyError) in try store.budget(named: "Rent") }
        #expect(try store.budgets().map(\.name) == ["Café", "Food", "Home"])
    }

    static func budgetsAreOrderedByNameKeyBytesThenID(_ stores: Stores) throws {
        let store = try stores.make()
        for name in ["b", "Äb", "a", "Z", "éclair", "10", "9", "a b"] {
            _ = try store.addBudget(Budget(name: name, limit: Money(cents: 100)))
        }
        #expect(try store.budgets().map(\.name) == ["10", "9", "a", "a b", "Äb", "b", "éclair", "Z"].sorted {
            Array(NameKey.make($0).utf8).lexicographicallyPrecedes(Array(NameKey.make($1).utf8))
        })
    }

    static func brokenBudgetRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        let kept = try store.addBudget(Budget(name: "Kept", limit: money("10")))
        let before = try Snapshot(store)
        let long = String(repeating: "x", count: 101)
        let cases: [(Budget, TallyError)] = [
            (Budget(name: "", limit: Money(cents: 1)), .emptyName(.budget)),
            (Budget(name: " \t\n ", limit: Money(cents: 1)), .emptyName(.budget)),
            (Budget(name: long, limit: Money(cents: 1)), .nameTooLong(.budget, long, maximum: 100)),
            (Budget(name: "a\nb", limit: Money(cents: 1)), .nameHasControlCharacters(.budget, "a\nb")),
            (Budget(name: "a\u{7}b", limit: Money(cents: 1)), .nameHasControlCharacters(.budget, "a\u{7}b")),
            (Budget(name: "a\u{2028}b", limit: Money(cents: 1)), .nameHasControlCharacters(.budget, "a\u{2028}b")),
            (Budget(name: "Zero", limit: .zero), .limitNotPositive(.zero)),
            (Budget(name: "Negative", limit: Money(cents: -5)), .limitNotPositive(Money(cents: -5))),
            (Budget(name: "Huge", limit: Money(cents: 100_000_000_001)), .amountOutOfRange("1000000000.01")),
        ]
        for (budget, error) in cases {
            expectError(error) { () throws(TallyError) in try store.addBudget(budget) }
            var update = budget
            update.id = kept.id
            expectError(error) { () throws(TallyError) in try store.updateBudget(update) }
        }
        #expect(try Snapshot(store) == before)
    }

    static func namesMadeOfManyScalarsFitTheirCharacterLimit(_ stores: Stores) throws {
        let store = try stores.make()
        let family = String(repeating: "👨‍👩‍👧", count: 100)
        let accents = String(repeating: "e\u{301}", count: 100)
        #expect(try store.addBudget(Budget(name: family, limit: Money(cents: 1))).name == family)
        #expect(try store.addBudget(Budget(name: "Z" + accents.dropFirst(2), limit: Money(cents: 1))).id != nil)
        let budget = try store.budget(named: family)
        let name = String(repeating: "🇫🇷", count: 200)
        #expect(try store.addExpense(Expense(name: name, amount: Money(cents: 1), date: day("2026-01-01"), budgetID: budget.id ?? 0)).name == name)
    }

    static func namesClashIgnoringCaseAndDiacriticsOnly(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Café", limit: money("10")))
        let before = try Snapshot(store)
        expectError(.duplicateBudget("cafe")) { () throws(TallyError) in try store.addBudget(Budget(name: "cafe", limit: money("1"))) }
        expectError(.duplicateBudget("CAFE")) { () throws(TallyError) in try store.addBudget(Budget(name: " CAFE ", limit: money("1"))) }
        #expect(try Snapshot(store) == before)

        _ = try store.addBudget(Budget(name: "Food", limit: money("10")))
        _ = try store.addBudget(Budget(name: "Fast Food", limit: money("10")))
        #expect(try store.budgets().count == 3)
    }

    static func renamingOntoAnotherBudgetIsRefusedButOwnCaseIsNot(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("10")))
        _ = try store.addBudget(Budget(name: "Rent", limit: money("10")))
        let before = try Snapshot(store)
        var clash = food
        clash.name = "rent"
        expectError(.duplicateBudget("rent")) { () throws(TallyError) in try store.updateBudget(clash) }
        #expect(try Snapshot(store) == before)

        var recased = food
        recased.name = "FOOD"
        #expect(try store.updateBudget(recased).name == "FOOD")
        #expect(try store.budget(named: "food").name == "FOOD")
    }

    static func removingABudgetCascadesOnlyWhenAsked(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("100")))
        _ = try store.addBudget(Budget(name: "Empty", limit: money("100")))
        for index in 1...3 {
            _ = try store.addExpense(Expense(name: "Meal \(index)", amount: money("10"), date: day("2026-03-0\(index)"), budgetID: food.id ?? 0, tags: ["meal", "shared"]))
        }
        let keptExpense = try store.addExpense(Expense(name: "March", amount: money("900"), date: day("2026-03-01"), budgetID: rent.id ?? 0, tags: ["shared"]))
        let before = try Snapshot(store)

        expectError(.budgetNotEmpty("Food", expenseCount: 3)) { () throws(TallyError) in
            try store.removeBudget(named: "food", includingExpenses: false)
        }
        #expect(try Snapshot(store) == before)

        #expect(try store.removeBudget(named: "EMPTY", includingExpenses: false) == 0)
        #expect(try store.removeBudget(named: "Food", includingExpenses: true) == 3)
        #expect(try store.budgets() == [rent])
        #expect(try store.expenses(ExpenseQuery()) == [keptExpense])
        #expect(try store.countExpenses(ExpenseQuery(budgetID: food.id)) == 0)
        let march = try month("2026-03").days
        #expect(try store.spendingByTag(in: march) == ["shared": try money("900")])
        expectError(.budgetNotFound("Empty")) { () throws(TallyError) in try store.budget(named: "Empty") }
    }

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

    // MARK: - Months and aggregates

    static func monthBoundariesFollowTheCivilDay(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let id = food.id ?? 0
        // 2026-01-31 23:59:59 in UTC−05:00 is already February in UTC.
        let zone = try #require(TimeZone(secondsFromGMT: -5 * 3600))
        let lastSecond = Date(timeIntervalSince1970: 1_769_921_999)
        #expect(Day(lastSecond, in: zone) == (try day("2026-01-31")))
        #expect(Day(lastSecond.addingTimeInterval(1), in: zone) == (try day("2026-02-01")))
        #expect(Day(lastSecond, in: TimeZone(secondsFromGMT: 0) ?? zone) == (try day("2026-02-01")))

        _ = try store.addExpense(Expense(name: "Late", amount: money("30"), date: Day(lastSecond, in: zone), budgetID: id, tags: ["edge"]))
        _ = try store.addExpense(Expense(name: "Early", amount: money("5"), quantity: 2, date: Day(lastSecond.addingTimeInterval(1), in: zone), budgetID: id, tags: ["edge"]))
        _ = try store.addExpense(Expense(name: "Leap", amount: money("1"), date: day("2028-02-29"), budgetID: id))
        _ = try store.addExpense(Expense(name: "New year", amount: money("7"), date: day("2025-12-31"), budgetID: id))

        let january = try #require(try store.budgetStatuses(for: month("2026-01")).first)
        #expect(january.spent == (try money("30")))
        #expect(january.remaining == (try money("70")))
        #expect(january.expenseCount == 1)
        let february = try #require(try store.budgetStatuses(for: month("2026-02")).first)
        #expect(february.spent == (try money("10")))
        #expect(february.expenseCount == 1)
        #expect(try store.status(ofBudgetNamed: "food", in: month("2028-02")).spent == money("1"))
        #expect(try store.status(ofBudgetNamed: "food", in: month("2025-12")).spent == money("7"))
        #expect(try store.countExpenses(ExpenseQuery(days: month("2026-01").days)) == 1)
        #expect(try store.expenses(ExpenseQuery(days: month("2026-02").days)).map(\.name) == ["Early"])
        #expect(try store.spendingByDay(in: DayInterval(first: day("2026-01-31"), last: day("2026-02-01"))) == [
            try day("2026-01-31"): try money("30"), try day("2026-02-01"): try money("10"),
        ])
        #expect(try store.spendingByTag(in: month("2026-01").days) == ["edge": try money("30")])
    }

    static func overBudgetAndEmptyMonths(_ stores: Stores) throws {
        let store = try stores.make()
        let small = try store.addBudget(Budget(name: "Small", limit: money("10")))
        _ = try store.addBudget(Budget(name: "Idle", limit: money("5")))
        _ = try store.addExpense(Expense(name: "Big", amount: money("4"), quantity: 3, date: day("2026-07-04"), budgetID: small.id ?? 0))
        let statuses = try store.budgetStatuses(for: month("2026-07"))
        #expect(statuses.map(\.budget.name) == ["Idle", "Small"])
        #expect(statuses.map(\.spent) == [.zero, try money("12")])
        #expect(statuses.map(\.remaining) == [try money("5"), Money(cents: -200)])
        #expect(statuses.map(\.isOverBudget) == [false, true])
        #expect(statuses.map(\.expenseCount) == [0, 1])
        #expect(try store.spendingByDay(in: month("2026-08").days) == [:])
        #expect(try store.spendingByTag(in: month("2026-07").days) == [:])
    }

    static func addingToABudgetByNameSavesTheExpenseAndAnswersItsMonth(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Café", limit: money("100")))
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("900")))
        _ = try store.addExpense(Expense(name: "Bread", amount: money("4.20"), date: day("2026-03-02"), budgetID: food.id ?? 0))
        _ = try store.addExpense(Expense(name: "Old", amount: money("9"), date: day("2026-02-27"), budgetID: food.id ?? 0))

        // The budget comes from the name, whatever `budgetID` says.
        let (saved, status) = try store.addExpense(
            Expense(name: " Coffee ", amount: money("3.50"), quantity: 2, date: day("2026-03-20"), budgetID: rent.id ?? 0, tags: ["Work", "work "]),
            toBudgetNamed: "  CAFE ")
        #expect(saved.id != nil)
        #expect(saved.name == "Coffee")
        #expect(saved.budgetID == food.id)
        #expect(saved.tags == ["work"])
        #expect(try store.expense(id: saved.id ?? 0) == saved)
        #expect(status == (try store.status(of: food, in: month("2026-03"))))
        #expect(status.spent == (try money("11.20")))
        #expect(status.expenseCount == 2)
        #expect(status.remaining == (try money("88.80")))
    }

    static func addingToAnUnknownBudgetOrWithBrokenRulesSavesNothing(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("100")))
        let before = try Snapshot(store)
        let coffee = Expense(name: "Coffee", amount: try money("3.50"), date: try day("2026-03-20"), budgetID: 0)
        expectError(.budgetNotFound("Fod")) { () throws(TallyError) in _ = try store.addExpense(coffee, toBudgetNamed: "Fod") }
        var free = coffee
        free.amount = .zero
        expectError(.amountNotPositive(.zero)) { () throws(TallyError) in _ = try store.addExpense(free, toBudgetNamed: "Food") }
        #expect(try Snapshot(store) == before)
    }

    static func sumsTooLargeFailInsteadOfWrapping(_ stores: Stores) throws {
        let store = try stores.make()
        let budget = try store.addBudget(Budget(name: "Huge", limit: Money.maximumInput))
        // Each total is 10^17 cents; 93 of them exceed Int64.max.
        for index in 0..<93 {
            _ = try store.addExpense(Expense(name: "E\(index)", amount: Money.maximumInput, quantity: Expense.maximumQuantity, date: day("2026-09-09"), budgetID: budget.id ?? 0, tags: ["big"]))
        }
        let september = try month("2026-09")
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.budgetStatuses(for: september) }
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.spendingByDay(in: september.days) }
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.spendingByTag(in: september.days) }
        #expect(try store.expenses(ExpenseQuery(sort: .total, limit: 1)).count == 1)
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.status(of: budget, in: september) }
        // An expense whose month cannot be summed any more is not saved by `tally add`'s method.
        let count = try store.countExpenses(ExpenseQuery())
        let one = Expense(name: "One more", amount: Money(cents: 1), date: try day("2026-09-10"), budgetID: 0)
        expectError(.arithmeticOverflow) { () throws(TallyError) in _ = try store.addExpense(one, toBudgetNamed: "huge") }
        #expect(try store.countExpenses(ExpenseQuery()) == count)

        // Once the sum fits again, the figure is exact again.
        for expense in try store.expenses(ExpenseQuery(limit: 2)) { try store.removeExpense(id: expense.id ?? 0) }
        let status = try store.status(of: budget, in: september)
        #expect(status.spent == Money(cents: 91 * 100_000_000_000_000_000))
        #expect(status.expenseCount == 91)
        #expect(try store.budgetStatuses(for: september) == [status])
    }

    static func oneBudgetsStatusMatchesItsLineAmongAllStatuses(_ stores: Stores) throws {
        let store = try stores.make(clock: TestClock())
        let food = try store.addBudget(Budget(name: "Food", limit: Money(cents: 1_000)))
        let rent = try store.addBudget(Budget(name: "Rent", limit: Money(cents: 50_000)))
        let empty = try store.addBudget(Budget(name: "Empty", limit: Money(cents: 10)))
        for (name, cents, quantity, date, budget) in [
            ("Bread", 250, 2, "2026-01-01", food), ("Milk", 120, 1, "2026-01-31", food), ("Tea", 900, 1, "2026-02-01", food),
            ("January", 50_000, 1, "2026-01-05", rent), ("Late", 700, 1, "2025-12-31", food),
        ] as [(String, Int64, Int64, String, Budget)] {
            _ = try store.addExpense(Expense(
                name: name, amount: Money(cents: cents), quantity: quantity, date: day(date), budgetID: budget.id ?? 0))
        }
        for month in try ["2025-12", "2026-01", "2026-02", "2026-03"].map(month) {
            let all = try store.budgetStatuses(for: month)
            for budget in [food, rent, empty] {
                #expect(try store.status(of: budget, in: month) == all.first { $0.budget.id == budget.id }, "\(month)")
            }
        }
        #expect(try store.status(of: food, in: month("2026-01")).spent == Money(cents: 620))
        #expect(try store.status(ofBudgetNamed: "FOOD", in: month("2026-01")).expenseCount == 2)
        expectError(.budgetNotFound("Fuel")) { () throws(TallyError) in try store.status(ofBudgetNamed: "Fuel", in: month("2026-01")) }
    }
}

// MARK: - Imports

extension StoreContract {
    /// Rows as an import hands them over: validated expenses whose budget is still a name.
    static func importRows() throws -> [(Expense, String)] {
        [
            (Expense(name: "Groceries", amount: try money("45.99"), date: try day("2026-01-03"), budgetID: 0, tags: ["Weekly"]), "food"),
            (Expense(name: "Espresso", amount: try money("1.80"), quantity: 3, date: try day("2026-01-04"), budgetID: 0, tags: ["daily", "coffee"]), "CAFÉ"),
            (Expense(name: "Bread", amount: try money("2.50"), date: try day("2026-01-02"), budgetID: 0, tags: ["daily"]), " Food "),
            (Expense(name: "Cake", amount: try money("4"), date: try day("2026-01-05"), budgetID: 0), "cafe"),
        ]
    }

    static func feed(_ rows: [(Expense, String)], fingerprint: String?) -> (ImportInsert) throws(TallyError) -> String? {
        { (insert: ImportInsert) throws(TallyError) -> String? in
            for (expense, budget) in rows { try insert(expense, budget) }
            return fingerprint
        }
    }

    static func importCreatesBudgetsResolvesNamesAndRemembersTheFile(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let food = try store.addBudget(Budget(name: "Food", limit: money("300")))
        clock.advance(by: 10)
        let request = ImportRequest(
            source: "bank.csv", newBudgets: [Budget(name: "Rent", limit: try money("1200")), Budget(name: "FOOD", limit: try money("1"))],
            missingBudgetLimit: try money("50"))
        let outcome = try store.importExpenses(request, rows: Self.feed(try Self.importRows(), fingerprint: "f1"))

        #expect(outcome == ImportOutcome(importedCount: 4, createdBudgets: ["Rent", "CAFÉ"]))
        let budgets = try store.budgets()
        #expect(budgets.map(\.name) == ["CAFÉ", "Food", "Rent"])
        #expect(budgets.map(\.limit) == [try money("50"), try money("300"), try money("1200")])
        let cafe = try store.budget(named: "cafe")
        #expect(cafe.createdAt == clock().roundedToMilliseconds)
        let expenses = try store.expenses(ExpenseQuery(sort: .date))
        #expect(expenses.map(\.name) == ["Bread", "Groceries", "Espresso", "Cake"])
        #expect(expenses.map(\.budgetID) == [food.id, food.id, cafe.id, cafe.id].compactMap { $0 })
        #expect(expenses.map(\.tags) == [["daily"], ["weekly"], ["coffee", "daily"], []])
        #expect(expenses.allSatisfy { $0.createdAt == clock().roundedToMilliseconds && $0.id != nil })
        #expect(try store.expenses(ExpenseQuery(tag: "daily")).map(\.name) == ["Bread", "Espresso"])
        #expect(try store.importRecord(fingerprint: "f1") == ImportRecord(fingerprint: "f1", importedAt: clock().roundedToMilliseconds, expenseCount: 4))
        #expect(try store.importRecord(fingerprint: "f2") == nil)
    }

    static func aBadRowInTheMiddleRollsTheWholeImportBack(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        _ = try store.addExpense(Expense(name: "Kept", amount: money("1"), date: day("2026-01-01"), budgetID: 1, tags: ["old"]))
        let before = try Snapshot(store)
        var rows = try Self.importRows()
        rows.insert((Expense(name: "  ", amount: try money("1"), date: try day("2026-01-03"), budgetID: 0), "food"), at: 2)
        let request = ImportRequest(source: "bad.csv", newBudgets: [Budget(name: "Rent", limit: try money("1200"))], missingBudgetLimit: try money("50"))
        expectError(.emptyName(.expense)) { () throws(TallyError) in
            try store.importExpenses(request, rows: Self.feed(rows, fingerprint: "bad"))
        }
        // An error of the reader itself, after rows were inserted, rolls back just the same.
        let failure = TallyError.importRow(line: 7, column: "amount", value: "x", reason: "not an amount")
        let goodRows = try Self.importRows()
        expectError(failure) { () throws(TallyError) in
            try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                for (expense, budget) in goodRows { try insert(expense, budget) }
                throw failure
            }
        }
        #expect(try Snapshot(store) == before)
        #expect(try store.importRecord(fingerprint: "bad") == nil)
        #expect(try store.expenses(ExpenseQuery(tag: "daily")).isEmpty)
        let added = try store.addExpense(Expense(name: "Next", amount: money("1"), date: day("2026-01-01"), budgetID: 1))
        #expect(added.id == 2)
    }

    static func unknownBudgetsFailTheImportListingEveryName(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        let before = try Snapshot(store)
        var rows = try Self.importRows()
        rows.append((Expense(name: "Ticket", amount: try money("3"), date: try day("2026-01-06"), budgetID: 0), "Zoo"))
        rows.append((Expense(name: "Ticket", amount: try money("3"), date: try day("2026-01-06"), budgetID: 0), "ZOO"))
        expectError(.unknownBudgets(["CAFÉ", "Zoo"])) { () throws(TallyError) in
            try store.importExpenses(ImportRequest(source: "x.csv"), rows: Self.feed(rows, fingerprint: "f"))
        }
        #expect(try Snapshot(store) == before)
        #expect(try store.importRecord(fingerprint: "f") == nil)
    }

    static func aRepeatedFileIsRefusedUnlessForced(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let request = ImportRequest(source: "bank.csv", missingBudgetLimit: try money("50"))
        let rows = try Self.importRows()
        _ = try store.importExpenses(request, rows: Self.feed(rows, fingerprint: "same"))
        let firstTime = clock().roundedToMilliseconds
        let before = try Snapshot(store)
        clock.advance(by: 3600)
        expectError(.alreadyImported(file: "again.csv", importedAt: firstTime, expenseCount: 4)) { () throws(TallyError) in
            var again = request
            again.source = "again.csv"
            return try store.importExpenses(again, rows: Self.feed(rows, fingerprint: "same"))
        }
        #expect(try Snapshot(store) == before)

        var forced = request
        forced.force = true
        let outcome = try store.importExpenses(forced, rows: Self.feed(Array(rows.prefix(1)), fingerprint: "same"))
        #expect(outcome == ImportOutcome(importedCount: 1, createdBudgets: []))
        #expect(try store.countExpenses(ExpenseQuery()) == 5)
        #expect(try store.importRecord(fingerprint: "same")
            == ImportRecord(fingerprint: "same", importedAt: clock().roundedToMilliseconds, expenseCount: 1))
        // Without a fingerprint nothing is remembered or refused.
        _ = try store.importExpenses(request, rows: Self.feed(rows, fingerprint: nil))
        _ = try store.importExpenses(request, rows: Self.feed(rows, fingerprint: nil))
        #expect(try store.countExpenses(ExpenseQuery()) == 13)
    }

    static func forEachExpenseVisitsWhatExpensesLists(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.importExpenses(ImportRequest(source: "x", missingBudgetLimit: try money("50")), rows: Self.feed(try Self.importRows(), fingerprint: nil))
        let queries = [
            ExpenseQuery(sort: .date), ExpenseQuery(sort: .name, descending: true), ExpenseQuery(budgetID: 2, sort: .date),
            ExpenseQuery(tag: "daily"), ExpenseQuery(sort: .total, limit: 2, offset: 1), ExpenseQuery(days: try month("2026-02").days),
        ]
        for query in queries {
            var visited: [Expense] = []
            try store.forEachExpense(query) { (expense: Expense) throws(TallyError) in visited.append(expense) }
            #expect(visited == (try store.expenses(query)))
        }
        expectError(.invalidTag("a;b")) { () throws(TallyError) in
            try store.forEachExpense(ExpenseQuery()) { (_: Expense) throws(TallyError) in throw .invalidTag("a;b") }
        }
    }

    // MARK: - Bulk insert

    static func bulkInsertIsAllOrNothingAndMatchesOneByOne(_ stores: Stores) throws {
        let clock = TestClock()
        let bulk = try stores.make(clock: clock)
        let single = try stores.make(clock: clock)
        var budgetIDs: [Int64] = []
        for store in [bulk, single] {
            budgetIDs.append(try store.addBudget(Budget(name: "Food", limit: money("100"))).id ?? 0)
        }
        #expect(budgetIDs[0] == budgetIDs[1])
        let id = budgetIDs[0]
        let batch = try [
            Expense(name: " Apples ", amount: money("1.25"), quantity: 4, date: day("2026-02-10"), budgetID: id, tags: ["Fruit", "market"]),
            Expense(name: "Crème brûlée", amount: money("7"), date: day("2026-02-28"), budgetID: id, tags: ["dessert", "fruit"]),
            Expense(name: "Apples", amount: money("2"), date: day("2026-03-01"), budgetID: id),
        ]

        let invalid = try Expense(name: "Free", amount: .zero, date: day("2026-02-11"), budgetID: id)
        let before = try Snapshot(bulk)
        expectError(.amountNotPositive(.zero)) { () throws(TallyError) in
            try bulk.addExpenses([batch[0], invalid, batch[1]])
        }
        expectError(.budgetNotFound("#999")) { () throws(TallyError) in
            try bulk.addExpenses([batch[0], Expense(name: "Lost", amount: money("1"), date: day("2026-02-11"), budgetID: 999), batch[1]])
        }
        #expect(try Snapshot(bulk) == before)
        #expect(try bulk.spendingByTag(in: month("2026-02").days).isEmpty)

        #expect(try bulk.addExpenses(batch) == 3)
        #expect(try bulk.addExpenses([]) == 0)
        for expense in batch { _ = try single.addExpense(expense) }
        #expect(try Snapshot(bulk) == Snapshot(single))
        #expect(try bulk.expenses(ExpenseQuery(sort: .date)).map(\.tags) == [["fruit", "market"], ["dessert", "fruit"], []])
        for text in ["2026-02", "2026-03"] {
            let month = try month(text)
            #expect(try bulk.budgetStatuses(for: month) == single.budgetStatuses(for: month))
            #expect(try bulk.spendingByDay(in: month.days) == single.spendingByDay(in: month.days))
            #expect(try bulk.spendingByTag(in: month.days) == single.spendingByTag(in: month.days))
        }
        #expect(try bulk.expenses(ExpenseQuery(search: "CREME")).map(\.name) == ["Crème brûlée"])
        #expect(try bulk.expenses(ExpenseQuery(tag: "FRUIT")).count == 2)
    }
}

// MARK: - Report aggregates

extension StoreContract {
    /// What `monthSummary` must equal: the three single-figure reads of the same month.
    public static func expectedSummary(_ store: any DataAccess, _ month: Month) throws -> MonthSummary {
        MonthSummary(
            month: month, statuses: try store.budgetStatuses(for: month), spentByDay: try store.spendingByDay(in: month.days),
            spentByTag: try store.spendingByTag(in: month.days))
    }

    /// What `spentByMonth` must equal: each month's statuses, budgets without expenses left out.
    static func expectedSpent(_ store: any DataAccess, _ months: [Month]) throws -> [Month: [Int64: Money]] {
        var spent: [Month: [Int64: Money]] = [:]
        for month in months {
            var byBudget: [Int64: Money] = [:]
            for status in try store.budgetStatuses(for: month) where status.expenseCount > 0 {
                byBudget[try #require(status.budget.id)] = status.spent
            }
            spent[month] = byBudget
        }
        return spent
    }

    static func monthSummaryAndSpentByMonthEqualTheSingleFiguresAcrossMonthBoundaries(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try #require(try store.addBudget(Budget(name: "Food", limit: money("100"))).id)
        let rent = try #require(try store.addBudget(Budget(name: "Rent", limit: money("50"))).id)
        _ = try store.addBudget(Budget(name: "Idle", limit: money("5")))
        let expenses: [(String, String, Int64, String, Int64, [String])] = [
            ("New year's eve", "12.50", 1, "2025-12-31", food, ["party"]),
            ("First", "1", 3, "2026-01-01", food, ["party", "daily"]),
            ("Last of January", "30", 1, "2026-01-31", rent, ["daily"]),
            ("Late", "0.01", 1, "2026-01-31", food, []),
            ("First of February", "5", 2, "2026-02-01", rent, ["Café"]),
            ("Leap", "7", 1, "2028-02-29", food, ["café", "daily"]),
            ("After leap", "9", 1, "2028-03-01", food, []),
        ]
        for (name, amount, quantity, date, budget, tags) in expenses {
            _ = try store.addExpense(Expense(name: name, amount: money(amount), quantity: quantity, date: day(date), budgetID: budget, tags: tags))
        }

        for text in ["2025-12", "2026-01", "2026-02", "2026-03", "2028-02", "2028-03"] {
            let month = try month(text)
            #expect(try store.monthSummary(for: month) == expectedSummary(store, month), "\(text)")
        }
        let january = try store.monthSummary(for: month("2026-01"))
        #expect(january.statuses.map(\.budget.name) == ["Food", "Idle", "Rent"])
        #expect(january.statuses.map(\.spent) == [try money("3.01"), .zero, try money("30")])
        #expect(january.statuses.map(\.expenseCount) == [2, 0, 1])
        #expect(january.spentByDay == [try day("2026-01-01"): try money("3"), try day("2026-01-31"): try money("30.01")])
        #expect(january.spentByTag == ["party": try money("3"), "daily": try money("33")])

        let months = try [month("2025-11"), month("2025-12"), month("2026-01"), month("2026-02"), month("2026-03")]
        let spent = try store.spentByMonth(in: months[0]...months[4])
        #expect(spent == (try expectedSpent(store, months)))
        #expect(spent[months[0]] == [:])
        #expect(spent[months[2]] == [food: try money("3.01"), rent: try money("30")])
        #expect(try store.spentByMonth(in: month("2028-02")...month("2028-02")) == [try month("2028-02"): [food: try money("7")]])
        let leapYear = try (1...12).map { try Month(year: 2028, month: $0) }
        #expect(try store.spentByMonth(in: leapYear[0]...leapYear[11]) == expectedSpent(store, leapYear))
    }

    static func reportAggregatesOfAnEmptyStoreAreEmpty(_ stores: Stores) throws {
        let store = try stores.make()
        let march = try month("2026-03")
        #expect(try store.monthSummary(for: march) == MonthSummary(month: march, statuses: [], spentByDay: [:], spentByTag: [:]))
        #expect(try store.spentByMonth(in: month("2026-01")...march) == [try month("2026-01"): [:], try month("2026-02"): [:], march: [:]])
    }

    static func reportAggregatesTooLargeFailInsteadOfWrapping(_ stores: Stores) throws {
        let store = try stores.make()
        let huge = try store.addBudget(Budget(name: "Huge", limit: Money.maximumInput))
        let other = try store.addBudget(Budget(name: "Other", limit: Money.maximumInput))
        // 47 + 46 totals of 10^17 cents: each budget's sum fits in Int64, the day's and the tag's do not.
        for index in 0..<93 {
            let budget = try #require(index < 47 ? huge.id : other.id)
            _ = try store.addExpense(Expense(name: "E\(index)", amount: Money.maximumInput, quantity: Expense.maximumQuantity, date: day("2026-09-09"), budgetID: budget, tags: ["big"]))
        }
        let september = try month("2026-09")
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.monthSummary(for: september) }
        #expect(try store.spentByMonth(in: september...september)[september]?.count == 2)
        // One budget over its own limit of the sum.
        for index in 0..<93 {
            _ = try store.addExpense(Expense(name: "F\(index)", amount: Money.maximumInput, quantity: Expense.maximumQuantity, date: day("2026-10-10"), budgetID: huge.id ?? 0))
        }
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.spentByMonth(in: september...month("2026-10")) }
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.monthSummary(for: month("2026-10")) }
    }
}
