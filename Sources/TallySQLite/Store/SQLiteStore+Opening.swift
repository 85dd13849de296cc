import Foundation
import GRDB
import TallyCore

// Opening a file: the connection's configuration, creating a new file with its permissions,
// and judging an existing one before anything may write to it.
extension SQLiteStore {
    // MARK: - Database Configuration

    /// A one-shot CLI process needs a single connection, so a `DatabaseQueue` in WAL mode:
    /// readers in other processes never block it, and it opens with less setup than a
    /// `DatabasePool`, whose extra connections a one-shot command would not use.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            guard !db.configuration.readonly else { return }
            try enableWAL(db)
            // WAL's usual NORMAL can lose the last commits on power loss; an expense must survive it.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    /// Switching a new file to WAL needs it alone, and SQLite answers BUSY at once instead of
    /// calling the busy handler when other processes open it at the same moment; so retry.
    private static func enableWAL(_ db: Database) throws {
        var attempt: UInt32 = 0
        while true {
            do {
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 100 {
                attempt += 1
                usleep(5_000 * min(attempt, 10))
            }
        }
    }

    /// Returns whether it created the file; creates the missing folders 0700 and the file 0600,
    /// before SQLite opens it, so its `-wal` and `-shm` files inherit the file's mode.
    static func createFileIfMissing(at path: String) throws(TallyError) -> Bool {
        guard path != ":memory:", !FileManager.default.fileExists(atPath: path) else { return false }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileSystem.makeFolder(folder.isEmpty ? "." : folder)
            return try FileSystem.createPrivateFile(path)
        } catch {
            throw .storage("cannot create database at \(quoted(path)): \(error.reason)")
        }
    }

    /// Checks an existing file through a read-only connection before anything may write to it.
    ///
    /// Another process may be creating the same new file this very moment, so an error that is
    /// not a verdict on the file is retried before it is reported.
    static func inspect(_ path: String) throws(TallyError) {
        try checkNotTruncated(path)
        var attempt: UInt32 = 0
        while true {
            do throws(TallyError) {
                return try inspectOnce(path)
            } catch {
                attempt += 1
                guard case .storage = error, attempt < 5 else { throw error }
                usleep(20_000 * attempt)
            }
        }
    }

    /// SQLite trusts the page count in a file's header and reads missing pages as zeros, so a
    /// file cut short (a partial copy, a full disk) would open and the next write corrupt it.
    /// A WAL or a rollback journal may still hold the missing pages, so only a file without
    /// either is judged.
    private static func checkNotTruncated(_ path: String) throws(TallyError) {
        guard hasNoWALOrJournal(path), let header = FileHeader(path: path) else { return }
        try checkNotTruncated(path, header)
    }

    private static func checkNotTruncated(_ path: String, _ header: FileHeader) throws(TallyError) {
        guard let expected = header.announcedSize, FileSystem.size(path) < expected else { return }
        throw .notADatabase(path: path, reason: "it is truncated: \(FileSystem.size(path)) bytes of the \(expected) its header announces")
    }

    /// Whether the header alone shows a Tally database of this version, which needs no
    /// inspection: inspecting would open a second, read-only connection on every `tally add`.
    /// A WAL or a journal may hold a newer header, so a file with either is inspected.
    static func isCurrentTallyFile(_ path: String) throws(TallyError) -> Bool {
        guard hasNoWALOrJournal(path), let header = FileHeader(path: path) else { return false }
        try checkNotTruncated(path, header)
        return header.applicationID == Schema.applicationID && header.userVersion == Schema.version
    }

    private static func hasNoWALOrJournal(_ path: String) -> Bool {
        FileSystem.size(path + "-wal") == 0 && FileSystem.size(path + "-journal") == 0
    }

    private static func inspectOnce(_ path: String) throws(TallyError) {
        let sidecars = ["-wal", "-shm"].map { path + $0 }.filter { !FileManager.default.fileExists(atPath: $0) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            let verdict = try dbQueue.read(Self.verdict)
            try dbQueue.close()
            switch verdict {
            case .tally: return
            case .otherApplication:
                throw TallyError.notADatabase(path: path, reason: "it is an SQLite database of another application")
            case .tooNew(let unknown):
                throw TallyError.databaseTooNew(path: path, unknownMigrations: unknown)
            }
        } catch {
            let failure = openingError(error, path: path)
            // A read-only connection may leave empty WAL files behind; remove those it made, but
            // only on a verdict and while the WAL is empty: after any other error another process
            // may be using them, and deleting a live WAL loses its commits.
            let wal = path + "-wal"
            let walIsEmpty = FileSystem.size(wal) == 0
            switch failure {
            case .notADatabase, .databaseTooNew:
                if walIsEmpty {
                    for sidecar in sidecars { try? FileManager.default.removeItem(atPath: sidecar) }
                }
            default: break
            }
            throw failure
        }
    }

    private enum Verdict {
        case tally, otherApplication, tooNew([String])
    }

    private static func verdict(_ db: Database) throws -> Verdict {
        let applied = try Schema.appliedMigrations(db)
        if applied.isEmpty {
            let tables = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!'") ?? 0
            let onlyMigrations = try tables == 1 && db.tableExists("grdb_migrations")
            return tables == 0 || onlyMigrations ? .tally : .otherApplication
        }
        guard applied.contains("v1") else { return .otherApplication }
        let unknown = applied.subtracting(Schema.knownMigrations)
        return unknown.isEmpty ? .tally : .tooNew(unknown.sorted())
    }
}
