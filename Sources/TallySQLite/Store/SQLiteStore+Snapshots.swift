import Foundation
import GRDB
import TallyCore

// Snapshots of the ledger file (`SnapshotKeeping`): written with `VACUUM INTO` under a temporary
// name, checked with `PRAGMA quick_check`, then linked into place; restored with SQLite's online
// backup API into the live file, inside its write lock. Where they live: `SnapshotFolder`.
extension SQLiteStore: SnapshotKeeping {
    public func snapshotLimit() throws(TallyError) -> Int {
        try read(Self.snapshotLimit)
    }

    public func setSnapshotLimit(_ limit: Int) throws(TallyError) {
        try SnapshotLimit.check(limit)
        try write { db in try db.execute(sql: "UPDATE setting SET snapshotLimit = ? WHERE id = 1", arguments: [limit]) }
    }

    public func snapshots() throws(TallyError) -> [LedgerSnapshot] {
        try snapshotFolder().list()
    }

    public func takeSnapshot(_ reason: SnapshotReason) throws(TallyError) -> LedgerSnapshot? {
        let folder = try snapshotFolder()
        // A file this store created holds nothing to keep yet (a new ledger, a staged one).
        if reason.isAutomatic, !keepsAutomaticSnapshots { return nil }
        let limit = try snapshotLimit()
        if reason.isAutomatic, limit == 0 { return nil }
        let snapshot = try dbWriter.writeWithoutTransactionOrFail { db throws(TallyError) in
            try Self.writeSnapshot(of: db, databasePath: path, into: folder, reason: reason, at: now)
        }
        folder.rotate(keeping: limit, sparing: [snapshot.id])
        return snapshot
    }

    public func restoreSnapshot(id: String) throws(TallyError) -> (restored: LedgerSnapshot, saved: LedgerSnapshot) {
        let folder = try snapshotFolder()
        guard let snapshot = folder.list().first(where: { $0.id == id }) else { throw .snapshotNotFound(id) }
        let source = try Self.openChecked(snapshot)
        defer { try? source.close() }
        let saved = try dbWriter.writeWithoutTransactionOrFail { db throws(TallyError) in
            try Self.writeSnapshot(of: db, databasePath: path, into: folder, reason: .restore, at: now)
        }
        do {
            // One step: the copy takes the live file's write lock (waiting on the busy timeout like
            // any writer), and other processes see the restored ledger as one commit.
            try source.backup(to: dbWriter)
        } catch {
            unlink(saved.path)
            // GRDB reports a busy backup step with the connection's last message, "not an error".
            let busy = (error as? DatabaseError).map { [.SQLITE_BUSY, .SQLITE_LOCKED].contains($0.resultCode) } ?? false
            let reason = busy ? "the database is locked by another command; try again" : Self.describe(error)
            throw .storage("cannot restore snapshot \(quoted(id)): \(reason)")
        }
        folder.rotate(keeping: (try? snapshotLimit()) ?? SnapshotLimit.standard, sparing: [saved.id, snapshot.id])
        return (snapshot, saved)
    }

    public func discardSnapshot(_ snapshot: LedgerSnapshot) {
        guard snapshot.path.hasPrefix(SnapshotFolder(databasePath: path).path + "/") else { return }
        unlink(snapshot.path)
        // Empty only when this snapshot made it; a folder with anything in it stays.
        rmdir(SnapshotFolder(databasePath: path).path)
    }

    // MARK: - The day's first change

    /// Before the first change of a day (in `TZ`, by the store's clock), a `daily` snapshot: one
    /// `readdir` of the snapshot folder a process when a snapshot of today is there, which is
    /// what `tally add` pays. The caller keeps it (and rotates) when its change commits, and
    /// discards it when the change fails: a refused command leaves every file as it was.
    func snapshotBeforeTheDaysFirstChange() throws(TallyError) -> PendingSnapshot? {
        guard keepsAutomaticSnapshots, dailyCheck.claim() else { return nil }
        let folder = SnapshotFolder(databasePath: path)
        let today = SnapshotFolder.localDay(of: now)
        guard !folder.hasSnapshot(from: today.start, to: today.end) else { return nil }
        let limit = try snapshotLimit()
        guard limit > 0 else { return nil }
        var isFolder: ObjCBool = false
        let folderExisted = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder)
        let snapshot = try dbWriter.writeWithoutTransactionOrFail { db throws(TallyError) in
            try Self.writeSnapshot(of: db, databasePath: path, into: folder, reason: .daily, at: now)
        }
        return PendingSnapshot(snapshot: snapshot, folder: folder, limit: limit, folderExisted: folderExisted, check: dailyCheck)
    }

    // MARK: - Writing and checking

    private func snapshotFolder() throws(TallyError) -> SnapshotFolder {
        guard path != ":memory:" else { throw .storage("an in-memory database has no snapshots") }
        return SnapshotFolder(databasePath: path)
    }

    static func snapshotLimit(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT snapshotLimit FROM setting WHERE id = 1")) ?? SnapshotLimit.standard
    }

    /// `VACUUM INTO` a temporary file made with the database's permissions, `quick_check` on it,
    /// then linked under its final name: a snapshot is there whole or not at all. `db` must be
    /// outside a transaction (SQLite refuses to vacuum inside one).
    static func writeSnapshot(
        of db: Database, databasePath: String, into folder: SnapshotFolder, reason: SnapshotReason, at when: Date
    ) throws(TallyError) -> LedgerSnapshot {
        let failure = { (reason: String) in TallyError.storage("cannot write a snapshot in \(quoted(folder.path)): \(reason)") }
        do {
            try FileSystem.makeFolder(folder.path)
        } catch {
            throw failure(error.reason)
        }
        folder.removeAbandonedTemporaries()
        var names = folder.names(for: reason, at: when)
        do {
            guard try FileSystem.createPrivateFile(names.temporary) else { throw FileSystem.Failure(errno: EEXIST) }
            var status = stat()
            if stat(databasePath, &status) == 0 { chmod(names.temporary, status.st_mode & 0o666) }
        } catch {
            throw failure(error.reason)
        }
        do {
            try db.execute(sql: "VACUUM INTO ?", arguments: [names.temporary])
            try checkIntegrity(names.temporary)
            try FileSystem.sync(names.temporary)
        } catch {
            unlink(names.temporary)
            throw failure(explanation(of: error))
        }
        // Another process may have written a snapshot the same millisecond: take the next one.
        var offset = 0.001
        while link(names.temporary, names.final) != 0 {
            let code = errno
            guard code == EEXIST else {
                unlink(names.temporary)
                throw failure(String(cString: strerror(code)))
            }
            let temporary = names.temporary
            names = folder.names(for: reason, at: when.addingTimeInterval(offset))
            names.temporary = temporary
            offset += 0.001
        }
        unlink(names.temporary)
        try? FileSystem.sync(folder.path)
        return LedgerSnapshot(id: names.id, when: SnapshotFolder.date(ofStamp: names.id) ?? when, path: names.final, bytes: FileSystem.size(names.final), reason: reason)
    }

    /// A read-only connection to a snapshot that passes ``checkIntegrity(_:)``.
    static func openChecked(_ snapshot: LedgerSnapshot) throws(TallyError) -> DatabaseQueue {
        do {
            try checkIntegrity(snapshot.path)
            return try DatabaseQueue(path: snapshot.path, configuration: snapshotReading)
        } catch {
            throw .storage("snapshot \(quoted(snapshot.id)) is damaged, nothing was restored: \(explanation(of: error))")
        }
    }

    private static func explanation(of error: any Error) -> String {
        (error as? TallyError)?.errorDescription ?? describe(error)
    }

    /// The whole file is there, `quick_check` finds nothing wrong, and it is a Tally database
    /// this build can open.
    static func checkIntegrity(_ path: String) throws {
        if let header = FileHeader(path: path), let expected = header.announcedSize, FileSystem.size(path) < expected {
            throw TallyError.storage("it is truncated")
        }
        let queue = try DatabaseQueue(path: path, configuration: snapshotReading)
        defer { try? queue.close() }
        try queue.read { db in
            let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard problems == ["ok"] else { throw TallyError.storage("quick_check: \(problems.prefix(3).joined(separator: "; "))") }
            let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let applied = try Schema.appliedMigrations(db)
            guard application == Schema.applicationID || applied.contains("v1") else {
                throw TallyError.storage("it is not a Tally database")
            }
            let unknown = applied.subtracting(Schema.knownMigrations)
            guard unknown.isEmpty else { throw TallyError.storage("it was written by a newer Tally") }
        }
    }

    private static var snapshotReading: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }
}

extension DatabaseWriter {
    /// `writeWithoutTransaction` for a body that throws only `TallyError`.
    fileprivate func writeWithoutTransactionOrFail<T>(_ body: (Database) throws(TallyError) -> T) throws(TallyError) -> T {
        do {
            return try writeWithoutTransaction { db in try body(db) }
        } catch let error as TallyError {
            throw error
        } catch {
            throw SQLiteStore.storageError(error)
        }
    }
}

/// A `daily` snapshot written before a change, kept or removed once the change is done.
struct PendingSnapshot {
    let snapshot: LedgerSnapshot
    let folder: SnapshotFolder
    let limit: Int
    let folderExisted: Bool
    let check: DailySnapshotCheck

    func keep() {
        folder.rotate(keeping: limit, sparing: [snapshot.id])
    }

    /// The change failed: the snapshot goes (and the folder, if it was made for it), and the
    /// next change of this process looks again.
    func discard() {
        unlink(snapshot.path)
        if !folderExisted { rmdir(folder.path) }
        check.reset()
    }
}

/// Whether this store has made its once-a-process check for the day's first change.
final class DailySnapshotCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    /// True the first time only.
    func claim() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }

    func reset() {
        lock.withLock { done = false }
    }
}
