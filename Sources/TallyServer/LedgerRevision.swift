import Foundation
import GRDB
import TallyCore
import TallyPostgres
import TallyStores

/// The ledger's version as this process can tell it cheaply: two equal revisions, the first read
/// before some work and the second after, mean no write was committed in between, by this
/// server or by any other process (the CLI on the same file or database). Both parts only grow,
/// so a revision never comes back once a write has passed it: an answer computed after reading
/// a revision is right for as long as the ledger still reads as that revision.
struct LedgerRevision: Hashable, Sendable {
    /// Writes this server finished (counted after they commit).
    var own: Int
    /// What the store says about every writer: SQLite's `data_version` on a connection that
    /// never writes, PostgreSQL's snapshot; empty for an in-memory ledger, which only this
    /// process writes.
    var store: String
}

/// Reads the store's part of a ``LedgerRevision``.
final class RevisionProbe: @unchecked Sendable {
    /// A read-only connection of the probe's own: SQLite's `PRAGMA data_version` changes on it
    /// whenever any other connection, in this process (the shared store's) or another, commits.
    private let watcher: DatabaseQueue?

    init(location: StoreLocation) throws(TallyError) {
        guard case .file(let path) = location else {
            watcher = nil
            return
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            watcher = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw .storage("cannot watch \(path) for changes: \(error)")
        }
    }

    /// `store` is any store of the ledger, used only for a server's snapshot.
    func revision(of store: any DataAccess) throws(TallyError) -> String {
        if let watcher {
            do {
                // Outside a transaction: the pragma looks at the file's current state.
                return try watcher.inDatabase { db in String(try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0) }
            } catch {
                throw .storage("cannot read the ledger's version: \(error)")
            }
        }
        if let server = store as? PostgresStore { return try server.snapshotRevision() }
        return ""
    }

    func close() {
        try? watcher?.close()
    }
}
