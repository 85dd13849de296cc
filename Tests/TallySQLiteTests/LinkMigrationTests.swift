import Foundation
import TallyCore
import TallyInMemory
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallySQLite

/// The committed file of schema v26 (`schema-v26.sqlite`, made by `makeFixtures` with `fillV26`):
/// recurring payments linked to their expenses, one whose expense was removed, and an undone
/// import whose rows wait beside the undo's change set.
@Suite(.ownThreads) struct LinkMigrationTests {
    /// `fillV24`'s ledger with a weekly bill posted three times, the second post removed (its
    /// occurrence stays paid, with no expense), and an import of two rows undone.
    static func fillV26(_ store: any DataAccess, clock: TestClock) throws {
        try SchemaFixtures.fillV24(store, clock: clock)
        let food = try store.budget(named: "Food")
        _ = try store.addRecurringRule(
            RecurringRule(name: "Veg box", budgetID: food.id ?? 0, amount: Money(cents: 1_500), every: .week, start: try Day(parsing: "2026-03-02")))
        clock.advance(by: 0.5)
        let posts = try store.postRecurring(through: try Day(parsing: "2026-03-16"), dryRun: false)
        clock.advance(by: 0.5)
        guard posts.count == 3, case .posted(let second) = posts[1].outcome, let id = second.id else {
            throw TallyError.storage("the fixture's bill posted \(posts)")
        }
        try store.removeExpense(id: id)
        clock.advance(by: 0.5)
        let rows = [
            Expense(name: "Market", amount: Money(cents: 820), date: try Day(parsing: "2026-03-20"), budgetID: 0),
            Expense(name: "Bakery", amount: Money(cents: 310), quantity: 2, date: try Day(parsing: "2026-03-21"), budgetID: 0, tags: ["daily"]),
        ]
        let keys = ImportRowKeys()
        _ = try store.importExpenses(ImportRequest(source: "undone.csv", rowKeys: keys)) { (insert: ImportInsert) throws(TallyError) -> String? in
            for (key, row) in zip(Int64(-7)..., rows) where keys.admit(key) { try insert(row, "Food") }
            return "undone-fingerprint"
        }
        clock.advance(by: 0.5)
        _ = try store.undo(nil, dryRun: false)
    }

    /// The inverse of `v27-writer-kept-links`: the three links get their foreign keys back.
    static let beforeV27 = """
        CREATE TABLE oldRecurringPayment (
            ruleId INTEGER NOT NULL REFERENCES recurringRule(id) ON DELETE CASCADE,
            date INTEGER NOT NULL CHECK (date BETWEEN 10101 AND 99991231),
            expenseId INTEGER REFERENCES expense(id) ON DELETE SET NULL,
            kind TEXT NOT NULL CHECK (kind IN ('posted', 'matched')),
            PRIMARY KEY (ruleId, date)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO oldRecurringPayment SELECT * FROM recurringPayment;
        DROP TABLE recurringPayment;
        ALTER TABLE oldRecurringPayment RENAME TO recurringPayment;
        CREATE UNIQUE INDEX recurringPayment_expenseId ON recurringPayment(expenseId) WHERE expenseId IS NOT NULL;
        CREATE TABLE oldRemovedExpense (
            changeSetId INTEGER NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
            \(Schema.removedExpenseColumns),
            PRIMARY KEY (changeSetId, id)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO oldRemovedExpense SELECT * FROM removedExpense;
        DROP TABLE removedExpense;
        ALTER TABLE oldRemovedExpense RENAME TO removedExpense;
        CREATE TABLE oldRemovedImportedRow (
            changeSetId INTEGER NOT NULL REFERENCES changeSet(id) ON DELETE CASCADE,
            key INTEGER NOT NULL,
            batch INTEGER,
            PRIMARY KEY (changeSetId, key)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO oldRemovedImportedRow SELECT * FROM removedImportedRow;
        DROP TABLE removedImportedRow;
        ALTER TABLE oldRemovedImportedRow RENAME TO removedImportedRow;
        DELETE FROM grdb_migrations WHERE identifier = 'v27-writer-kept-links';
        PRAGMA user_version = 26;

        """

    @Test func aV26FileOpensWithEveryRowLinkAndFigureUnchanged() throws {
        let path = try copiedFixture("schema-v26.sqlite")
        let store = try SQLiteStore(path: path)
        defer { try? store.close() }
        let clock = TestClock()
        let expected = InMemoryStore(clock: { clock() })
        try Self.fillV26(expected, clock: clock)
        #expect(try Snapshot(store) == Snapshot(expected))
        #expect(try store.recurringPayments() == expected.recurringPayments())
        #expect(try store.recurringPayments().map(\.expenseID) == [12, nil, 14])
        #expect(try store.cacheMismatches() == [])
        for text in ["2026-01", "2026-02", "2026-03"] {
            let month = try Month(parsing: text)
            #expect(try store.budgetStatuses(for: month) == expected.budgetStatuses(for: month))
        }
        #expect(try store.pragma("user_version") == String(Schema.version))
        #expect(try store.keptRowCount("removedExpense") == 2 && store.keptRowCount("removedImportedRow") == 2)
        for table in ["recurringPayment", "removedExpense", "removedImportedRow"] {
            #expect(try store.foreignKeyTargets(of: table) == (table == "recurringPayment" ? ["recurringRule"] : []))
        }

        // Undoing the undo (change set 32) brings its rows and keys back from beside the change set.
        let march = try Month(parsing: "2026-03")
        let foodBefore = try store.status(of: store.budget(named: "Food"), in: march).spent.cents
        _ = try store.undo(32, dryRun: false)
        #expect(try store.status(of: store.budget(named: "Food"), in: march).spent.cents == foodBefore + 820 + 620)
        #expect(try store.keptRowCount("removedExpense") == 0 && store.keptRowCount("removedImportedRow") == 0)
        #expect(try store.importedRowKeys().isSuperset(of: [-7, -6]))

        // Removing a posted bill unlinks its occurrence, which stays paid.
        try store.removeExpense(id: 14)
        #expect(try store.recurringPayments().map(\.expenseID) == [12, nil, nil])
        #expect(try store.cacheMismatches() == [])
    }

    /// Pruning the history takes the rows set aside beside a pruned change set with it, and
    /// removing a budget with its expenses unlinks the occurrences they paid.
    @Test func theWritersKeepEveryLinkWithoutForeignKeys() throws {
        let path = try copiedFixture("schema-v26.sqlite")
        let clock = TestClock()
        let store = try SQLiteStore(path: path, clock: { clock() })
        defer { try? store.close() }
        try store.removeBudget(named: "Food", includingExpenses: true)
        #expect(try store.recurringPayments().isEmpty)
        #expect(try store.cacheMismatches() == [])

        var settings = try store.settings()
        settings.historyDays = 1
        _ = try store.updateSettings(settings)
        clock.advance(by: 2 * 86_400)
        _ = try store.addBudget(Budget(name: "Later", limit: Money(cents: 100)))
        #expect(try store.keptRowCount("removedExpense") == 0 && store.keptRowCount("removedImportedRow") == 0)
        #expect(try store.changeSets(since: nil, limit: nil).count == 1)
        #expect(try store.cacheMismatches() == [])
    }
}
