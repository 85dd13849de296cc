import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing
@testable import TallySQLite

/// Snapshots of a ledger file: written whole, checked, rotated, and restored into the live file.
@Suite(.ownThreads) struct SnapshotTests {
    /// A ledger file with one budget and one expense, closed; reopening it gives a store that
    /// takes automatic snapshots (a store that created its file has nothing to keep yet).
    private func ledgerFile() throws -> String {
        let path = try temporaryFolder().appendingPathComponent("tally.sqlite").path
        let store = try SQLiteStore(path: path)
        let budget = try store.addBudget(Budget(name: "Food", limit: Money(cents: 30_000)))
        _ = try store.addExpense(Expense(name: "Bread", amount: Money(cents: 250), date: Day(parsing: "2026-01-03"), budgetID: budget.id ?? 0))
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + ".snapshots"), "a new ledger has no snapshot")
        return path
    }

    private func addBread(_ store: SQLiteStore) throws {
        _ = try store.addExpense(Expense(name: "Bread", amount: Money(cents: 250), date: Day(parsing: "2026-01-04"), budgetID: 1))
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func aSnapshotIsACheckedCopyWithTheDatabasesPermissions() throws {
        let path = try ledgerFile()
        let clock = TestClock()
        let store = try SQLiteStore(path: path, clock: { clock() })
        let snapshot = try #require(try store.takeSnapshot(.manual))
        #expect(snapshot.id == "20260101T000000.123Z")
        #expect(snapshot.path == path + ".snapshots/20260101T000000.123Z-manual.sqlite")
        #expect(snapshot.bytes == FileSystem.size(snapshot.path) && snapshot.bytes > 0)
        #expect(try mode(snapshot.path) == 0o600)
        #expect(try mode(path + ".snapshots") == 0o700)
        // It opens as the ledger did, with every row.
        let copy = try SQLiteStore(path: snapshot.path)
        #expect(try copy.countExpenses(ExpenseQuery()) == 1)
        #expect(try store.snapshots() == [snapshot])
        #expect(try store.snapshots().first?.when == snapshot.when)
    }

    @Test func aSnapshotTakesTheModeOfTheDatabase() throws {
        let path = try ledgerFile()
        chmod(path, 0o640)
        let store = try SQLiteStore(path: path)
        let snapshot = try #require(try store.takeSnapshot(.manual))
        #expect(try mode(snapshot.path) == 0o640)
    }

    /// Manual and automatic snapshots share one rotation of the newest N; a limit of 0 writes no
    /// automatic snapshot and removes none, and `backup create` still works.
    @Test func rotationKeepsTheNewestOfEveryKind() throws {
        let path = try ledgerFile()
        let clock = TestClock()
        let store = try SQLiteStore(path: path, clock: { clock() })
        try store.setSnapshotLimit(3)  // the day's first change: a daily snapshot
        #expect(try store.snapshots().map(\.reason) == [.daily])
        for reason in [SnapshotReason.manual, .import, .manual, .copy] {
            clock.advance(by: 1)
            _ = try store.takeSnapshot(reason)
        }
        #expect(try store.snapshots().map(\.reason) == [.copy, .manual, .import])
        #expect(try store.snapshots().map(\.id) == ["20260101T000004.123Z", "20260101T000003.123Z", "20260101T000002.123Z"])
        let files = try FileManager.default.contentsOfDirectory(atPath: path + ".snapshots").sorted()
        #expect(files == ["20260101T000002.123Z-import.sqlite", "20260101T000003.123Z-manual.sqlite", "20260101T000004.123Z-copy.sqlite"])

        try store.setSnapshotLimit(0)
        clock.advance(by: 1)
        #expect(try store.takeSnapshot(.import) == nil)
        #expect(try store.takeSnapshot(.daily) == nil)
        for _ in 0..<3 {
            clock.advance(by: 1)
            #expect(try store.takeSnapshot(.manual) != nil)
        }
        #expect(try store.snapshots().count == 6)
        expectError(.invalidSnapshotLimit(-1)) { () throws(TallyError) in try store.setSnapshotLimit(-1) }
        expectError(.invalidSnapshotLimit(1001)) { () throws(TallyError) in try store.setSnapshotLimit(1001) }
        #expect(try store.snapshotLimit() == 0)
    }

    /// The day's first change is snapshotted before it is written; later changes that day are
    /// not, and the next day's first one is (the store's clock stands in for today).
    @Test func theFirstChangeOfEachDayIsSnapshottedFirst() throws {
        let path = try ledgerFile()
        let clock = TestClock()
        clock.advance(by: 9 * 3600)
        var store = try SQLiteStore(path: path, clock: { clock() })
        _ = try store.budgets()
        #expect(try store.snapshots().isEmpty, "reading changes nothing")
        try addBread(store)
        let daily = try #require(try store.snapshots().first)
        #expect(daily.reason == .daily)
        #expect(try SQLiteStore(path: daily.path).countExpenses(ExpenseQuery()) == 1, "taken before the change")
        try addBread(store)
        store = try SQLiteStore(path: path, clock: { clock() })
        clock.advance(by: 3600)
        try addBread(store)
        #expect(try store.snapshots().count == 1, "one a day")

        clock.advance(by: 24 * 3600)
        store = try SQLiteStore(path: path, clock: { clock() })
        try addBread(store)
        let snapshots = try store.snapshots()
        #expect(snapshots.map(\.reason) == [.daily, .daily])
        #expect(try SQLiteStore(path: snapshots[0].path).countExpenses(ExpenseQuery()) == 4)
    }

    @Test func restoreBringsBackTheSnapshotAndKeepsWhatItReplaced() throws {
        let path = try ledgerFile()
        let clock = TestClock()
        let store = try SQLiteStore(path: path, clock: { clock() })
        let before = try Snapshot(store)
        let snapshot = try #require(try store.takeSnapshot(.manual))
        clock.advance(by: 1)
        try addBread(store)
        _ = try store.removeBudget(named: "Food", includingExpenses: true)
        _ = try store.addBudget(Budget(name: "Rent", limit: Money(cents: 100_000)))
        let changed = try Snapshot(store)

        // Another connection stays open across the restore, as another process would.
        let other = try SQLiteStore(path: path)
        #expect(try Snapshot(other) == changed)
        clock.advance(by: 1)
        let (restored, saved) = try store.restoreSnapshot(id: snapshot.id)
        #expect(restored == snapshot)
        #expect(saved.reason == .restore)
        #expect(try Snapshot(other) == before, "other connections see the restored ledger")
        try store.close()
        #expect(try Snapshot(SQLiteStore(path: path)) == before)
        #expect(try Snapshot(SQLiteStore(path: saved.path)) == changed)
        #expect(try Snapshot(other) == before)
        try other.close()
    }

    /// A damaged snapshot is refused before anything is replaced or written.
    @Test func aDamagedSnapshotIsNotRestored() throws {
        let path = try ledgerFile()
        let store = try SQLiteStore(path: path)
        for index in 0..<200 {
            _ = try store.addExpense(
                Expense(name: "Row \(index) " + String(repeating: "x", count: 100), amount: Money(cents: 100), date: Day(parsing: "2026-01-05"), budgetID: 1))
        }
        let snapshot = try #require(try store.takeSnapshot(.manual))
        let state = try Snapshot(store)
        let others = try FileManager.default.contentsOfDirectory(atPath: path + ".snapshots")
        // Page 3 on: the pages of the tables and indexes, garbage now.
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: snapshot.path))
        try file.seek(toOffset: 3 * 4096)
        try file.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 4))
        try file.close()

        do {
            _ = try store.restoreSnapshot(id: snapshot.id)
            Issue.record("a damaged snapshot was restored")
        } catch {
            guard case .storage(let message) = error else { throw error }
            #expect(message.hasPrefix("snapshot '\(snapshot.id)' is damaged, nothing was restored: "))
        }
        #expect(try Snapshot(store) == state)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + ".snapshots") == others)

        expectError(.snapshotNotFound("20990101T000000.000Z")) { () throws(TallyError) in
            try store.restoreSnapshot(id: "20990101T000000.000Z")
        }
    }

    /// A crash in the middle of a snapshot leaves a temporary file: `list` ignores it, the next
    /// snapshot removes it, and the older snapshots and the database are untouched.
    @Test func aTemporaryLeftByACrashIsIgnoredThenRemoved() throws {
        let path = try ledgerFile()
        let clock = TestClock()
        let store = try SQLiteStore(path: path, clock: { clock() })
        let first = try #require(try store.takeSnapshot(.manual))
        // A process that has ended: its pid is free.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let leftover = path + ".snapshots/.20260101T000001.000Z-daily.sqlite.tmp-\(ended.processIdentifier)"
        try Data("half a database".utf8).write(to: URL(fileURLWithPath: leftover))
        // One of a process still running (this one) is its snapshot in progress: kept.
        let inProgress = path + ".snapshots/.20260101T000001.500Z-daily.sqlite.tmp-\(getpid())"
        try Data().write(to: URL(fileURLWithPath: inProgress))

        #expect(try store.snapshots() == [first])
        clock.advance(by: 2)
        let second = try #require(try store.takeSnapshot(.manual))
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(FileManager.default.fileExists(atPath: inProgress))
        #expect(try store.snapshots() == [second, first])
        #expect(try store.countExpenses(ExpenseQuery()) == 1)
    }

    /// A folder that cannot be written: one error, nothing changed.
    @Test func anUnwritableSnapshotFolderFailsTheSnapshotAndChangesNothing() throws {
        let path = try ledgerFile()
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: path + ".snapshots"))
        let store = try SQLiteStore(path: path)
        do {
            _ = try store.takeSnapshot(.manual)
            Issue.record("a snapshot was written")
        } catch {
            #expect(error == .storage("cannot write a snapshot in \(quoted(path + ".snapshots")): Not a directory"))
        }
        // The day's first change needs its snapshot first, so it is refused too.
        #expect(throws: TallyError.self) { try addBread(store) }
        #expect(try store.countExpenses(ExpenseQuery()) == 1)
        #expect(try String(contentsOfFile: path + ".snapshots", encoding: .utf8) == "not a folder")
    }

    /// A file of an older schema is snapshotted as it was before it is migrated.
    @Test func aMigrationIsPrecededByASnapshotOfTheOldFile() throws {
        let path = try copiedFixture("schema-v7.sqlite", as: "old.sqlite")
        let store = try SQLiteStore(path: path)
        let snapshots = try store.snapshots()
        #expect(snapshots.map(\.reason) == [.migration])
        let old = try #require(FileHeader(path: snapshots[0].path))
        #expect(old.userVersion == 7)
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshots[0].path)).count == snapshots[0].bytes)
        #expect(try store.pragma("user_version") == String(Schema.version))
        #expect(try store.snapshotLimit() == 10)
        // Restoring it brings the old schema back, and opening migrates it again.
        _ = try store.restoreSnapshot(id: snapshots[0].id)
        try store.close()
        #expect(FileHeader(path: path)?.userVersion == 7 || FileSystem.size(path + "-wal") > 0)
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.pragma("user_version") == String(Schema.version))
        #expect(try reopened.countExpenses(ExpenseQuery()) == 7)
    }

    @Test func stampsReadBackAsTheirTimes() throws {
        let date = Date(timeIntervalSince1970: 1_767_225_600.123_9)
        #expect(SnapshotFolder.stamp(of: date) == "20260101T000000.123Z")
        #expect(SnapshotFolder.date(ofStamp: "20260101T000000.123Z") == Date(timeIntervalSince1970: 1_767_225_600.123))
        #expect(SnapshotFolder.date(ofStamp: "2026010XT000000.123Z") == nil)
        #expect(SnapshotFolder.date(ofStamp: "20261301T000000.123Z") == nil)
    }
}
