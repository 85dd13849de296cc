import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The checks themselves, one function each; ``StoreContract/checks`` lists them.
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

    /// Enough rows for a store's bulk path (PostgreSQL sends 100 rows or more by COPY, whose text
    /// format escapes backslashes, tabs and newlines, and arrays their quotes), with names and
    /// tags full of what such formats escape: every field reads back as it went in.
    static func aLargeImportKeepsEveryCharacterOfEveryRow(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        let names = [
            #"back\slash"#, #"quote " and 'single'"#, "{braces} [brackets] (x)", "Crème brûlée ☕️", "日本語の名前", "NULL", #"\N"#,
            #"ends in \"#, "family 👩‍👩‍👧", "a|b|c", #"\t not a tab"#,
        ]
        let tags = [[#"a\b"#], [#"q"uote"#], ["{x}", "nul l"], ["null"], ["été", #"\n"#], [], [#"\"#]]
        var rows: [(Expense, String)] = []
        for index in 0..<250 {
            let expense = Expense(
                name: "\(names[index % names.count]) \(index)", amount: Money(cents: Int64(index + 1)), quantity: Int64(index % 3 + 1),
                date: try day("2026-01-0\(index % 9 + 1)"), budgetID: 0, tags: tags[index % tags.count], by: index % 2 == 0 ? "Zoë \\" : "")
            rows.append((try expense.validated(), "food"))
        }
        let outcome = try store.importExpenses(ImportRequest(source: "big.csv"), rows: Self.feed(rows, fingerprint: nil))
        #expect(outcome.importedCount == 250)
        let stored = try store.expenses(ExpenseQuery()).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        #expect(stored.map(\.name) == rows.map(\.0.name))
        #expect(stored.map(\.tags) == rows.map(\.0.tags))
        #expect(stored.map(\.by) == rows.map(\.0.by))
        #expect(stored.map(\.amount) == rows.map(\.0.amount))
        #expect(stored.map(\.quantity) == rows.map(\.0.quantity))
        #expect(stored.map(\.date) == rows.map(\.0.date))
        #expect(try store.tags() == Set(rows.flatMap(\.0.tags)).sorted())
        #expect(try store.expenses(ExpenseQuery(tag: #"q"uote"#)).count == rows.filter { $0.0.tags.contains(#"q"uote"#) }.count)
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
