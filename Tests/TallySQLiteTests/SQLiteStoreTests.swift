import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore
import TallyInMemory
@testable import TallySQLite

/// Facts only the SQLite store has: files, permissions, pragmas, constraints, opening errors.
@Suite(.ownThreads) struct SQLiteStoreTests {
    @Test func createsMissingFoldersOwnerOnlyAndTheFileOwnerOnly() throws {
        let root = try temporaryFolder()
        let path = root.appendingPathComponent("a/b/tally.sqlite").path
        let store = try SQLiteStore(path: path)
        let budget = try store.addBudget(Budget(name: "Food", limit: Money(cents: 100)))
        _ = try store.addExpense(Expense(name: "Bread", amount: Money(cents: 50), date: day("2026-01-01"), budgetID: budget.id ?? 0))
        #expect(try permissions(root.appendingPathComponent("a").path) == 0o700)
        #expect(try permissions(root.appendingPathComponent("a/b").path) == 0o700)
        #expect(try permissions(path) == 0o600)
        for sidecar in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + sidecar) {
            #expect(try permissions(path + sidecar) == 0o600, "\(sidecar)")
        }
    }

    @Test func usesWALForeignKeysAndFullSynchronousWrites() throws {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        #expect(try store.pragma("journal_mode") == "wal")
        #expect(try store.pragma("foreign_keys") == "1")
        #expect(try store.pragma("synchronous") == "2")
        #expect(try store.pragma("busy_timeout") == "5000")
        let memory = try SQLiteStore.inMemory()
        #expect(try memory.pragma("foreign_keys") == "1")
        #expect(try memory.pragma("synchronous") == "2")
    }

    @Test func theSchemaItselfRefusesBadRows() throws {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        let budget = try store.addBudget(Budget(name: "Food", limit: Money(cents: 100)))
        let expense = try store.addExpense(Expense(name: "Bread", amount: Money(cents: 50), date: day("2026-01-01"), budgetID: budget.id ?? 0, tags: ["daily"]))
        let before = try Snapshot(store)
        let id = budget.id ?? 0
        let columns = "INSERT INTO budget (name, nameKey, limitCents, period, createdAt, updatedAt) VALUES"
        let expenseColumns = "INSERT INTO expense (budgetId, name, nameKey, amountCents, quantity, date, createdAt, updatedAt) VALUES"
        let refused = [
            "\(columns) ('', 'x', 100, 'monthly', 0, 0)",
            "\(columns) ('   ', 'x', 100, 'monthly', 0, 0)",
            "\(columns) (' padded', 'x', 100, 'monthly', 0, 0)",
            "\(columns) ('a' || char(10) || 'b', 'x', 100, 'monthly', 0, 0)",
            "\(columns) (NULL, 'x', 100, 'monthly', 0, 0)",
            "\(columns) ('Rent', NULL, 100, 'monthly', 0, 0)",
            "\(columns) ('Rent', 'rent', 0, 'monthly', 0, 0)",
            "\(columns) ('Rent', 'rent', -1, 'monthly', 0, 0)",
            "\(columns) ('Rent', 'rent', 100000000001, 'monthly', 0, 0)",
            "\(columns) ('Rent', 'rent', 1.5, 'monthly', 0, 0)",
            "\(columns) ('Rent', 'rent', 100, 'weekly', 0, 0)",
            "\(columns) ('Rent', 'rent', 100, 'monthly', 'yesterday', 0)",
            "\(columns) ('FOOD', 'food', 100, 'monthly', 0, 0)",
            "\(expenseColumns) (999, 'Lost', 'lost', 1, 1, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), '', '', 1, 1, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), 'Free', 'free', 0, 1, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), 'Huge', 'huge', 100000000001, 1, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), 'None', 'none', 1, 0, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), 'Many', 'many', 1, 1000001, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, 'yesterday', 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, '2026-01-01', 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, 20261301, 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, 20260132, 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, 20260100, 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, 2026011, 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, 100000101, 0, 0)",
            "\(expenseColumns) (\(id), ' Padded', 'padded', 1, 1, 20260101, 0, 0)",
            "\(expenseColumns) (\(id), 'Date', 'date', 1, 1, NULL, 0, 0)",
            "INSERT INTO tag (name) VALUES ('Upper')",
            "INSERT INTO tag (name) VALUES ('a,b')",
            "INSERT INTO tag (name) VALUES ('')",
            "INSERT INTO tag (name) VALUES ('daily')",
            "INSERT INTO tagSet (tags) VALUES ('')",
            "INSERT INTO tagSet (tags) VALUES ('daily')",
            "INSERT INTO tagSet (tags) VALUES (';daily')",
            "INSERT INTO tagSetTag (tagSetId, tagId) VALUES (999, 1)",
            "INSERT INTO tagSetTag (tagSetId, tagId) VALUES (1, 999)",
            "UPDATE expense SET tagSetId = 999 WHERE id = \(expense.id ?? 0)",
            "DELETE FROM tagSet",
            "UPDATE expense SET budgetId = 999",
        ]
        for sql in refused {
            #expect(throws: (any Error).self, "\(sql)") { try store.executeUnchecked(sql) }
        }
        #expect(try Snapshot(store) == before)
        try store.executeUnchecked("\(columns) ('Rent', 'rent', 100, 'monthly', 0, 0)")
        #expect(try store.budgets().count == 2)
        try store.executeUnchecked("\(expenseColumns) (\(id), 'Tea', 'tea', 1, 1, 20260228, 0, 0)")
        #expect(try store.countExpenses(ExpenseQuery()) == 2)
    }

    /// The schema checks a date's shape, not the calendar: a day that does not exist, written by
    /// something other than Tally, is reported when read instead of being trusted.
    @Test func aStoredDayThatDoesNotExistIsAStorageError() throws {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        let budget = try store.addBudget(Budget(name: "Food", limit: Money(cents: 100)))
        try store.executeUnchecked("""
            INSERT INTO expense (budgetId, name, nameKey, amountCents, quantity, date, createdAt, updatedAt)
            VALUES (\(budget.id ?? 0), 'Tea', 'tea', 1, 1, 20260229, 0, 0)
            """)
        expectError(.storage("expense #1 has an invalid date 20260229")) { () throws(TallyError) in try store.expense(id: 1) }
        expectError(.storage("expense #1 has an invalid date 20260229")) { () throws(TallyError) in
            try store.expenses(ExpenseQuery())
        }
    }

    @Test(arguments: [
        ("text", Array("budget,limit\nFood,300\n".utf8)),
        ("random", randomBytes(count: 8192)),
        ("empty-header", Array("SQLite format 3".utf8)),
    ])
    func aFileThatIsNotADatabaseIsReportedAndLeftUnchanged(name: String, bytes: [UInt8]) throws {
        let path = try temporaryFolder().appendingPathComponent("\(name).sqlite").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try expectNotADatabase(path, bytes: Data(bytes))
    }

    @Test(arguments: [0.5, 0.25, 0.02])
    func aTruncatedDatabaseIsReportedAndLeftUnchanged(fraction: Double) throws {
        let path = try temporaryFolder().appendingPathComponent("tally.sqlite").path
        try fill(path: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = whole.prefix(Int(Double(whole.count) * fraction))
        try truncated.write(to: URL(fileURLWithPath: path))
        try expectNotADatabase(path, bytes: truncated)
    }

    /// The header is what lets a current file skip the read-only inspection.
    @Test func theHeaderNamesTallyAndTheSchemaVersion() throws {
        let path = try temporaryFolder().appendingPathComponent("tally.sqlite").path
        _ = try SQLiteStore(path: path)
        let header = try #require(FileHeader(path: path))
        #expect(header.applicationID == Schema.applicationID)
        #expect(header.userVersion == Schema.version)
        // Every migration must set `user_version` to its number, or newer files would pass as current.
        #expect(Schema.version == Int32(Schema.migrator.migrations.count))
    }

    @Test func anotherApplicationsDatabaseIsRefusedUnchanged() throws {
        let path = try temporaryFolder().appendingPathComponent("other.sqlite").path
        do {
            let store = try SQLiteStore(path: path)
            try store.executeUnchecked("""
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); DROP TABLE grdb_migrations;
                PRAGMA application_id = 0; PRAGMA user_version = 0
                """)
        }
        try expectNotADatabase(path, bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aDatabaseFromANewerTallyIsRefusedUnchanged() throws {
        let path = try temporaryFolder().appendingPathComponent("tally.sqlite").path
        try fill(path: path)
        do {
            let store = try SQLiteStore(path: path)
            try store.executeUnchecked("INSERT INTO grdb_migrations (identifier) VALUES ('v98'), ('v99-sync'); PRAGMA user_version = 99")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: TallyError.databaseTooNew(path: path, unknownMigrations: ["v98", "v99-sync"])) {
            try SQLiteStore(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aFolderThatCannotBeCreatedIsAStorageError() throws {
        let root = try temporaryFolder()
        let blocker = root.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("tally/tally.sqlite").path
        #expect(throws: TallyError.storage("cannot create database at \(quoted(path)): Not a directory")) {
            try SQLiteStore(path: path)
        }
        #expect(try Data(contentsOf: blocker) == Data("x".utf8))
    }

    @Test func aFolderInPlaceOfTheFileIsAStorageError() throws {
        let path = try temporaryFolder().path
        #expect {
            try SQLiteStore(path: path)
        } throws: { error in
            guard case .storage(let message) = error as? TallyError else { return false }
            return message.hasPrefix("cannot open database at \(quoted(path))")
        }
    }

    @Test func twoConnectionsAddingFromSeveralThreadsAllSucceed() throws {
        let path = try temporaryFolder().appendingPathComponent("tally.sqlite").path
        let first = try SQLiteStore(path: path)
        let second = try SQLiteStore(path: path)
        let budget = try first.addBudget(Budget(name: "Shared", limit: Money(cents: 100_000)))
        let failures = Locked<[String]>([])
        let ids = Locked<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let store = thread.isMultiple(of: 2) ? first : second
            for index in 0..<15 {
                do {
                    let expense = try store.addExpense(
                        Expense(name: "T\(thread) #\(index)", amount: Money(cents: 1), date: try Day(parsing: "2026-01-01"), budgetID: budget.id ?? 0, tags: ["t\(thread % 3)"]))
                    ids.withLock { $0.append(expense.id ?? 0) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(Set(ids.withLock { $0 }).count == 120)
        #expect(try first.countExpenses(ExpenseQuery()) == 120)
        #expect(try second.status(ofBudgetNamed: "shared", in: Month(parsing: "2026-01")).spent == Money(cents: 120))
    }

    @Test func theInMemoryStoreStartsEmptyAndMigrated() throws {
        let store = try SQLiteStore.inMemory()
        #expect(try store.budgets() == [])
        _ = try store.addBudget(Budget(name: "Food", limit: Money(cents: 1)))
        #expect(try SQLiteStore.inMemory().budgets() == [], "each in-memory store is private")
    }

    @Test func reopeningKeepsEverything() throws {
        let path = try temporaryFolder().appendingPathComponent("tally.sqlite").path
        let clock = TestClock()
        let saved: Snapshot
        do {
            let store = try SQLiteStore(path: path, clock: { clock() })
            try SchemaFixtures.fillV1(store, clock: clock)
            saved = try Snapshot(store)
        }
        #expect(try Snapshot(SQLiteStore(path: path)) == saved)
    }

    // MARK: - Helpers

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    /// Bulk writes, budget removals and a failed import keep every month of `budgetMonth` equal to
    /// its expenses.
    @Test func bulkWritesKeepEachBudgetsMonthlyTotals() throws {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        let food = try store.addBudget(Budget(name: "Food", limit: Money(cents: 10_000)))
        let rent = try store.addBudget(Budget(name: "Rent", limit: Money(cents: 90_000)))
        let march = try Month(parsing: "2026-03")
        func expense(_ cents: Int64, _ quantity: Int64, _ date: String, _ budget: Budget) throws(TallyError) -> Expense {
            Expense(name: "E", amount: Money(cents: cents), quantity: quantity, date: try Day(parsing: date), budgetID: budget.id ?? 0)
        }
        _ = try store.addExpense(try expense(100, 1, "2026-03-01", food))
        try store.addExpenses([
            try expense(250, 2, "2026-03-31", food), try expense(70_000, 1, "2026-03-01", rent),
            try expense(999, 3, "2026-04-01", food), try expense(1, 1, "2026-02-28", food),
        ])
        _ = try store.importExpenses(ImportRequest(source: "march.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
            try insert(try expense(1_000, 1, "2026-03-15", food), "food")
            try insert(try expense(5, 10, "2025-03-15", food), "food")
            return "march"
        }
        #expect(try store.cacheMismatches() == [])
        #expect(try store.status(of: food, in: march).spent == Money(cents: 100 + 500 + 1_000))
        #expect(try store.status(of: food, in: march).expenseCount == 3)
        #expect(try store.status(of: rent, in: march).spent == Money(cents: 70_000))

        let first = try #require(try store.importRecord(fingerprint: "march"))
        expectError(.alreadyImported(file: "again.csv", importedAt: first.importedAt, expenseCount: 2)) {
            () throws(TallyError) in
            _ = try store.importExpenses(ImportRequest(source: "again.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
                try insert(try expense(1_000, 1, "2026-03-15", food), "food")
                return "march"
            }
        }
        _ = try store.addExpense(try expense(400, 1, "2026-03-20", food))
        #expect(try store.cacheMismatches() == [])
        #expect(try store.status(of: food, in: march).spent == Money(cents: 2_000))

        // Removing a budget takes its rows of both caches with its expenses, and nothing else.
        let extra = try store.addExpense(try expense(300, 1, "2026-03-02", rent))
        #expect(try store.removeBudget(named: "Food", includingExpenses: true) == 7)
        try store.removeExpense(id: extra.id ?? 0)
        #expect(try store.cacheMismatches() == [])
        #expect(try store.status(of: rent, in: march).spent == Money(cents: 70_000))
    }

    private func fill(path: String) throws {
        let store = try SQLiteStore(path: path)
        try SchemaFixtures.fillV1(store, clock: TestClock())
    }

    private func expectNotADatabase(_ path: String, bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(sourceLocation: sourceLocation) {
            try SQLiteStore(path: path)
        } throws: { error in
            guard case .notADatabase(let reportedPath, let reason) = error as? TallyError else { return false }
            return reportedPath == path && !reason.isEmpty
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"), sourceLocation: sourceLocation)
    }
}

private func randomBytes(count: Int) -> [UInt8] {
    var generator = SeededGenerator(seed: 42)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}
