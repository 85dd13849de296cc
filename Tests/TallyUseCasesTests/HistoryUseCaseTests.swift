import Foundation
import TallyCore
import TallyImportExport
import TallyInMemory
import TallyPostgres
import TallyStores
import TallyTestSupport
import TallyUseCases
import Testing

@Suite(.ownThreads) struct HistoryUseCaseTests {
    /// Random commands, then as many undos: the JSON export is byte for byte the one before them,
    /// on the in-memory store, on an SQLite file and on a real PostgreSQL server (`PostgresTestServer`).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func randomCommandsUndoneAllReturnTheStartingExport(seed: UInt64) throws {
        let folder = temporaryRoot.appendingPathComponent("TallyHistory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try PostgresTestServer.get()
        let stores: [any DataAccess] = [
            InMemoryStore(), try StoreLocation.file(path: folder.appendingPathComponent("t.sqlite").path).open(),
            try PostgresStore(location: ServerLocation(url: try server.makeDatabase(prefix: "history").url)),
        ]
        for store in stores {
            var random = SeededGenerator(seed: seed)
            let ledger = Ledger(store: store)
            // Something to change before the history under test starts.
            _ = try store.addBudget(Budget(name: "Food", limit: Money(cents: 30_000)))
            _ = try store.addExpense(Expense(name: "Bread", amount: Money(cents: 250), date: try Day(parsing: "2026-03-01"), budgetID: 1))
            let start = try export(ledger)
            let recorded = try store.changeSets(since: nil, limit: nil).count
            for step in 0..<40 { try Self.randomCommand(step, store, &random) }
            let count = try store.changeSets(since: nil, limit: nil).count - recorded
            #expect(count > 10)
            #expect(try export(ledger) != start)
            for _ in 0..<count { _ = try store.undo(nil, dryRun: false) }
            #expect(try export(ledger) == start, "seed \(seed) on \(type(of: store))")
            try store.close()
        }
    }

    private func export(_ ledger: Ledger) throws -> String {
        let sink = MemorySink()
        _ = try ExportLedger(format: .json).run(in: ledger, to: sink)
        return sink.string
    }

    /// One command picked at random; one that a rule refuses changes nothing and records nothing.
    static func randomCommand(_ step: Int, _ store: any DataAccess, _ random: inout SeededGenerator) throws {
        let budgets = try store.budgets()
        let expenses = try store.expenses(ExpenseQuery())
        let day = try Day(parsing: "2026-0\(Int.random(in: 1...4, using: &random))-1\(Int.random(in: 0...9, using: &random))")
        let amount = Money(cents: Int64.random(in: 1...50_000, using: &random))
        do throws(TallyError) {
            switch Int.random(in: 0..<9, using: &random) {
            case 0: _ = try store.addBudget(Budget(name: "Budget \(step)", limit: amount))
            case 1, 2:
                guard let budget = budgets.randomElement(using: &random) else { return }
                _ = try store.addExpense(
                    Expense(name: "Thing \(step)", amount: amount, date: day, budgetID: budget.id ?? 0, tags: step.isMultiple(of: 3) ? ["t\(step % 4)"] : []))
            case 3:
                guard var expense = expenses.randomElement(using: &random) else { return }
                expense.amount = amount
                expense.tags = ["edited"]
                _ = try store.updateExpense(expense)
            case 4:
                guard let expense = expenses.randomElement(using: &random) else { return }
                try store.removeExpense(id: expense.id ?? 0)
            case 5:
                guard let budget = budgets.randomElement(using: &random) else { return }
                try store.removeBudget(named: budget.name, includingExpenses: true)
            case 6:
                guard var budget = budgets.randomElement(using: &random) else { return }
                budget.limit = amount
                budget.name += "!"
                _ = try store.updateBudget(budget)
            case 7:
                var settings = try store.settings()
                settings.calendar = try PeriodCalendar(monthStart: Int.random(in: 1...28, using: &random))
                settings.warn = Int.random(in: 1...100, using: &random)
                _ = try store.updateSettings(settings)
            default:
                guard let budget = budgets.randomElement(using: &random) else { return }
                _ = try store.addRule(ImportRule(pattern: "shop \(step)", budget: budget.name, tags: ["shop"]))
                _ = try store.saveProfile(ImportProfile(name: "Bank \(step % 3)", columns: "date,name,amount"))
            }
        } catch {
            // A refused command (a name too long, a clash) is part of the walk.
        }
    }
}
