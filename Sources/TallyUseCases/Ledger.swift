import TallyCore
import TallyStores

/// The ledger a use case works on. Its store opens on first use, so every use case validates its
/// input first: a command that fails on bad input never creates a database.
public final class Ledger {
    private let opener: () throws(TallyError) -> any DataAccess
    private let isPresent: () -> Bool
    private var opened: (any DataAccess)?

    /// The ledger at `location`, not yet opened.
    public init(location: StoreLocation) {
        opener = { () throws(TallyError) in try location.open() }
        isPresent = { location.exists }
    }

    /// A store that is already open: tests run every use case in-process on an `InMemoryStore`.
    public init(store: any DataAccess) {
        opener = { store }
        isPresent = { true }
        opened = store
    }

    /// Whether a ledger is there already; when it is not, a use case that may still fail after
    /// reading its input checks everything before it opens (and so creates) one.
    public var exists: Bool { opened != nil || isPresent() }

    /// The store, opened (and created, when new) on first use.
    public func store() throws(TallyError) -> any DataAccess {
        if let opened { return opened }
        let store = try opener()
        opened = store
        return store
    }

    /// Closes the store if it was opened. Commands end right after, so `tally add` closes without
    /// releasing (see `keepUntilExit`).
    public func close() {
        try? opened?.close()
    }

    /// Closes the store and keeps it from being released: the process ends right after, and
    /// releasing an SQLite store would remove GRDB's notification observers and start a dispatch
    /// worker thread to dispose of its queue, 0.2 ms of a `tally add`. What was written is
    /// committed whether or not this closes.
    public func closeUntilExit() {
        guard let opened else { return }
        try? opened.close()
        _ = Unmanaged.passRetained(opened as AnyObject)
    }
}
