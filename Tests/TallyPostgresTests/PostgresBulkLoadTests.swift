import Foundation
import TallyCore
@testable import TallyPostgres
import TallyStoreContract
import TallyTestSupport
import Testing

/// An import into a ledger without expenses loads them with the expense table's secondary
/// indexes and foreign key taken off, and the row keys without their primary key
/// (`UnindexedLoad`): whether it commits or fails, the tables end with exactly the indexes and
/// constraints the migrations made.
@Suite(.ownThreads) struct PostgresBulkLoadTests {
    /// Every index and constraint of the two tables, as the catalog spells them.
    private func catalog(_ server: PostgresTestServer, _ database: String) throws -> String {
        try server.psql(
            """
            SELECT string_agg(line, E'\\n' ORDER BY line) FROM (
                SELECT tablename || ' ' || indexdef AS line FROM pg_indexes WHERE tablename IN ('expense', 'importedrow')
                UNION ALL
                SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
                WHERE conrelid IN ('expense'::regclass, 'importedrow'::regclass)) lines
            """, database: database)
    }

    private func rows(_ count: Int, breakingAt broken: Int? = nil) throws -> [(Expense, String)] {
        var rows: [(Expense, String)] = []
        for index in 0..<count {
            let name = index == broken ? "  " : "Row \(index)"
            rows.append((Expense(name: name, amount: Money(cents: Int64(index + 1)), date: try day("2026-02-0\(index % 9 + 1)"), budgetID: 0), "food"))
        }
        return rows
    }

    private func request(keys: ImportRowKeys) throws -> ImportRequest {
        var request = ImportRequest(source: "bank.csv", newBudgets: [Budget(name: "Food", limit: try money("300"))])
        request.rowKeys = keys
        return request
    }

    private func feed(_ rows: [(Expense, String)], keys: ImportRowKeys) -> (ImportInsert) throws(TallyError) -> String? {
        { (insert: ImportInsert) throws(TallyError) -> String? in
            for (index, (expense, budget)) in rows.enumerated() where keys.admit(Int64(index) * 7_919 + 1) { try insert(expense, budget) }
            return nil
        }
    }

    @Test func aCommittedLoadPutsBackEveryIndexAndConstraint() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase()
        let store = try PostgresStore(location: ServerLocation(url: database.url))
        let before = try catalog(server, database.name)
        #expect(before.contains("expensebydate") && before.contains("expense_budgetid_fkey") && before.contains("importedrow_pkey"))

        let keys = ImportRowKeys()
        let outcome = try store.importExpenses(try request(keys: keys), rows: feed(try rows(500), keys: keys))
        #expect(outcome.importedCount == 500)
        #expect(try catalog(server, database.name) == before)
        #expect(try store.importedRowKeys().count == 500)
        #expect(try store.spendingByDay(in: DayInterval(first: try day("2026-02-01"), last: try day("2026-02-28"))).count == 9)
        // The foreign key is back: removing the budget takes its expenses with it.
        #expect(try store.removeBudget(named: "Food", includingExpenses: true) == 500)
        #expect(try store.countExpenses(ExpenseQuery()) == 0)

        // An import into a ledger with expenses loads as usual.
        _ = try store.addBudget(Budget(name: "Food", limit: try money("300")))
        _ = try store.addExpense(Expense(name: "Kept", amount: try money("1"), date: try day("2026-02-01"), budgetID: try store.budget(named: "Food").id ?? 0))
        _ = try store.importExpenses(ImportRequest(source: "more.csv"), rows: feed(try rows(200), keys: ImportRowKeys()))
        #expect(try catalog(server, database.name) == before)
        try store.close()
    }

    @Test func aFailedLoadRollsTheDDLBackWithTheRows() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase()
        let store = try PostgresStore(location: ServerLocation(url: database.url))
        let before = try catalog(server, database.name)
        let keys = ImportRowKeys()
        #expect(throws: TallyError.self) {
            _ = try store.importExpenses(try request(keys: keys), rows: feed(try rows(45_000, breakingAt: 44_000), keys: keys))
        }
        #expect(try catalog(server, database.name) == before)
        #expect(try store.countExpenses(ExpenseQuery()) == 0)
        #expect(try store.budgets().isEmpty)
        #expect(try store.importedRowKeys().isEmpty)
        try store.close()
    }

    /// The keys are read a page at a time: more than two pages, in two batches and none, with
    /// the lowest and highest keys there are, all come back in their batches.
    @Test func rowKeysAreReadInPagesAndEveryOneComesBack() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase()
        let store = try PostgresStore(location: ServerLocation(url: database.url))
        let count = 2 * PostgresStore.keyPage + 3
        _ = try server.psql(
            """
            INSERT INTO importedRow (key, batch) SELECT n * 7919, CASE WHEN n % 3 = 0 THEN NULL ELSE n % 3 END
            FROM generate_series(1, \(count - 2)) n;
            INSERT INTO importedRow (key, batch) VALUES (\(Int64.min), 1), (\(Int64.max), 2);
            SELECT 1
            """, database: database.name)
        var expected: [Int64: Set<Int64>] = [0: [], 1: [Int64.min], 2: [Int64.max]]
        for n in 1...Int64(count - 2) { expected[n % 3, default: []].insert(n * 7_919) }
        var found: [Int64: Set<Int64>] = [:]
        try store.reading { (rows: any LedgerRows) throws(TallyError) in
            for case .importedRows(let batch, let keys) in try rows.rowImages(.importedRows) {
                #expect(found[batch] == nil)
                found[batch] = Set(keys)
                #expect(keys.count == Set(keys).count)
            }
        }
        #expect(found == expected)
        #expect(try store.importedRowKeys().count == count)
        try store.close()
    }
}
