import TallyCore
import TallyStores

/// The ledger a use case works on. Its store opens when a use case first needs it, after the
/// use case has checked its input; a ledger that does not exist yet is created only by a use
/// case that succeeds (see ``perform(_:)``).
public final class Ledger {
    private let location: StoreLocation?
    private var opened: (any DataAccess)?

    /// The ledger at `location`, not yet opened.
    public init(location: StoreLocation) {
        self.location = location
    }

    /// A store that is already open: tests run every use case in-process on an `InMemoryStore`.
    public init(store: any DataAccess) {
        location = nil
        opened = store
    }

    /// Whether a ledger is there already.
    public var exists: Bool { opened != nil || location?.exists ?? false }

    /// Runs `body` on the ledger's store. When there is no ledger yet, `body` runs on a new one
    /// that takes its place only if `body` succeeds; should another process create the ledger
    /// meanwhile, `body` runs again on that one.
    public func perform<T>(_ body: (any DataAccess) throws(TallyError) -> T) throws(TallyError) -> T {
        try perform(body, wrap: { $0 })
    }

    /// ``perform(_:)`` for a body that throws errors of its own as well.
    public func perform<T>(anyError body: (any DataAccess) throws -> T) throws -> T {
        try perform(body, wrap: { $0 as any Error })
    }

    private func perform<T, Failure: Error>(
        _ body: (any DataAccess) throws(Failure) -> T, wrap: (TallyError) -> Failure
    ) throws(Failure) -> T {
        if let opened { return try body(opened) }
        guard let location else { throw wrap(.storage("the ledger has no store")) }
        let opening: StoreLocation.Opening
        do { opening = try location.openOrStage() } catch { throw wrap(error) }
        switch opening {
        case .existing(let store):
            opened = store
            return try body(store)
        case .staged(let staged):
            let result: T
            do {
                result = try body(staged.store)
            } catch {
                staged.discard()
                throw error
            }
            do {
                if try staged.publish() { return result }
            } catch {
                throw wrap(error)
            }
            // Another process created the ledger meanwhile.
            let store: any DataAccess
            do { store = try location.open() } catch { throw wrap(error) }
            opened = store
            return try body(store)
        }
    }

    /// Closes the store if one is open.
    public func close() {
        try? opened?.close()
    }

    /// Closes the store and keeps it from being released: the process ends right after, and
    /// releasing an SQLite store would remove GRDB's notification observers and start a dispatch
    /// worker thread to dispose of its queue, work a `tally add` would pay for just to exit.
    /// What was written is committed whether or not this closes.
    public func closeUntilExit() {
        guard let opened else { return }
        try? opened.close()
        _ = Unmanaged.passRetained(opened as AnyObject)
    }
}
