import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallyPostgres

/// `v14-expense-lines` on a ledger made here at the schema before it.
@Suite(.ownThreads) struct PostgresSplitMigrationTests {
    /// What takes a database back to before `v14-expense-lines`.
    static let beforeV14 = PostgresLaterMigrationTests.beforeV16 + PostgresLaterMigrationTests.beforeV15 + """
        DROP INDEX expense_detail;
        ALTER TABLE expense DROP COLUMN detail, DROP COLUMN lineKeys;
        ALTER TABLE removedExpense DROP COLUMN detail, DROP COLUMN lineKeys;
        DELETE FROM tally_migration WHERE name = 'v14-expense-lines';

        """

    /// Every expense and figure stays; the ledger then takes splits and refunds, and its caches
    /// follow them.
    @Test func aLedgerFromBeforeV14OpensWithEveryFigureAndTakesSplits() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v13")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
        _ = try old.addBudget(Budget(name: "Home", limit: money("100")))
        try old.addExpenses((0..<150).map { index in
            Expense(name: "E\(index)", amount: Money(cents: Int64(index + 1) * 10), date: (try? day("2026-03-0\(index % 9 + 1)")) ?? Day.today(), budgetID: food.id ?? 0)
        })
        let expenses = try old.expenses(ExpenseQuery())
        let statuses = try old.budgetStatuses(for: month("2026-03"))
        try old.close()
        _ = try server.psql(Self.beforeV14, database: database.name)

        let store = try PostgresStore(location: location)
        defer { try? store.close() }
        #expect(try server.psql("SELECT count(*) FROM tally_migration WHERE name = 'v14-expense-lines'", database: database.name) == "1\n")
        #expect(try store.expenses(ExpenseQuery()) == expenses)
        #expect(try store.budgetStatuses(for: month("2026-03")) == statuses)
        #expect(try store.cacheMismatches() == [])

        let (split, _) = try store.addSplitExpense(
            Expense(name: "Costco", amount: money("120"), date: day("2026-03-10"), budgetID: 0),
            lines: [NamedLine(budget: "Food", share: .percent(6_000), name: "Food part", tags: ["bulk"]), NamedLine(budget: "Home", share: .rest)])
        _ = try store.addRefund(Expense(name: "Kettle", amount: money("5"), date: day("2026-03-11"), budgetID: 0), toBudgetNamed: "Home", of: split.id)
        #expect(try store.expense(id: split.id ?? 0) == split)
        #expect(try store.budgetStatuses(for: month("2026-03")).map(\.spent) == [try statuses[0].spent + money("72"), try money("43")])
        #expect(try store.cacheMismatches() == [])
    }
}
