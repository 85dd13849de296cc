import Foundation
import TallyCore
import TallyPostgres
import TallyStoreContract
import TallyTestSupport
import Testing

/// A ledger Tally made before a migration opens with every row as it was, and what its history
/// recorded then still undoes. The previous version is made as the SQLite fixtures are: by this
/// build, then taken back by the inverse of the later migration's statements.
@Suite struct PostgresMigrationTests {
    /// The import was recorded before `v4-removed-rows`: undoing it now moves its expenses and row
    /// keys beside the undo, and redoing moves them back with their ids.
    @Test func anImportRecordedBeforeV4UndoesAndRedoesInBulk() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v3")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
        let keys = ImportRowKeys()
        _ = try old.importExpenses(ImportRequest(source: "bank.csv", rowKeys: keys)) { (insert: ImportInsert) throws(TallyError) -> String? in
            for key in Int64(1)...3 where keys.admit(key) {
                try insert(Expense(name: "Bread \(key)", amount: try money("2.50"), date: try day("2026-03-0\(key)"), budgetID: 0), "Food")
            }
            return "bank"
        }
        _ = try old.addExpense(Expense(name: "Cake", amount: money("4"), date: day("2026-03-09"), budgetID: food.id ?? 0))
        try old.close()
        try server.psql(
            """
            DROP TABLE removedExpense; DROP TABLE removedImportedRow;
            DELETE FROM tally_migration WHERE name = 'v4-removed-rows';
            """, database: database.name)

        let store = try PostgresStore(location: location)
        defer { try? store.close() }
        #expect(try server.psql("SELECT count(*) FROM tally_migration WHERE name = 'v4-removed-rows'", database: database.name) == "1\n")
        let migrated = try Snapshot(store)
        let migratedKeys = try store.importedRowKeys()
        #expect(migrated.expenses.count == 4 && migratedKeys.count == 3)
        func kept() throws -> String { try server.psql("SELECT (SELECT count(*) FROM removedExpense) || ' ' || (SELECT count(*) FROM removedImportedRow)", database: database.name) }

        let imported = try #require(try store.changeSets(since: nil, limit: nil).first { $0.changeSet.summary.contains("3 expenses added") })
        let undo = try store.undo(imported.changeSet.id, dryRun: false)
        #expect(undo.undo.content.removedExpenses?.count == 3 && undo.undo.content.expensesBefore.isEmpty)
        #expect(try store.expenses(ExpenseQuery()).map(\.name) == ["Cake"])
        #expect(try store.importedRowKeys().isEmpty)
        #expect(try kept() == "3 3\n")

        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try Snapshot(store) == migrated)
        #expect(try store.importedRowKeys() == migratedKeys)
        #expect(try kept() == "0 0\n")
    }
}
