import Foundation
import TallyCore
import TallyTestSupport
import Testing

extension StoreContract {
    /// An expense paid from an asset lowers its balance and one paid by card raises what is
    /// owed; the default account pays for expenses that name none; a reconciled expense changes
    /// only when forced; removing the account keeps its expenses, paid from none; the days the
    /// store answers are the rule's after every step.
    static func expensesPaidFromAccountsMoveBalancesAndLockWhenReconciled(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("500")))
        let checking = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("100"), openingDate: day("2026-11-01")))
        let visa = try store.addAccount(Account(name: "Visa", kind: .credit))
        func expectDaysAreTheRule(_ step: String) throws {
            let expenses = try store.expenses(ExpenseQuery())
            let rule = try AccountDay.sums(incomes: try store.incomes(), transfers: try store.transfers(), expenses: expenses)
            let stored = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountDays() }
            #expect(stored == rule, "\(step)")
        }
        func balances() throws -> [Money?] {
            let book = try store.accountBook()
            return try book.accounts.map { try book.balance(of: $0, through: day("2026-11-30")) }
        }

        let groceries = try store.addExpense(
            Expense(name: "Groceries", amount: money("20"), quantity: 2, date: day("2026-11-03"), budgetID: food.id ?? 0), toBudgetNamed: "food",
            accountNamed: "checking").expense
        #expect(groceries.accountID == checking.id)
        _ = try store.addExpense(Expense(name: "Pizza", amount: money("12"), date: day("2026-11-04"), budgetID: 0), toBudgetNamed: "Food", accountNamed: "VISA")
        try store.setDefaultAccount(named: "visa")
        let bread = try store.addExpense(Expense(name: "Bread", amount: money("3"), date: day("2026-11-05"), budgetID: 0), toBudgetNamed: "Food").expense
        #expect(bread.accountID == visa.id)
        #expect(try balances() == [money("60"), money("15")])
        try expectDaysAreTheRule("after adds")

        expectError(.accountNotFound("Nope")) { () throws(TallyError) in
            try store.addExpense(Expense(name: "X", amount: money("1"), date: day("2026-11-05"), budgetID: 0), toBudgetNamed: "Food", accountNamed: "Nope")
        }
        expectError(.entryBeforeOpening(account: "Checking", day: try day("2026-10-31"), opening: try day("2026-11-01"))) { () throws(TallyError) in
            try store.addExpense(Expense(name: "X", amount: money("1"), date: day("2026-10-31"), budgetID: 0), toBudgetNamed: "Food", accountNamed: "checking")
        }

        #expect(try store.reconcile(accountNamed: "checking", balance: money("60"), on: day("2026-11-30")).matches)
        var changed = groceries
        changed.amount = try money("10")
        expectError(.entryReconciled(account: "Checking", through: try day("2026-11-30"))) { () throws(TallyError) in try store.updateExpense(changed) }
        expectError(.entryReconciled(account: "Checking", through: try day("2026-11-30"))) { () throws(TallyError) in
            try store.removeExpense(id: groceries.id ?? 0)
        }
        changed.accountID = visa.id
        _ = try store.updateExpense(changed, force: true)
        #expect(try balances() == [money("100"), money("35")])
        #expect(try store.accountBook().brokenAssertions().count == 1)
        try expectDaysAreTheRule("after a forced move")

        let removed = try store.removeAccount(named: "Visa", includingEntries: true)
        #expect(removed.expenses == 3)
        #expect(try store.expenses(ExpenseQuery()).allSatisfy { $0.accountID == nil })
        #expect(try store.settings().defaultAccountID == nil)
        #expect(try store.budgetStatuses(for: month("2026-11")).first?.spent == (try money("35")))
        try expectDaysAreTheRule("after the account went")
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.expenses(ExpenseQuery(accountID: visa.id)).count == 3)
        #expect(try store.settings().defaultAccountID == visa.id)
        try expectDaysAreTheRule("after the undo")
    }
}
