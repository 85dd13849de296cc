import Foundation
import TallyCore
import TallyInMemory
import TallyStores
import TallyUseCases
import TallyTestSupport
import Testing

func money(_ text: String) throws -> Money { try Money(parsing: text) }
func day(_ text: String) throws -> Day { try Day(parsing: text) }
func month(_ text: String) throws -> Month { try Month(parsing: text) }

/// A ledger on a fresh in-memory store.
func memoryLedger() -> (Ledger, InMemoryStore) {
    let store = InMemoryStore()
    return (Ledger(store: store), store)
}

/// A path in a new temporary folder where no file exists yet.
func absentDatabasePath() throws -> String {
    let folder = temporaryRoot.appendingPathComponent("TallyUseCasesTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("tally.sqlite").path
}

@Suite(.ownThreads) struct BudgetUseCaseTests {
    @Test func addValidatesBeforeTheStoreIsOpened() throws {
        let path = try absentDatabasePath()
        let ledger = Ledger(location: StoreLocation(path))
        #expect(throws: TallyError.emptyName(.budget)) { try AddBudget(name: "   ", limit: money("10")).run(in: ledger) }
        #expect(throws: TallyError.limitNotPositive(.zero)) { try AddBudget(name: "Food", limit: .zero).run(in: ledger) }
        #expect(!FileManager.default.fileExists(atPath: path), "a refused budget created the database")
        let saved = try AddBudget(name: " Food ", limit: money("300")).run(in: ledger)
        #expect(saved.name == "Food")
        #expect(FileManager.default.fileExists(atPath: path))
        ledger.close()
    }

    @Test func editRenamesAndChangesTheLimitAndValidatesFirst() throws {
        let (ledger, store) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("300")).run(in: ledger)
        let (before, after) = try EditBudget(name: "FOOD", newName: "Groceries", newLimit: money("350")).run(in: ledger)
        #expect(try before.name == "Food" && after.name == "Groceries" && after.limit == money("350"))
        #expect(throws: TallyError.nameHasControlCharacters(.budget, "a\nb")) {
            try EditBudget(name: "Groceries", newName: "a\nb").run(in: ledger)
        }
        #expect(try store.budgets().map(\.name) == ["Groceries"])
    }

    @Test func removeAsksBeforeDeletingExpensesAndRefusesWithoutYes() throws {
        let (ledger, store) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("300")).run(in: ledger)
        _ = try AddExpense(Expense(name: "Bread", amount: money("2.50"), date: day("2026-03-01"), budgetID: 0), budget: "food").run(in: ledger)
        var asked: [(String, Int)] = []
        #expect(throws: TallyError.budgetNotEmpty("Food", expenseCount: 1)) {
            try RemoveBudget(name: "food", includingExpenses: false).run(in: ledger) { name, count in
                asked.append((name, count))
                return false
            }
        }
        #expect(asked.count == 1 && asked.first?.0 == "Food" && asked.first?.1 == 1)
        let removed = try RemoveBudget(name: "food", includingExpenses: false).run(in: ledger) { _, _ in true }
        #expect(removed.budget.name == "Food" && removed.removedExpenses == 1)
        #expect(try store.budgets().isEmpty && store.countExpenses(ExpenseQuery()) == 0)
    }

    @Test func listSearchesAndSortsStablyWithTheNameOrderBreakingTies() throws {
        let (ledger, _) = memoryLedger()
        for (name, limit) in [("Rent", "1200"), ("Café", "40"), ("Fast Food", "60"), ("Food", "40")] {
            _ = try AddBudget(name: name, limit: money(limit)).run(in: ledger)
        }
        _ = try AddExpense(Expense(name: "Coffee", amount: money("45"), date: day("2026-03-02"), budgetID: 0), budget: "cafe").run(in: ledger)
        let march = try month("2026-03")
        func names(_ list: ListBudgets) throws -> [String] { try list.run(in: ledger).statuses.map(\.budget.name) }
        #expect(try names(ListBudgets(month: march)) == ["Café", "Fast Food", "Food", "Rent"])
        #expect(try names(ListBudgets(month: march, search: "FOOD")) == ["Fast Food", "Food"])
        #expect(try names(ListBudgets(month: march, order: .limit)) == ["Café", "Food", "Fast Food", "Rent"])
        #expect(try names(ListBudgets(month: march, order: .limit, descending: true)) == ["Rent", "Fast Food", "Café", "Food"])
        #expect(try names(ListBudgets(month: march, order: .spent, descending: true)).first == "Café")
        let cafe = try ListBudgets(month: march, search: "café").run(in: ledger).statuses
        #expect(cafe.first?.level == .over)
    }

    @Test func showGivesTheMonthsFiguresAndOnlyItsExpenses() throws {
        let (ledger, _) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        for (name, date) in [("Bread", "2026-03-01"), ("Milk", "2026-03-31"), ("Eggs", "2026-04-01")] {
            _ = try AddExpense(Expense(name: name, amount: money("40"), date: day(date), budgetID: 0), budget: "Food").run(in: ledger)
        }
        let shown = try ShowBudget(name: "food", month: month("2026-03")).run(in: ledger)
        let (status, expenses) = (shown.status, shown.expenses)
        #expect(expenses.map(\.name) == ["Bread", "Milk"])
        #expect(try status.spent == money("80") && status.level == .near && status.expenseCount == 2)
    }
}
