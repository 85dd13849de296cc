import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The checks themselves, one function each; ``StoreContract/checks`` lists them.
extension StoreContract {
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

// MARK: - Report aggregates

extension StoreContract {
    /// What `monthSummary` must equal: the four single-figure reads of the same month.
    public static func expectedSummary(_ store: any DataAccess, _ month: Month) throws -> MonthSummary {
        let days = try store.settings().calendar.days(of: month)
        return MonthSummary(
            month: month, days: days, statuses: try store.budgetStatuses(for: month), spentByDay: try store.spendingByDay(in: days),
            spentByTag: try store.spendingByTag(in: days), spentByPerson: try store.spendingByPerson(in: days))
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
        #expect(try store.monthSummary(for: march) == MonthSummary(month: march, days: march.days, statuses: [], spentByDay: [:], spentByTag: [:], spentByPerson: []))
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
