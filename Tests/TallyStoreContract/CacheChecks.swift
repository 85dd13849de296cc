import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Every figure a store keeps or sums is a cache of the Core rules

extension StoreContract {
    /// A store may answer its figures however it likes: `SQLiteStore` sums in SQL and reads the
    /// `budgetMonth` and `expenseDay` caches that `ExpenseCaches` keeps on every write (adds, batch
    /// adds, imports, edits, removals, cascading removals). All of that is only a cache: on a random ledger built through every kind of
    /// write, each figure must equal what the Core rules (`Budget.spent(in:of:)`,
    /// `BudgetStatus`, `Expense.total()`) compute from the plain expenses the store lists.
    static func aggregatesAndCachedFiguresAreTheCoreRules(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        var random = SeededGenerator(seed: 20_260_301)
        var log = FailureLog()
        // Eight months, across a year's end and a 28-day February.
        let months = try (0..<8).map { try month("2025-11").adding(months: $0) }
        // Each budget with the spellings a user might type for it.
        let spellings = [
            "Food": ["Food", "food", " FOOD "], "Café": ["Café", "cafe", "CAFE\u{301}"], "Rent": ["Rent", "rent"],
            "Fun": ["Fun", "FUN"], "Transport": ["Transport", "transport "],
        ]
        // Names in several spellings: a why-over group shows the smallest, which removals move.
        let names = ["Bread", "Crème brûlée", "CREME BRULEE", "Ticket", "Pizza", "pizza", "PIZZA", "Taxi", "Book"]
        let tags = ["work", "Family", "trip", "gift", "Café", "cafe\u{301}", " daily "]

        func pick<T>(_ values: [T]) -> T { values[random.next(below: values.count)] }
        func randomLimit() -> Money { Money(cents: Int64(2_000 + random.next(below: 200_000))) }
        /// Days of every month, one in three on the month's first or last day.
        func randomDay() -> Day {
            let month = pick(months)
            switch random.next(below: 6) {
            case 0: return month.firstDay
            case 1: return month.lastDay
            default: return (try? Day(year: month.year, month: month.month, day: 1 + random.next(below: month.numberOfDays))) ?? month.firstDay
            }
        }
        func randomExpense(budgetID: Int64) -> Expense {
            Expense(
                name: pick(names), amount: Money(cents: Int64(1 + random.next(below: 20_000))),
                quantity: random.next(below: 4) == 0 ? Int64(2 + random.next(below: 5)) : 1, date: randomDay(),
                budgetID: budgetID, tags: (0..<random.next(below: 4)).map { _ in pick(tags) })
        }
        func randomBudget() throws -> Budget { pick(try store.budgets()) }
        /// `pick(store.expenses(ExpenseQuery()))` with the same draw, reading one row of the
        /// list instead of all of it (some 300 rows, decoded through a debug postgres-nio).
        func pickExpense() throws -> Expense? {
            let count = try store.countExpenses(ExpenseQuery())
            guard count > 0 else { return nil }
            return try store.expenses(ExpenseQuery(limit: 1, offset: random.next(below: count))).first
        }
        func randomSpelling(of budget: Budget) -> String {
            pick(spellings[budget.name] ?? [budget.name.uppercased(), budget.name.lowercased()])
        }

        for name in spellings.keys.sorted() { _ = try store.addBudget(Budget(name: name, limit: randomLimit())) }

        // What the Core rules say of a month, from the store's plain expenses.
        func coreStatus(of budget: Budget, in month: Month, _ expenses: [Expense]) throws -> BudgetStatus {
            try budget.status(viewing: month, in: store.settings().calendar, of: expenses)
        }
        func describe(_ statuses: [BudgetStatus]) -> String {
            statuses.map { "\($0.budget.name) \($0.spent)/\($0.expenseCount) left \($0.remaining)" }.joined(separator: ", ")
        }

        /// Every figure of every month, from the store and from the Core rules.
        func compareWithCoreRules(_ checkpoint: String) throws {
            let expenses = try store.expenses(ExpenseQuery())
            let budgets = try store.budgets()
            let checked = (-1...8).map { months[0].adding(months: $0) }
            var spent: [Month: [Int64: Money]] = [:]
            for month in checked {
                let statuses = try budgets.map { try coreStatus(of: $0, in: month, expenses) }
                var byDay: [Day: Money] = [:]
                var byTag: [String: Money] = [:]
                for expense in expenses where month.days.contains(expense.date) {
                    let total = try expense.total()
                    byDay[expense.date] = try (byDay[expense.date] ?? .zero) + total
                    for tag in expense.tags { byTag[tag] = try (byTag[tag] ?? .zero) + total }
                }
                var byBudget: [Int64: Money] = [:]
                for status in statuses where status.expenseCount > 0 { byBudget[status.budget.id ?? 0] = status.spent }
                spent[month] = byBudget

                let stored = try store.budgetStatuses(for: month)
                log.check(stored == statuses, "\(checkpoint), budgetStatuses(for: \(month)): \(describe(stored)); Core: \(describe(statuses))")
                for status in statuses {
                    let one = try store.status(of: status.budget, in: month)
                    log.check(one == status, "\(checkpoint), status(of: \(status.budget.name), in: \(month)): \(describe([one])); Core: \(describe([status]))")
                }
                let storedByDay = try store.spendingByDay(in: month.days)
                log.check(storedByDay == byDay, "\(checkpoint), spendingByDay(in: \(month)): \(storedByDay.sorted { $0.key < $1.key }); Core: \(byDay.sorted { $0.key < $1.key })")
                let storedByTag = try store.spendingByTag(in: month.days)
                log.check(storedByTag == byTag, "\(checkpoint), spendingByTag(in: \(month)): \(storedByTag.sorted { $0.key < $1.key }); Core: \(byTag.sorted { $0.key < $1.key })")
                let summary = try store.monthSummary(for: month)
                let expected = MonthSummary(
                    month: month, days: month.days, statuses: statuses, spentByDay: byDay, spentByTag: byTag,
                    spentByPerson: try Spending.byPerson(in: month.days, of: expenses))
                log.check(summary == expected, "\(checkpoint), monthSummary(for: \(month)): \(describe(summary.statuses)), \(summary.spentByTag.sorted { $0.key < $1.key }); Core: \(describe(statuses)), \(byTag.sorted { $0.key < $1.key })")
            }
            let storedSpent = try store.spentByMonth(in: checked[0]...checked[checked.count - 1])
            for month in checked {
                log.check(storedSpent[month] == spent[month], "\(checkpoint), spentByMonth[\(month)]: \(String(describing: storedSpent[month])); Core: \(String(describing: spent[month]))")
            }
            log.check(storedSpent.count == checked.count, "\(checkpoint), spentByMonth has \(storedSpent.count) months, not \(checked.count)")
            // Why over: spending per budget, name key and tag set.
            let span = DayInterval(first: checked[0].firstDay, last: checked[checked.count - 1].lastDay)
            let calendar = try store.settings().calendar
            let flagged = Set(budgets.compactMap(\.id).prefix(3))
            var groupsCore: [SpendingGroup] = []
            for months in [checked[0]...checked[checked.count - 1], checked[3]...checked[3], checked[0]...checked[2]] {
                let groupsStored = try store.spendingGroups(ofBudgets: flagged, in: months)
                groupsCore = try SpendingGroup.groups(ofBudgets: flagged, in: calendar.days(of: months), of: expenses)
                log.check(Set(groupsStored) == Set(groupsCore) && groupsStored.count == groupsCore.count, "\(checkpoint), spendingGroups(\(months)): \(groupsStored.sorted { "\($0)" < "\($1)" }); Core: \(groupsCore.sorted { "\($0)" < "\($1)" })")
            }
            if checkpoint == "at the end" { log.check(groupsCore.contains { $0.count > 1 }, "no group of several expenses to compare") }
            // Reports over time narrowed to a tag or by tag: spending per budget, day and tag set.
            let taggedStored = try store.taggedSpending(in: span)
            let taggedCore = try TaggedSpending.grouping(expenses, in: span)
            log.check(Set(taggedStored) == Set(taggedCore) && taggedStored.count == taggedCore.count, "\(checkpoint), taggedSpending: \(taggedStored.count) groups; Core: \(taggedCore.count)")
            log.check(taggedCore.contains { $0.tags.count > 1 }, "\(checkpoint), no tag set of several tags to compare")
            // `tally prices`: unit prices per day of names matched ignoring case and diacritics.
            for search in ["pi", "CREME", "crème BRÛLÉE", "t", "Bread", "nothing like it"] {
                // The whole ledger (SQLite reads the table) and one month (it reads the date index).
                for days in [span, checked[3].days] {
                    let stored = try store.unitPrices(matching: search, in: days)
                    let core = try UnitPriceFigures.byDay(matching: search, in: days, of: expenses)
                    log.check(stored == core, "\(checkpoint), unitPrices(matching: \(search), in: \(days)): \(stored.count) days; Core: \(core.count) days")
                }
                let core = try UnitPriceFigures.byDay(matching: search, in: span, of: expenses)
                if search == "pi" { log.check(!core.isEmpty, "\(checkpoint), no pizza to compare") }
            }
        }

        var moves = 0
        var namedAdds = 0
        var bulkAdds = 0
        var imports = 0
        for step in 0..<400 {
            clock.advance(by: 1.5)
            switch random.next(below: 100) {
            case 0..<35:
                _ = try store.addExpense(randomExpense(budgetID: try randomBudget().id ?? 0))
            case 35..<47:
                // `tally add`: the status it answers must be the Core rule's, right after the write.
                let budget = try randomBudget()
                let (saved, status) = try store.addExpense(randomExpense(budgetID: 0), toBudgetNamed: randomSpelling(of: budget))
                let month = saved.date.monthValue
                let expected = try coreStatus(of: budget, in: month, store.expenses(ExpenseQuery()))
                log.check(status == expected, "step \(step), addExpense(toBudgetNamed: \(budget.name)) in \(month): \(describe([status])); Core: \(describe([expected]))")
                namedAdds += 1
            case 47..<55:
                var batch: [Expense] = []
                for _ in 0..<(1 + random.next(below: 12)) { batch.append(randomExpense(budgetID: try randomBudget().id ?? 0)) }
                if random.next(below: 5) == 0 {
                    // A broken expense at the end: the batch's sums must roll back with its rows.
                    var broken = randomExpense(budgetID: try randomBudget().id ?? 0)
                    broken.amount = .zero
                    expectError(.amountNotPositive(.zero)) { () throws(TallyError) in try store.addExpenses(batch + [broken]) }
                } else {
                    #expect(try store.addExpenses(batch) == batch.count)
                    bulkAdds += 1
                }
            case 55..<61:
                var rows: [(Expense, String)] = []
                for _ in 0..<(1 + random.next(below: 15)) {
                    let budgetName = random.next(below: 10) == 0 ? "Gifts" : randomSpelling(of: try randomBudget())
                    rows.append((randomExpense(budgetID: 0), budgetName))
                }
                let request = ImportRequest(source: "random-\(step).csv", missingBudgetLimit: randomLimit())
                let fingerprint = random.next(below: 2) == 0 ? "random-\(step)" : nil
                if random.next(below: 5) == 0 {
                    // The reader fails after every row went in: the import's sums roll back with them.
                    let failure = TallyError.importRow(line: rows.count + 1, column: "amount", value: "x", reason: "not an amount")
                    expectError(failure) { () throws(TallyError) in
                        try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                            for (expense, budget) in rows { try insert(expense, budget) }
                            throw failure
                        }
                    }
                } else {
                    let outcome = try store.importExpenses(request, rows: Self.feed(rows, fingerprint: fingerprint))
                    #expect(outcome.importedCount == rows.count)
                    imports += 1
                }
            case 61..<86:
                // Moves an expense to another budget, month or amount, or several at once.
                guard var expense = try pickExpense() else { break }
                let fresh = randomExpense(budgetID: try randomBudget().id ?? 0)
                switch random.next(below: 4) {
                case 0: expense.budgetID = fresh.budgetID
                case 1: expense.date = fresh.date
                case 2: (expense.amount, expense.quantity, expense.tags) = (fresh.amount, fresh.quantity, fresh.tags)
                default: (expense.budgetID, expense.date, expense.amount) = (fresh.budgetID, fresh.date, fresh.amount)
                }
                _ = try store.updateExpense(expense)
                moves += 1
            case 86..<96:
                guard let expense = try pickExpense() else { break }
                try store.removeExpense(id: expense.id ?? 0)
            case 96..<99:
                var budget = try randomBudget()
                budget.limit = randomLimit()
                _ = try store.updateBudget(budget)
            default:
                // A name nobody has: nothing is saved, no total moves.
                expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in
                    _ = try store.addExpense(randomExpense(budgetID: 0), toBudgetNamed: "Nowhere")
                }
            }
            if step == 150 {
                try compareWithCoreRules("after step 150")
                // A cascading removal deletes a budget's expenses in bulk; the same name comes back empty.
                #expect(try store.removeBudget(named: "transport", includingExpenses: true) > 0)
                _ = try store.addBudget(Budget(name: "Transport", limit: randomLimit()))
            }
        }
        try compareWithCoreRules("at the end")
        log.report()

        // The ledger is worth comparing: a few hundred expenses, every kind of write many times.
        let count = try store.countExpenses(ExpenseQuery())
        #expect(count >= 200, "only \(count) expenses")
        #expect(moves >= 50 && namedAdds >= 20 && bulkAdds >= 10 && imports >= 10, "moves \(moves), named \(namedAdds), bulk \(bulkAdds), imports \(imports)")
    }
}
