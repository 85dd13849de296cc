import Foundation
import TallyCore

// TEMPORARY STUB: delegates to InMemoryStore until the GRDB implementation lands.
public final class SQLiteStore: DataAccess, @unchecked Sendable {
    private let base: InMemoryStore

    /// Opens (creating if needed, folder 0700 and file 0600) and migrates the database at `path`.
    public init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) {
        base = InMemoryStore(clock: clock)
    }

    /// A private in-memory SQLite database with the production configuration, for tests.
    public static func inMemory(clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) -> SQLiteStore {
        try SQLiteStore(path: ":memory:", clock: clock)
    }

    public func addBudget(_ budget: Budget) throws(TallyError) -> Budget { try base.addBudget(budget) }
    public func budget(named name: String) throws(TallyError) -> Budget { try base.budget(named: name) }
    public func budgets() throws(TallyError) -> [Budget] { try base.budgets() }
    public func updateBudget(_ budget: Budget) throws(TallyError) -> Budget { try base.updateBudget(budget) }
    public func removeBudget(named name: String, includingExpenses: Bool) throws(TallyError) -> Int { try base.removeBudget(named: name, includingExpenses: includingExpenses) }
    public func addExpense(_ expense: Expense) throws(TallyError) -> Expense { try base.addExpense(expense) }
    public func expense(id: Int64) throws(TallyError) -> Expense { try base.expense(id: id) }
    public func updateExpense(_ expense: Expense) throws(TallyError) -> Expense { try base.updateExpense(expense) }
    public func removeExpense(id: Int64) throws(TallyError) { try base.removeExpense(id: id) }
    public func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] { try base.expenses(query) }
    public func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int { try base.countExpenses(query) }
    public func budgetStatuses(for month: Month) throws(TallyError) -> [BudgetStatus] { try base.budgetStatuses(for: month) }
    public func spendingByDay(in days: DayInterval) throws(TallyError) -> [Day: Money] { try base.spendingByDay(in: days) }
    public func spendingByTag(in days: DayInterval) throws(TallyError) -> [String: Money] { try base.spendingByTag(in: days) }
}
