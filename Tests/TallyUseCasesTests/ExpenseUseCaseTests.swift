import Foundation
import TallyCore
import TallyImportExport
import TallyInMemory
import TallyUseCases
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ExpenseUseCaseTests {
    @Test func addSavesInTheNamedBudgetAndAnswersItsMonth() throws {
        let (ledger, store) = memoryLedger()
        _ = try AddBudget(name: "Café", limit: money("10")).run(in: ledger)
        let (saved, status) = try AddExpense(
            Expense(name: " Latte ", amount: money("4.50"), quantity: 3, date: day("2026-03-10"), budgetID: 99, tags: ["Coffee"]),
            budget: "CAFE"
        ).run(in: ledger)
        #expect(saved.name == "Latte" && saved.tags == ["coffee"] && saved.budgetID == status.budget.id)
        #expect(try status.spent == money("13.50") && status.level == .over && status.month == (try month("2026-03")))
        #expect(try store.expense(id: saved.id ?? 0) == saved)
    }

    @Test func addRefusesABrokenExpenseBeforeAnUnknownBudget() throws {
        let (ledger, store) = memoryLedger()
        #expect(throws: TallyError.amountNotPositive(.zero)) {
            try AddExpense(Expense(name: "x", amount: .zero, date: day("2026-03-10"), budgetID: 0), budget: "Nope").run(in: ledger)
        }
        #expect(throws: TallyError.budgetNotFound("Nope")) {
            try AddExpense(Expense(name: "x", amount: money("1"), date: day("2026-03-10"), budgetID: 0), budget: "Nope").run(in: ledger)
        }
        #expect(try store.countExpenses(ExpenseQuery()) == 0)
    }

    @Test func editChangesOnlyTheGivenFieldsAndMovesBetweenBudgets() throws {
        let (ledger, _) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        _ = try AddBudget(name: "Fun", limit: money("100")).run(in: ledger)
        let (saved, _) = try AddExpense(
            Expense(name: "Cinema", amount: money("12"), date: day("2026-03-10"), budgetID: 0, tags: ["night"]), budget: "Food"
        ).run(in: ledger)
        let id = saved.id ?? 0
        let moved = try EditExpense(id: id, quantity: 2, budget: "fun").run(in: ledger)
        #expect(moved.budgetName == "Fun" && moved.expense.quantity == 2 && moved.expense.name == "Cinema" && moved.expense.tags == ["night"])
        let cleared = try EditExpense(id: id, amount: money("9"), tags: []).run(in: ledger)
        #expect(try cleared.budgetName == "Fun" && cleared.expense.tags.isEmpty && cleared.expense.amount == money("9"))
        let march = try month("2026-03")
        #expect(try ListBudgets(month: march).run(in: ledger).statuses.map(\.spent) == [.zero, try money("18")])
        #expect(throws: TallyError.expenseNotFound(999)) { try EditExpense(id: 999, name: "x").run(in: ledger) }
        let removed = try RemoveExpense(id: id).run(in: ledger)
        #expect(removed.name == "Cinema")
        #expect(throws: TallyError.expenseNotFound(id)) { try RemoveExpense(id: id).run(in: ledger) }
    }

    @Test func listPagesFiltersAndNamesTheBudgets() throws {
        let (ledger, _) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        _ = try AddBudget(name: "Fun", limit: money("100")).run(in: ledger)
        for index in 1...7 {
            let budget = index.isMultiple(of: 2) ? "Fun" : "Food"
            _ = try AddExpense(
                Expense(name: "Item \(index)", amount: money("\(index)"), date: day("2026-03-0\(index)"), budgetID: 0, tags: index > 5 ? ["late"] : []),
                budget: budget
            ).run(in: ledger)
        }
        let first = try ListExpenses(page: 1, pageSize: 3).run(in: ledger)
        #expect(first.total == 7 && first.pageCount == 3 && first.expenses.map(\.name) == ["Item 1", "Item 2", "Item 3"])
        #expect(Set(first.budgetNames.values) == ["Food", "Fun"])
        let last = try ListExpenses(page: 3, pageSize: 3).run(in: ledger)
        #expect(last.expenses.map(\.name) == ["Item 7"])
        #expect(try ListExpenses(page: Int.max, pageSize: 1000).run(in: ledger).expenses.isEmpty)
        let fun = try ListExpenses(budget: "FUN", sort: .amount, descending: true).run(in: ledger)
        #expect(fun.expenses.map(\.name) == ["Item 6", "Item 4", "Item 2"])
        #expect(try ListExpenses(tag: "LATE").run(in: ledger).total == 2)
        #expect(try ListExpenses(month: month("2026-04")).run(in: ledger).total == 0)
        #expect(throws: TallyError.budgetNotFound("Nope")) { try ListExpenses(budget: "Nope").run(in: ledger) }
    }

    @Test func theMonthReportIsComputedFromTheLedger() throws {
        let (ledger, _) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        _ = try AddExpense(Expense(name: "Bread", amount: money("85"), date: day("2026-03-01"), budgetID: 0), budget: "Food").run(in: ledger)
        let report = try MonthReport(month: month("2026-03")).run(in: ledger)
        #expect(report.budgets.map(\.level) == [.near])
        #expect(try report.totals.spent == money("85") && report.totals.expenseCount == 1)
    }

    @Test func demoFillsOnlyAnEmptyLedger() throws {
        let (ledger, store) = memoryLedger()
        let today = try day("2026-03-15")
        let added = try FillDemo(today: today).run(in: ledger)
        #expect(added.budgets == 8 && added.expenses > 100)
        #expect(try store.countExpenses(ExpenseQuery()) == added.expenses)
        #expect(throws: FillDemo.LedgerNotEmpty(budgetCount: 8)) { try FillDemo(today: today).run(in: ledger) }
    }
}
