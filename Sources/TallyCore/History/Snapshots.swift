import Foundation

/// Why a snapshot of a ledger was written.
public enum SnapshotReason: String, Hashable, Sendable, CaseIterable {
    /// `tally backup create`.
    case manual
    /// Before the first change of a day.
    case daily
    /// Before an import.
    case `import`
    /// Before `db copy` wrote into this ledger.
    case copy
    /// Before a schema migration.
    case migration
    /// The state a `backup restore` replaced.
    case restore

    /// Whether the ledger's ``SnapshotKeeping/snapshotLimit()`` of 0 turns it off.
    public var isAutomatic: Bool { self != .manual && self != .restore }
}

/// A consistent copy of a ledger file, kept beside it.
public struct LedgerSnapshot: Hashable, Sendable {
    /// What `backup restore` takes: the time it was written, `YYYYMMDDTHHMMSS.mmmZ` (UTC).
    public var id: String
    public var when: Date
    public var path: String
    public var bytes: Int
    public var reason: SnapshotReason

    public init(id: String, when: Date, path: String, bytes: Int, reason: SnapshotReason) {
        self.id = id
        self.when = when
        self.path = path
        self.bytes = bytes
        self.reason = reason
    }
}

/// Snapshots of a ledger, newest kept: a capability of the file store only. A server's
/// database is backed up with its own tools, and an in-memory ledger has nothing to keep.
///
/// Automatic and manual snapshots share one rotation of ``snapshotLimit()`` files.
public protocol SnapshotKeeping: AnyObject {
    /// How many snapshots are kept (default 10); 0 turns automatic ones off.
    func snapshotLimit() throws(TallyError) -> Int
    func setSnapshotLimit(_ limit: Int) throws(TallyError)
    /// Every snapshot, newest first.
    func snapshots() throws(TallyError) -> [LedgerSnapshot]
    /// Writes a snapshot of the current state and removes the oldest beyond the limit (at least
    /// the new one stays). An automatic reason with a limit of 0 writes nothing and returns `nil`.
    func takeSnapshot(_ reason: SnapshotReason) throws(TallyError) -> LedgerSnapshot?
    /// Checks the snapshot `id`, snapshots the current state (reason ``SnapshotReason/restore``),
    /// then replaces the ledger with the snapshot as one write. Returns both.
    func restoreSnapshot(id: String) throws(TallyError) -> (restored: LedgerSnapshot, saved: LedgerSnapshot)
    /// Removes a snapshot taken before a change that then failed.
    func discardSnapshot(_ snapshot: LedgerSnapshot)
}

/// The checks the snapshot limit must pass, wherever it comes from.
public enum SnapshotLimit {
    public static let standard = 10
    public static let range = 0...1000

    public static func check(_ limit: Int) throws(TallyError) {
        guard range.contains(limit) else { throw .invalidSnapshotLimit(limit) }
    }
}
