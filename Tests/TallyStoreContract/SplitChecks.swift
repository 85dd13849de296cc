import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Split expenses and refunds: each line in its own budget, exactly once

extension StoreContract {
    /// On a random ledger built through every kind of write of split expenses and refunds (add
    /// split, split, unsplit, edit of a split's amount, refund, removal, undo and redo), every
    /// figure a store answers from its caches (statuses, spent by month, the day groups, why
    /// over's groups) equals Core's rules over the expenses it lists, and every budget's figures
    /// add up to the ledger's total exactly.
    static func splitExpensesAndRefundsCountEachLineOnce(_ stores: Stores) throws {
        let store = try stores.make()
        var random = SeededGenerator(seed: 30)
        let months = try (0..<3).map { try month("2026-01").adding(months: $0) }
        let names = ["Costco", "Market", "Kettle", "Pharmacy"]
        let tags = ["bulk", "food", "home"]
        let budgetNames = ["Groceries", "Household", "Health", "Fun"]
        for name in budgetNames { _ = try store.addBudget(Budget(name: name, limit: Money(cents: 50_000))) }

        func pick<T>(_ values: [T]) -> T { values[random.next(below: values.count)] }
        func randomDay() -> Day {
            let month = pick(months)
            return (try? Day(year: month.year, month: month.month, day: 1 + random.next(below: 28))) ?? month.firstDay
        }
        func randomExpense() -> Expense {
            Expense(
                name: pick(names), amount: Money(cents: Int64(100 + random.next(below: 20_000))),
                quantity: random.next(below: 4) == 0 ? 2 : 1, date: randomDay(), budgetID: 0,
                tags: random.next(below: 2) == 0 ? [pick(tags)] : [])
        }
        func randomLines() -> [NamedLine] {
            let count = 2 + random.next(below: 3)
            var chosen = budgetNames.shuffled(using: &random).prefix(count).map { $0 }
            if random.next(below: 4) == 0 { chosen[1] = chosen[0] }
            var lines: [NamedLine] = []
            for (index, budget) in chosen.enumerated() {
                let name = random.next(below: 3) == 0 ? pick(names) : ""
                let lineTags = random.next(below: 3) == 0 ? [pick(tags)] : []
                let share: LineShare =
                    index == count - 1 ? .rest : random.next(below: 2) == 0 ? .percent(Int64(1 + random.next(below: 2_000))) : .amount(Money(cents: 1))
                lines.append(NamedLine(budget: budget, share: share, name: name, tags: lineTags))
            }
            return lines
        }

        /// `everyLimit`: the largest 1, 3 and 10 of the period and of each budget; else why over's
        /// 3 of each budget and the period's 10 (a wrong bound persists to the next full look).
        func compare(_ checkpoint: String, everyLimit: Bool) throws {
            let expenses = try store.expenses(ExpenseQuery())
            let budgets = try store.budgets()
            let calendar = try store.settings().calendar
            let byMonth = try store.spentByMonth(in: months[0]...months[2])
            var ledgerTotal = Money.zero
            for expense in expenses { ledgerTotal = try ledgerTotal + expense.spending() }
            var everyBudget = Money.zero
            for month in months {
                let statuses = try store.budgetStatuses(for: month)
                for status in statuses {
                    let rule = try status.budget.status(viewing: month, in: calendar, of: expenses)
                    #expect(status.spent == rule.spent && status.expenseCount == rule.expenseCount, "\(checkpoint): \(status.budget.name) \(month)")
                    everyBudget = try everyBudget + status.spent
                    #expect((byMonth[month]?[status.budget.id ?? 0] ?? .zero) == rule.spent, "\(checkpoint): spentByMonth \(status.budget.name) \(month)")
                }
                let days = calendar.days(of: month)
                let stored = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.daySpending(in: days) }
                let rule = try DaySpending.grouping(expenses, in: days)
                #expect(Set(stored) == Set(rule), "\(checkpoint): day groups of \(month)")
                // What the month summary shows, summed without the budgets of the groups.
                let totals = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.periodTotals(in: days) }
                #expect(totals == (try PeriodSpending.of(expenses, in: days).totals()), "\(checkpoint): totals of \(month)")
                let ids = Set(budgets.compactMap(\.id))
                let groups = try store.spendingGroups(ofBudgets: ids, in: month...month)
                let ruleGroups = try SpendingGroup.groups(ofBudgets: ids, in: days, of: expenses)
                #expect(Set(groups) == Set(ruleGroups), "\(checkpoint): why-over groups of \(month)")
                if everyLimit {
                    try expectLargestFollowTheRule(store, expenses: expenses, budgetIDs: [nil] + budgets.map(\.id), days: days, checkpoint)
                } else {
                    try expectLargestFollowTheRule(store, expenses: expenses, budgetIDs: [nil], days: days, checkpoint, limits: [10])
                    try expectLargestFollowTheRule(store, expenses: expenses, budgetIDs: budgets.map(\.id), days: days, checkpoint, limits: [3])
                }
            }
            // Every budget of every period adds up to the ledger's total: no line lost or counted twice.
            #expect(everyBudget == ledgerTotal, "\(checkpoint): budgets \(everyBudget), ledger \(ledgerTotal)")
        }

        var ids: [Int64] = []
        for step in 0..<60 {
            switch random.next(below: 8) {
            case 0, 1:
                if let (saved, _) = try? store.addSplitExpense(randomExpense(), lines: randomLines()) { ids.append(saved.id ?? 0) }
            case 2:
                ids.append(try store.addExpense(randomExpense(), toBudgetNamed: pick(budgetNames)).expense.id ?? 0)
            case 3:
                let of = ids.isEmpty ? nil : pick(ids)
                // The expense it names may be gone: the refund is then refused, and nothing written.
                if let (saved, _) = try? store.addRefund(randomExpense(), toBudgetNamed: pick(budgetNames), of: of) { ids.append(saved.id ?? 0) }
            case 4:
                if let id = ids.randomElement(using: &random) { _ = try? store.splitExpense(id: id, lines: randomLines()) }
            case 5:
                if let id = ids.randomElement(using: &random) { _ = try? store.unsplitExpense(id: id, budgetNamed: pick(budgetNames)) }
            case 6:
                if let id = ids.randomElement(using: &random), var expense = try? store.expense(id: id) {
                    expense.amount = Money(cents: Int64(100 + random.next(below: 20_000)))
                    if !expense.lines.isEmpty, let lines = try? ExpenseLines.reallocated(expense.lines, toTotal: try expense.total()) {
                        expense.lines = lines
                    }
                    _ = try? store.updateExpense(expense)
                }
            default:
                if random.next(below: 2) == 0, let id = ids.randomElement(using: &random) {
                    try? store.removeExpense(id: id)
                } else {
                    _ = try? store.undo(nil, dryRun: false)
                }
            }
            try compare("step \(step)", everyLimit: step % 10 == 9)
        }
        #expect(try store.expenses(ExpenseQuery()).contains { !$0.lines.isEmpty })
        #expect(try store.expenses(ExpenseQuery()).contains { $0.isRefund })
    }

    /// The report's largest expenses (the period's, and why over's of each budget) are the
    /// expenses with a portion in range and budget by whole total, largest first, ties by the
    /// highest id, refunds among them, as the plain sort lists them, whatever a store's caches bound.
    public static func expectLargestFollowTheRule(
        _ store: any DataAccess, expenses: [Expense], budgetIDs: [Int64?], days: DayInterval, _ checkpoint: String,
        limits: [Int] = [1, 3, 10]
    ) throws {
        for budgetID in budgetIDs {
            let inRange = try expenses.filter { expense in
                days.contains(expense.date) && (budgetID.map { expense.counts(in: $0) } ?? true)
            }.map { (expense: $0, total: try $0.total().cents) }
            let sorted = inRange.sorted { $0.total != $1.total ? $0.total > $1.total : ($0.expense.id ?? 0) > ($1.expense.id ?? 0) }.map(\.expense)
            for limit in limits {
                let query = ExpenseQuery(budgetID: budgetID, days: days, sort: .total, descending: true, limit: limit)
                #expect(try store.expenses(query) == Array(sorted.prefix(limit)), "\(checkpoint): largest \(limit) of \(String(describing: budgetID))")
            }
        }
    }

    /// A split receipt larger than anything else counts among the largest of each budget a line of
    /// it is in, under the line's own tags, and a refund among the period's: the bounded reads
    /// give what the plain sort gives, on days full of plain expenses, after every kind of write.
    static func largestExpensesAreWholeReceiptsInEachBudgetOfTheirLines(_ stores: Stores) throws {
        let store = try stores.make()
        let names = ["Groceries", "Household", "Health", "Fun"]
        for name in names { _ = try store.addBudget(Budget(name: name, limit: Money(cents: 50_000))) }
        let budgetIDs: [Int64?] = [nil] + (try store.budgets().map(\.id))
        var random = SeededGenerator(seed: 31)
        let march = try month("2026-03")
        let days = try store.settings().calendar.days(of: march)
        var plain: [Int64] = []
        for index in 0..<120 {
            let expense = Expense(
                name: "Plain \(index)", amount: Money(cents: Int64(100 + random.next(below: 5_000))), quantity: 1 + Int64(random.next(below: 2)),
                date: try Day(year: 2026, month: 3, day: 1 + random.next(below: 28)), budgetID: 0,
                tags: random.next(below: 2) == 0 ? ["food"] : [], by: random.next(below: 2) == 0 ? "ann" : "bob")
            plain.append(try store.addExpense(expense, toBudgetNamed: names[random.next(below: names.count)]).expense.id ?? 0)
        }
        func check(_ checkpoint: String) throws {
            try expectLargestFollowTheRule(store, expenses: try store.expenses(ExpenseQuery()), budgetIDs: budgetIDs, days: days, checkpoint, limits: [1, 2, 3, 10])
        }
        try check("plain")
        let receipt = Expense(name: "Costco", amount: Money(cents: 6_000), quantity: 3, date: try day("2026-03-10"), budgetID: 0, tags: ["bulk"], by: "ann")
        let (split, _) = try store.addSplitExpense(
            receipt, lines: [
                NamedLine(budget: "Groceries", share: .percent(1_000), name: "Fruit", tags: ["fresh"]),
                NamedLine(budget: "Household", share: .amount(Money(cents: 100)), tags: ["home"]),
                NamedLine(budget: "Fun", share: .rest),
            ])
        try check("split")
        let (refund, _) = try store.addRefund(
            Expense(name: "Returned TV", amount: Money(cents: 9_000), quantity: 2, date: try day("2026-03-11"), budgetID: 0, by: "bob"), toBudgetNamed: "Health")
        try check("refund")
        var bigger = split
        bigger.amount = Money(cents: 7_000)
        bigger.lines = try ExpenseLines.reallocated(split.lines, toTotal: try bigger.total())
        _ = try store.updateExpense(bigger)
        try check("edited split")
        _ = try store.splitExpense(id: plain[7], lines: [NamedLine(budget: "Health", share: .percent(5_000), tags: ["care"]), NamedLine(budget: "Fun", share: .rest)])
        try check("plain split")
        try store.removeExpense(id: refund.id ?? 0)
        try check("refund removed")
        try store.removeExpense(id: split.id ?? 0)
        try check("split removed")
        _ = try store.undo(nil, dryRun: false)
        try check("removal undone")
        _ = try store.unsplitExpense(id: split.id ?? 0, budgetNamed: "Health")
        try check("unsplit")
    }

    /// A split's lines, names and tags and a refund's link come back as saved; a budget's list
    /// holds the splits with a line in it; undo and redo of a split give back the exact ledger.
    static func splitsAndRefundsRoundTripAndUndo(_ stores: Stores) throws {
        let store = try stores.make()
        for name in ["Groceries", "Household"] { _ = try store.addBudget(Budget(name: name, limit: Money(cents: 50_000))) }
        let groceries = try store.budget(named: "Groceries"), household = try store.budget(named: "Household")
        let costco = Expense(name: "Costco", amount: Money(cents: 12_000), date: try day("2026-03-10"), budgetID: 0, tags: ["bulk"])
        let (saved, statuses) = try store.addSplitExpense(
            costco, lines: [NamedLine(budget: "groceries", share: .percent(6_000), name: "Food", tags: ["fresh"]), NamedLine(budget: "HOUSEHOLD", share: .rest)])
        #expect(saved.lines.map(\.amount.cents) == [7_200, 4_800])
        #expect(statuses.map(\.spent.cents) == [7_200, 4_800])
        #expect(try store.expense(id: saved.id ?? 0) == saved)
        #expect(try store.expenses(ExpenseQuery(budgetID: household.id)).map(\.id) == [saved.id])
        #expect(try store.expenses(ExpenseQuery(budgetID: groceries.id)).map(\.id) == [saved.id])

        let before = try Snapshot(store)
        let unsplit = try store.unsplitExpense(id: saved.id ?? 0, budgetNamed: "household")
        #expect(unsplit.lines.isEmpty && unsplit.budgetID == household.id)
        #expect(try store.status(of: groceries, in: try month("2026-03")).spent == .zero)
        _ = try store.undo(nil, dryRun: false)
        #expect(try Snapshot(store) == before)
        // Undoing the undo redoes the unsplit, and undoing that gives the split back again.
        _ = try store.undo(try #require(try store.changeSets(since: nil, limit: 1).first).changeSet.id, dryRun: false)
        #expect(try store.expense(id: saved.id ?? 0).lines.isEmpty)
        _ = try store.undo(try #require(try store.changeSets(since: nil, limit: 1).first).changeSet.id, dryRun: false)
        #expect(try Snapshot(store) == before)

        let refund = try store.addRefund(
            Expense(name: "Returned kettle", amount: Money(cents: 3_999), date: try day("2026-03-12"), budgetID: 0), toBudgetNamed: "Household", of: saved.id)
        #expect(refund.expense.isRefund && refund.expense.refundOf == saved.id)
        #expect(refund.status.spent.cents == 4_800 - 3_999)
        #expect(try store.expense(id: refund.expense.id ?? 0) == refund.expense)
        let refundOfMissing = Expense(name: "Nothing", amount: Money(cents: 1), date: try day("2026-03-12"), budgetID: 0)
        expectError(.expenseNotFound(999)) { () throws(TallyError) in try store.addRefund(refundOfMissing, toBudgetNamed: "Household", of: 999) }
        // Refused splits change nothing.
        let unchanged = try Snapshot(store)
        expectError(.split(.twoRests)) { () throws(TallyError) in
            try store.addSplitExpense(costco, lines: [NamedLine(budget: "Groceries", share: .rest), NamedLine(budget: "Household", share: .rest)])
        }
        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in
            try store.addSplitExpense(costco, lines: [NamedLine(budget: "Groceries", share: .rest), NamedLine(budget: "Nowhere", share: .amount(Money(cents: 100)))])
        }
        #expect(try Snapshot(store) == unchanged)
    }
}
