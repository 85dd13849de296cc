import Foundation
import Testing
import TallyCore
import TallySQLite

/// What every `DataAccess` must do, proved against both stores.
@Suite struct StoreContractTests {
    // MARK: - Budgets

    @Test(arguments: StoreKind.allCases)
    func budgetsAreAddedFoundListedAndUpdated(kind: StoreKind) throws {
        let clock = TestClock()
        let store = try kind.make(clock: clock)
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

    @Test(arguments: StoreKind.allCases)
    func budgetsAreOrderedByNameKeyBytesThenID(kind: StoreKind) throws {
        let store = try kind.make()
        for name in ["b", "Äb", "a", "Z", "éclair", "10", "9", "a b"] {
            _ = try store.addBudget(Budget(name: name, limit: Money(cents: 100)))
        }
        #expect(try store.budgets().map(\.name) == ["10", "9", "a", "a b", "Äb", "b", "éclair", "Z"].sorted {
            Array(NameKey.make($0).utf8).lexicographicallyPrecedes(Array(NameKey.make($1).utf8))
        })
    }

    @Test(arguments: StoreKind.allCases)
    func brokenBudgetRulesAreRefusedAndChangeNothing(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func namesMadeOfManyScalarsFitTheirCharacterLimit(kind: StoreKind) throws {
        let store = try kind.make()
        let family = String(repeating: "👨‍👩‍👧", count: 100)
        let accents = String(repeating: "e\u{301}", count: 100)
        #expect(try store.addBudget(Budget(name: family, limit: Money(cents: 1))).name == family)
        #expect(try store.addBudget(Budget(name: "Z" + accents.dropFirst(2), limit: Money(cents: 1))).id != nil)
        let budget = try store.budget(named: family)
        let name = String(repeating: "🇫🇷", count: 200)
        #expect(try store.addExpense(Expense(name: name, amount: Money(cents: 1), date: day("2026-01-01"), budgetID: budget.id ?? 0)).name == name)
    }

    @Test(arguments: StoreKind.allCases)
    func namesClashIgnoringCaseAndDiacriticsOnly(kind: StoreKind) throws {
        let store = try kind.make()
        _ = try store.addBudget(Budget(name: "Café", limit: money("10")))
        let before = try Snapshot(store)
        expectError(.duplicateBudget("cafe")) { () throws(TallyError) in try store.addBudget(Budget(name: "cafe", limit: money("1"))) }
        expectError(.duplicateBudget("CAFE")) { () throws(TallyError) in try store.addBudget(Budget(name: " CAFE ", limit: money("1"))) }
        #expect(try Snapshot(store) == before)

        _ = try store.addBudget(Budget(name: "Food", limit: money("10")))
        _ = try store.addBudget(Budget(name: "Fast Food", limit: money("10")))
        #expect(try store.budgets().count == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func renamingOntoAnotherBudgetIsRefusedButOwnCaseIsNot(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func removingABudgetCascadesOnlyWhenAsked(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func expensesAreAddedReadUpdatedAndRemoved(kind: StoreKind) throws {
        let clock = TestClock()
        let store = try kind.make(clock: clock)
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

    @Test(arguments: StoreKind.allCases)
    func brokenExpenseRulesAreRefusedAndChangeNothing(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func missingRecordsAreReportedByName(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func searchIgnoresCaseAndDiacritics(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases, [false, true])
    func everySortIsStableWithTiesByIDInTheSameDirection(kind: StoreKind, descending: Bool) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func pagesCoverTheListExactlyOnce(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func tagsAreNormalizedSharedAndFilterable(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func filtersCombine(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func monthBoundariesFollowTheCivilDay(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func overBudgetAndEmptyMonths(kind: StoreKind) throws {
        let store = try kind.make()
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

    @Test(arguments: StoreKind.allCases)
    func sumsTooLargeFailInsteadOfWrapping(kind: StoreKind) throws {
        let store = try kind.make()
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
    }

    // MARK: - Both stores agree

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
}
