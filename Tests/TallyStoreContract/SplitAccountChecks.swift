import Foundation
import TallyCore
import TallyTestSupport
import Testing

extension StoreContract {
    /// Every path to a budget's figures counts a split's line in its budget and a refund below
    /// zero, a once budget's range too (read alone, as `tally add` and `budget show` read a
    /// few budgets, and with every budget); an account counts a split paid from it as one entry
    /// of its whole total, and a refund as money back. The differential test found each of these
    /// wrong on some store.
    static func onceBudgetsAndAccountsCountSplitsAndRefundsByTheRule(_ stores: Stores) throws {
        let store = try stores.make()
        let trip = try store.addBudget(
            Budget(name: "Trip", limit: try money("500"), period: .once, range: DayInterval(first: try day("2026-03-01"), last: try day("2026-03-15"))))
        _ = try store.addBudget(Budget(name: "Food", limit: try money("300")))
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: try money("1000"), openingDate: try day("2026-02-01")))
        let receipt = Expense(name: "Market", amount: try money("40"), quantity: 2, date: try day("2026-03-02"), budgetID: 0)
        _ = try store.addSplitExpense(
            receipt, lines: [NamedLine(budget: "Food", share: .percent(7_500)), NamedLine(budget: "trip", share: .rest)], accountNamed: "Checking")
        _ = try store.addRefund(Expense(name: "Returned", amount: try money("5"), date: try day("2026-03-03"), budgetID: 0), toBudgetNamed: "Trip", accountNamed: "Checking")
        let month = try month("2026-03")
        // Trip: 20.00 of the split (its rest line), less the 5.00 refund; Food: 60.00.
        let alone = try store.status(of: trip, in: month)
        let together = try #require(try store.budgetStatuses(for: month).first { $0.budget.id == trip.id })
        for (path, status) in [("alone", alone), ("with every budget", together)] {
            #expect(try status.spent == money("15"), "\(path): \(status.spent)")
            #expect(status.expenseCount == 2, "\(path): \(status.expenseCount)")
        }
        let expenses = try store.expenses(ExpenseQuery())
        #expect(try trip.status(viewing: month, in: store.settings().calendar, of: expenses) == alone)
        // The account: −80.00 on the 2nd as one entry, +5.00 on the 3rd.
        let days = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountDays() }
        #expect(days == (try AccountDay.sums(incomes: [], transfers: [], expenses: expenses)))
        #expect(days.map { "\($0.date) \($0.change) \($0.entries)" } == ["2026-03-02 -80.00 1", "2026-03-03 5.00 1"])
        // Removing the split takes its one entry; the day goes.
        try store.removeExpense(id: try #require(expenses.first { !$0.lines.isEmpty }?.id))
        let after = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountDays() }
        #expect(after.map { "\($0.date) \($0.change) \($0.entries)" } == ["2026-03-03 5.00 1"])
    }
}
