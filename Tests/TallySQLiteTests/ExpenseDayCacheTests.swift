import Foundation
import Testing
import TallyCore
import TallyInMemory
import TallyTestSupport
@testable import TallySQLite

/// `expenseDay`, the month report's cache (`Schema.v12ExpenseDays`): kept by its triggers and by
/// the bulk writers that drop them, it must always equal the sums of the expenses, and what is
/// read through it must equal what the expenses themselves answer.
@Suite(.ownThreads) struct ExpenseDayCacheTests {
    private func makeStore() throws -> (SQLiteStore, Budget, Budget) {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        let food = try store.addBudget(Budget(name: "Food", limit: Money(cents: 10_000)))
        let rent = try store.addBudget(Budget(name: "Rent", limit: Money(cents: 90_000)))
        return (store, food, rent)
    }

    /// Seeded expenses over two months, with few distinct totals so that many tie.
    private func expenses(_ count: Int, budgets: [Budget], seed: UInt64) throws -> [Expense] {
        var generator = SeededGenerator(seed: seed)
        let days = Array(try Month(parsing: "2026-03").days) + Array(try Month(parsing: "2026-04").days)
        return (0..<count).map { _ in
            Expense(
                name: "E", amount: Money(cents: [100, 250, 1_000, 2_500].randomElement(using: &generator) ?? 100),
                quantity: Int64.random(in: 1...3, using: &generator), date: days.randomElement(using: &generator) ?? days[0],
                budgetID: budgets.randomElement(using: &generator)?.id ?? 0,
                tags: [[], ["daily"], ["daily", "market"]].randomElement(using: &generator) ?? [],
                by: ["", "Anna", "Zoë"].randomElement(using: &generator) ?? "")
        }
    }

    /// The largest expenses of `days` (and one budget) as the rule orders them: by total, then
    /// by id, both descending, from every expense read plainly.
    private func expectLargestAgree(_ store: SQLiteStore, _ budgets: [Budget], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for text in ["2026-03", "2026-04", "2026-05"] {
            let days = try Month(parsing: text).days
            for budgetID in [nil] + budgets.map(\.id) {
                let all = try store.expenses(ExpenseQuery(budgetID: budgetID, days: days))
                let ordered = try all.sorted { a, b in
                    let (x, y) = (try a.total(), try b.total())
                    return x != y ? x > y : (a.id ?? 0) > (b.id ?? 0)
                }
                for limit in [1, 3, 10, 500] {
                    let query = ExpenseQuery(budgetID: budgetID, days: days, sort: .total, descending: true, limit: limit)
                    #expect(try store.expenses(query) == Array(ordered.prefix(limit)), "\(text) budget \(budgetID ?? 0) limit \(limit)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// An import whose names are all distinct (a bank's reference numbers) has a name group a
    /// row: past 50,000 every bulk writer saves the caches in parts (the import, its undo and
    /// redo, removing a budget with its expenses), and every cache still equals the rule.
    @Test func bulkWritesOfManyDistinctNamesSaveTheCachesInPartsAndKeepThem() throws {
        let (store, food, rent) = try makeStore()
        var imported = try expenses(50_100, budgets: [food, rent], seed: 3)
        for index in imported.indices { imported[index].name = "Payee \(index)" }
        // A few splits and refunds, whose rows are counted after their part's statement.
        for index in stride(from: 7, to: imported.count, by: 997) {
            let lines = [ExpenseLine(budgetID: try #require(food.id), share: .percent(6_000)), ExpenseLine(budgetID: try #require(rent.id), share: .rest)]
            imported[index].lines = try ExpenseLines.allocate(lines, total: try imported[index].total())
        }
        for index in stride(from: 11, to: imported.count, by: 1_009) { imported[index].isRefund = true }
        _ = try store.importExpenses(ImportRequest(source: "bank.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
            for expense in imported { try insert(expense, expense.budgetID == food.id ? "food" : "rent") }
            return "many"
        }
        #expect(try store.countExpenses(ExpenseQuery()) == 50_100)
        #expect(try store.cacheMismatches() == [])

        let undo = try store.undo(try #require(try store.changeSets(since: nil, limit: 1).first).changeSet.id, dryRun: false)
        #expect(try store.countExpenses(ExpenseQuery()) == 0)
        #expect(try store.cacheMismatches() == [])
        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try store.countExpenses(ExpenseQuery()) == 50_100)
        #expect(try store.cacheMismatches() == [])
    }

    /// Parts of a few groups each, so that every part's rows are deleted before its sums are
    /// taken and a group's largest and smallest spelling are looked up among the rows that stay.
    @Test func expensesDeletedInSmallPartsLeaveTheCachesEqualToTheRule() throws {
        let (store, food, rent) = try makeStore()
        for (index, var expense) in try expenses(300, budgets: [food, rent], seed: 5).enumerated() {
            expense.name = ["Payee \(index % 40)", "payee \(index % 40)", "Shop"][index % 3]
            if index % 17 == 0 {
                let lines = [ExpenseLine(budgetID: try #require(food.id), share: .percent(2_500)), ExpenseLine(budgetID: try #require(rent.id), share: .rest)]
                expense.lines = try ExpenseLines.allocate(lines, total: try expense.total())
            }
            expense.isRefund = index % 23 == 0 && expense.lines.isEmpty
            _ = try store.addExpense(expense)
        }
        try store.dbWriter.write { db in
            try ExpenseCaches.delete(expensesWhere: "id BETWEEN ?1 AND ?2 AND id % 3 <> 0", bind: { $0.bind(1, Int64(20)); $0.bind(2, Int64(260)) }, groupLimit: 7, db)
        }
        #expect(try store.countExpenses(ExpenseQuery()) == 300 - 161)
        #expect(try store.cacheMismatches() == [])
        try expectLargestAgree(store, [food, rent])
    }

    @Test func undoAndRedoOfAnImportKeepTheCache() throws {
        let (store, food, rent) = try makeStore()
        for expense in try expenses(40, budgets: [food, rent], seed: 1) { _ = try store.addExpense(expense) }
        let imported = try expenses(400, budgets: [food, rent], seed: 2)
        _ = try store.importExpenses(ImportRequest(source: "bank.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
            for expense in imported { try insert(expense, expense.budgetID == food.id ? "food" : "rent") }
            return "bank"
        }
        #expect(try store.cacheMismatches() == [])
        try expectLargestAgree(store, [food, rent])
        let before = try store.monthSummary(for: Month(parsing: "2026-03"))

        let history = try store.changeSets(since: nil, limit: 1)
        let undo = try store.undo(try #require(history.first).changeSet.id, dryRun: false)
        #expect(undo.undo.content.removedExpenses?.count == 400, "undone in bulk")
        #expect(try store.cacheMismatches() == [])
        try expectLargestAgree(store, [food, rent])

        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try store.cacheMismatches() == [])
        #expect(try store.monthSummary(for: Month(parsing: "2026-03")) == before)
        try expectLargestAgree(store, [food, rent])
    }

    @Test func editsAndRemovalsOfTheLargestKeepTheCache() throws {
        let (store, food, rent) = try makeStore()
        var added: [Expense] = []
        for expense in try expenses(120, budgets: [food, rent], seed: 3) { added.append(try store.addExpense(expense)) }
        // Largest first, so each removal takes its group's largest: its bound stays, and no reader may trust it.
        let byTotal = try added.sorted { try $0.total() > $1.total() }
        for expense in byTotal.prefix(30) { try store.removeExpense(id: expense.id ?? 0) }
        for var expense in byTotal.dropFirst(30).prefix(30) {
            expense.tags = expense.tags.isEmpty ? ["moved"] : []
            expense.by = expense.by == "Anna" ? "" : "Anna"
            expense.quantity += 1
            _ = try store.updateExpense(expense)
        }
        #expect(try store.cacheMismatches() == [])
        try expectLargestAgree(store, [food, rent])
        #expect(try store.removeBudget(named: "Food", includingExpenses: true) > 0)
        #expect(try store.cacheMismatches() == [])
        try expectLargestAgree(store, [rent])
    }

    /// Splits and refunds through every kind of write (add, split, unsplit, an edit of a split's
    /// amount, removal, undo and redo): each group's largest stays at least the whole total of
    /// every expense with a portion in it, and the largest read through the bound is the plain
    /// sort's, which the bound answers without the fallback.
    @Test func splitsAndRefundsKeepTheBoundThroughEveryKindOfWrite() throws {
        let (store, food, rent) = try makeStore()
        let fun = try store.addBudget(Budget(name: "Fun", limit: Money(cents: 5_000)))
        let budgets = [food, rent, fun]
        var generator = SeededGenerator(seed: 5)
        var ids: [Int64] = []
        for expense in try expenses(150, budgets: budgets, seed: 6) { ids.append(try store.addExpense(expense).id ?? 0) }
        func lines() -> [NamedLine] {
            let names = ["Food", "Rent", "Fun"].shuffled(using: &generator)
            return [
                NamedLine(budget: names[0], share: .percent(Int64(1 + generator.next(below: 5_000))), tags: generator.next(below: 2) == 0 ? ["split"] : []),
                NamedLine(budget: names[1], share: .rest, name: generator.next(below: 2) == 0 ? "Part" : ""),
            ]
        }
        for step in 0..<40 {
            let id = ids[generator.next(below: ids.count)]
            let day = try Day(year: 2026, month: 3 + generator.next(below: 2), day: 1 + generator.next(below: 28))
            let receipt = Expense(name: "Receipt", amount: Money(cents: Int64(1_000 + generator.next(below: 9_000))), date: day, budgetID: 0, by: "Anna")
            switch generator.next(below: 7) {
            case 0: ids.append(try store.addSplitExpense(receipt, lines: lines()).expense.id ?? 0)
            case 1: ids.append(try store.addRefund(receipt, toBudgetNamed: "Fun").expense.id ?? 0)
            case 2: _ = try? store.splitExpense(id: id, lines: lines())
            case 3: _ = try? store.unsplitExpense(id: id, budgetNamed: "Rent")
            case 4:
                var expense = try store.expense(id: id)
                expense.amount = Money(cents: expense.amount.cents * 3)
                if !expense.lines.isEmpty { expense.lines = try ExpenseLines.reallocated(expense.lines, toTotal: try expense.total()) }
                _ = try store.updateExpense(expense)
            case 5:
                try store.removeExpense(id: id)
                ids.removeAll { $0 == id }
            default:
                let undone = try store.undo(nil, dryRun: false)
                if generator.next(below: 2) == 0 { _ = try store.undo(undone.undo.id, dryRun: false) }
                ids = try store.expenses(ExpenseQuery()).compactMap(\.id)
            }
            #expect(try store.cacheMismatches() == [], "step \(step)")
            try expectLargestAgree(store, budgets)
        }
        let march = try Month(parsing: "2026-03").days
        #expect(try store.expenses(ExpenseQuery(days: march)).contains { !$0.lines.isEmpty || $0.isRefund })
        // Removals of a group's largest may leave bounds above what is left, which then decline.
        let bounded = try ([nil] + budgets.map(\.id)).filter { budgetID in
            try store.read { db in try SQLiteStore.largestExpenseIDs(in: march, budgetID: budgetID, limit: 3, db) } != nil
        }
        #expect(bounded.count >= 3, "\(bounded)")
    }

    /// A group that loses its largest looks up the next among the day's splits too: here the
    /// next is a split's second line, whose row lies in another budget's group.
    @Test func removingTheLargestFindsTheNextAmongTheDaysSplits() throws {
        let (store, food, rent) = try makeStore()
        let day = try Day(parsing: "2026-03-10")
        _ = try store.addExpense(Expense(name: "Bread", amount: Money(cents: 5_000), date: day, budgetID: food.id ?? 0, by: "Anna"))
        let lines = [NamedLine(budget: "Rent", share: .percent(5_000)), NamedLine(budget: "Food", share: .rest)]
        let next = try store.addSplitExpense(Expense(name: "A", amount: Money(cents: 9_000), date: day, budgetID: 0, by: "Anna"), lines: lines)
        let largest = try store.addSplitExpense(Expense(name: "B", amount: Money(cents: 9_500), date: day, budgetID: 0, by: "Anna"), lines: lines)
        try store.removeExpense(id: largest.expense.id ?? 0)
        #expect(try store.cacheMismatches() == [])
        try expectLargestAgree(store, [food, rent])
        let top = try store.expenses(ExpenseQuery(budgetID: food.id, days: try Month(parsing: "2026-03").days, sort: .total, descending: true, limit: 1))
        #expect(top.map(\.id) == [next.expense.id])
    }

    /// A cached sum that is not an integer (how an overflow is stored) sends every reader back to
    /// the expenses: the wrong figure planted here must never show.
    @Test func aCachedSumThatIsNotAnIntegerIsNotTrusted() throws {
        let (store, food, rent) = try makeStore()
        for expense in try expenses(60, budgets: [food, rent], seed: 4) { _ = try store.addExpense(expense) }
        let march = try Month(parsing: "2026-03")
        let summary = try store.monthSummary(for: march)
        let people = try store.spendingByPerson(in: march.days)
        let largest = try store.expenses(ExpenseQuery(days: march.days, sort: .total, descending: true, limit: 3))
        try store.executeUnchecked("UPDATE expenseDay SET spentCents = 1.5 WHERE date = (SELECT min(date) FROM expenseDay)")
        #expect(try store.cacheMismatches() != [])
        #expect(try store.monthSummary(for: march) == summary)
        #expect(try store.spendingByPerson(in: march.days) == people)
        #expect(try store.expenses(ExpenseQuery(days: march.days, sort: .total, descending: true, limit: 3)) == largest)
    }
}

/// `tally add`'s path (`addExpense(_:toBudgetNamed:)`) writes both caches with one upsert each
/// (`ExpenseCaches.added`): they must come out as the sums of the expenses, and no trigger is
/// left in the schema to write them a second time.
@Suite(.ownThreads) struct AddByNameCacheTests {
    @Test func addsByNameKeepBothCachesWithNoTrigger() throws {
        let clock = TestClock()
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path, clock: { clock() })
        let memory = InMemoryStore(clock: { clock() })
        for target in [store as any DataAccess, memory] {
            _ = try target.addBudget(Budget(name: "Food", limit: Money(cents: 10_000)))
            _ = try target.addBudget(Budget(name: "Rent", limit: Money(cents: 90_000), rollover: .both))
        }
        var settings = try store.settings()
        settings.calendar = try PeriodCalendar(monthStart: 15)
        _ = try store.updateSettings(settings)
        _ = try memory.updateSettings(settings)
        var generator = SeededGenerator(seed: 12)
        let days = Array(try Month(parsing: "2026-03").days) + Array(try Month(parsing: "2026-04").days)
        for _ in 0..<150 {
            let expense = Expense(
                name: "E", amount: Money(cents: Int64.random(in: 1...5_000, using: &generator)), quantity: Int64.random(in: 1...3, using: &generator),
                date: days.randomElement(using: &generator) ?? days[0], budgetID: 0,
                tags: [[], ["daily"], ["daily", "market"]].randomElement(using: &generator) ?? [],
                by: ["", "Anna", "Zoë", "Zoe\u{308}"].randomElement(using: &generator) ?? "")
            let name = Bool.random(using: &generator) ? "food" : "RENT"
            let added = try store.addExpense(expense, toBudgetNamed: name)
            #expect(try added == memory.addExpense(expense, toBudgetNamed: name))
            #expect(try store.settings() == settings)
        }
        #expect(try store.cacheMismatches() == [])
        for text in ["2026-02", "2026-03", "2026-04"] {
            let month = try Month(parsing: text)
            #expect(try store.monthSummary(for: month) == memory.monthSummary(for: month))
            #expect(try store.budgetStatuses(for: month) == memory.budgetStatuses(for: month))
            #expect(try store.spendingByPerson(in: month.days) == memory.spendingByPerson(in: month.days))
        }
        // `ExpenseCaches` is the caches' one writer: the schema keeps none of its own.
        #expect(try store.pragma("schema_version") != nil)
        #expect(try store.triggerNames() == [])
        // Settings written behind the store's back are what the next read sees.
        _ = try store.addExpense(Expense(name: "E", amount: Money(cents: 1), date: days[0], budgetID: 0), toBudgetNamed: "Food")
        settings.currency = try Currency(code: "EUR")
        try store.executeUnchecked("UPDATE setting SET currency = 'EUR' WHERE id = 1")
        _ = try store.budgets()
        #expect(try store.settings().currency == settings.currency)
    }
}
