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

        func compare(_ checkpoint: String) throws {
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
                let ids = Set(budgets.compactMap(\.id))
                let groups = try store.spendingGroups(ofBudgets: ids, in: month...month)
                let ruleGroups = try SpendingGroup.groups(ofBudgets: ids, in: days, of: expenses)
                #expect(Set(groups) == Set(ruleGroups), "\(checkpoint): why-over groups of \(month)")
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
            try compare("step \(step)")
        }
        #expect(try store.expenses(ExpenseQuery()).contains { !$0.lines.isEmpty })
        #expect(try store.expenses(ExpenseQuery()).contains { $0.isRefund })
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
