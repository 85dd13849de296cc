import TallyCore
import TallyStores

/// `backup list|create|restore` and the snapshot limit: snapshots are a file ledger's
/// (``SnapshotKeeping``). A server location is refused before anything connects, with the tool
/// that backs it up; an in-memory ledger has none.
enum Backups {
    /// Runs `body` on the snapshots of the ledger at `location`, which must exist unless
    /// `creating` (a setting may be the first thing a new ledger gets).
    static func perform<T>(
        at location: StoreLocation, creating: Bool = false, _ body: (any SnapshotKeeping) throws(TallyError) -> T
    ) throws(TallyError) -> T {
        switch location {
        case .server: throw .storage("snapshots are kept for ledger files only: back up a PostgreSQL ledger with pg_dump")
        case .memory, .unusableServer: throw .storage("an in-memory ledger has no snapshots")
        case .file: break
        }
        guard creating || location.exists else { throw .storage("no ledger at \(quoted(location.description))") }
        return try Ledger(location: location).perform { (store: any DataAccess) throws(TallyError) in
            guard let keeper = store as? SnapshotKeeping else { throw .storage("\(quoted(location.description)) keeps no snapshots") }
            return try body(keeper)
        }
    }
}

/// `backup list`: every snapshot, newest first.
public struct ListSnapshots: Sendable {
    public init() {}

    public func run(at location: StoreLocation) throws(TallyError) -> [LedgerSnapshot] {
        try Backups.perform(at: location) { (keeper: any SnapshotKeeping) throws(TallyError) in try keeper.snapshots() }
    }
}

/// `backup create`: a snapshot now, whatever the limit says about automatic ones.
public struct CreateSnapshot: Sendable {
    public init() {}

    public func run(at location: StoreLocation) throws(TallyError) -> LedgerSnapshot {
        try Backups.perform(at: location) { (keeper: any SnapshotKeeping) throws(TallyError) in
            guard let snapshot = try keeper.takeSnapshot(.manual) else { throw .storage("no snapshot was written") }
            return snapshot
        }
    }
}

/// `backup restore ID`: the ledger as the snapshot holds it, the state it replaces kept as a
/// snapshot of its own.
public struct RestoreSnapshot: Sendable {
    public var id: String

    public init(id: String) {
        self.id = id
    }

    public func run(at location: StoreLocation) throws(TallyError) -> (restored: LedgerSnapshot, saved: LedgerSnapshot) {
        try Backups.perform(at: location) { (keeper: any SnapshotKeeping) throws(TallyError) in try keeper.restoreSnapshot(id: id) }
    }
}

/// `settings set snapshots N`: how many snapshots are kept; 0 turns automatic ones off.
public struct SetSnapshotLimit: Sendable {
    public var limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    public func run(at location: StoreLocation) throws(TallyError) -> Int {
        try SnapshotLimit.check(limit)
        return try Backups.perform(at: location, creating: true) { (keeper: any SnapshotKeeping) throws(TallyError) in
            try keeper.setSnapshotLimit(limit)
            return try keeper.snapshotLimit()
        }
    }
}

/// The snapshot limit `settings show` adds: `nil` for a ledger that keeps no snapshots.
public struct ShowSnapshotLimit: Sendable {
    public init() {}

    public func run(in ledger: Ledger) throws(TallyError) -> Int? {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try (store as? SnapshotKeeping)?.snapshotLimit() }
    }
}

/// The automatic snapshot a use case takes before it changes a ledger in bulk (an import, a
/// `db copy` into it): nothing for a store that keeps none, a new ledger, or a limit of 0.
extension DataAccess {
    func snapshotBefore(_ reason: SnapshotReason) throws(TallyError) {
        _ = try (self as? SnapshotKeeping)?.takeSnapshot(reason)
    }

    /// `change` after such a snapshot, which goes again when `change` fails: a refused import
    /// leaves the files as they were.
    func afterSnapshot<T>(_ reason: SnapshotReason, _ change: () throws(TallyError) -> T) throws(TallyError) -> T {
        let keeper = self as? SnapshotKeeping
        let snapshot = try keeper?.takeSnapshot(reason)
        do {
            return try change()
        } catch {
            if let snapshot { keeper?.discardSnapshot(snapshot) }
            throw error
        }
    }
}
