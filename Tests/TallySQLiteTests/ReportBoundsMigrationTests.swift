import Foundation
import GRDB
import TallyCore
import TallyInMemory
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallySQLite

/// `v25-report-bounds` on the committed file of the schema before it (`schema-v24.sqlite`, made
/// by `makeFixtures` with `fillV24`'s split receipt and refund, their groups keeping the largest
/// portion as the writers before it did).
@Suite(.ownThreads) struct ReportBoundsMigrationTests {
    @Test func aV24FileOpensWithEveryFigureUnchangedAndTheNewLargest() throws {
        let path = try copiedFixture("schema-v24.sqlite")
        // As the file holds them: the split's lines and the refund bound their portions only.
        let old = try DatabaseQueue(path: path)
        let before = try old.read { db in
            try Int64.fetchAll(db, sql: "SELECT largestCents FROM expenseDay WHERE date IN (20260310, 20260312) ORDER BY date, budgetId")
        }
        try old.close()
        #expect(before == [5_400, 3_600, -500])

        let store = try SQLiteStore(path: path)
        let clock = TestClock()
        let expected = InMemoryStore(clock: { clock() })
        try SchemaFixtures.fillV24(expected, clock: clock)
        #expect(try Snapshot(store) == Snapshot(expected))
        #expect(try store.cacheMismatches() == [])
        for text in ["2026-01", "2026-02", "2026-03"] {
            let month = try Month(parsing: text)
            #expect(try store.budgetStatuses(for: month) == expected.budgetStatuses(for: month))
            let days = try store.settings().calendar.days(of: month)
            let stored = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.daySpending(in: days) }
            #expect(Set(stored) == Set(try DaySpending.grouping(try expected.expenses(ExpenseQuery()), in: days)), "\(text)")
            // The report's largest, of the month and of each budget, bounded by the new largest.
            for budgetID in [nil] + (try store.budgets().map(\.id)) {
                for limit in 1...4 {
                    let query = ExpenseQuery(budgetID: budgetID, days: days, sort: .total, descending: true, limit: limit)
                    #expect(try store.expenses(query) == expected.expenses(query), "\(text) \(String(describing: budgetID)) \(limit)")
                }
            }
        }
        let after = try store.read { db in
            try Int64.fetchAll(db, sql: "SELECT largestCents FROM expenseDay WHERE date IN (20260310, 20260312) ORDER BY date, budgetId")
        }
        #expect(after == [9_000, 9_000, 500])
        // The whole split receipt is March's largest from the bound (not the plain read's fallback).
        let march = try store.settings().calendar.days(of: try Month(parsing: "2026-03"))
        let food = try store.budget(named: "Food").id
        let top = try store.read { db in try SQLiteStore.largestExpenseIDs(in: march, budgetID: food, limit: 1, db) }
        #expect(try top == store.expenses(ExpenseQuery(search: "Costco")).compactMap(\.id))
        #expect(try store.pragma("user_version") == String(Schema.version))
        try store.close()
    }

    /// Spending by currency reads the expenses in other currencies from `expense_foreign` alone,
    /// and the largest expenses' splits come from `expense_detail` from the bound on.
    @Test func theReportsReadsAreCoveredByTheirIndexes() throws {
        let store = try SQLiteStore(path: try temporaryFolder().appendingPathComponent("plans.sqlite").path)
        defer { try? store.close() }
        let plans = try store.read { db in
            let foreign = try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT originalCurrency, SUM(originalMinor * quantity), SUM(amountCents * quantity), COUNT(*)
                FROM expense INDEXED BY expense_foreign WHERE date BETWEEN 1 AND 2 AND originalCurrency IS NOT NULL
                GROUP BY originalCurrency ORDER BY originalCurrency
                """).map { $0["detail"] as String? ?? "" }
            let splits = try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT s.id FROM expense s INDEXED BY expense_detail
                WHERE s.detail <> '' AND s.date IN (1, 2) AND s.amountCents * s.quantity >= 5
                """).map { $0["detail"] as String? ?? "" }
            return (foreign, splits)
        }
        #expect(plans.0.contains { $0.contains("COVERING INDEX expense_foreign") }, "\(plans.0)")
        #expect(plans.1.contains { $0.contains("INDEX expense_detail (date=? AND <expr>>?)") }, "\(plans.1)")
    }
}
