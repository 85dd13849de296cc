import Dispatch
import Foundation
import TallyCore
import TallyStores
import TallyUseCases

/// The ledger behind the server. Use cases block (the stores are synchronous), so they run on
/// threads of their own, never on the event loops or Swift's cooperative pool. A ledger file
/// is one shared `SQLiteStore`, which serves reads from several threads at once
/// (`ConcurrentReads`) and one writer: many stores on one file in one process, opened and closed
/// under load, ended in SQLite "disk I/O error"s in the load run. A server ledger gives each use
/// case a store no other thread is using (a `PostgresStore` is one connection); idle ones are
/// kept for the next request. Writes take turns in this process (the stores make writers from
/// other processes take turns as well), so concurrent quick adds never race for a budget.
final class LedgerAccess: @unchecked Sendable {
    private let location: StoreLocation
    // Guards `idle` and `closed`.
    private let lock = NSLock()
    private var idle: [any DataAccess] = []
    private var closed = false
    /// The one store of a ledger file, shared by every request.
    private let shared: (any DataAccess)?
    private let writer = NSLock()
    private let queue = DispatchQueue(label: "tally.serve.ledger", attributes: .concurrent)
    /// Stores kept open between requests.
    private let keptOpen = 8
    private let probe: RevisionProbe
    /// Writes finished by this process, guarded by `lock`: part of ``LedgerRevision``.
    private var ownWrites = 0

    /// Opens the ledger once, so a missing or unreadable one fails before the server starts.
    init(location: StoreLocation) throws(TallyError) {
        self.location = location
        let store = try location.open()
        do {
            // After the store, which makes sure the ledger is there.
            probe = try RevisionProbe(location: location)
        } catch {
            try? store.close()
            throw error
        }
        if case .server = location {
            shared = nil
            idle.append(store)
        } else {
            shared = store
        }
    }

    /// Runs a use case that only reads.
    func read<T: Sendable>(_ body: @escaping @Sendable (Ledger, any DataAccess) throws -> T) async throws -> T {
        try await run(writing: false, body)
    }

    /// Runs a use case that writes, one at a time.
    func write<T: Sendable>(_ body: @escaping @Sendable (Ledger, any DataAccess) throws -> T) async throws -> T {
        try await run(writing: true, body)
    }

    /// The ledger's version now, read before the work whose answer is kept under it.
    func revision() async throws -> LedgerRevision {
        let own = lock.withLock { ownWrites }
        let store = try await read { [probe] _, store in try probe.revision(of: store) }
        return LedgerRevision(own: own, store: store)
    }

    /// Closes every idle store; called once the server has stopped taking requests.
    func close() {
        let stores = lock.withLock {
            closed = true
            defer { idle.removeAll() }
            return idle
        }
        for store in stores { try? store.close() }
        try? shared?.close()
        probe.close()
    }

    private func run<T: Sendable>(writing: Bool, _ body: @escaping @Sendable (Ledger, any DataAccess) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.withStore(writing: writing, body) })
            }
        }
    }

    private func withStore<T>(writing: Bool, _ body: (Ledger, any DataAccess) throws -> T) throws -> T {
        // Counted once the write has committed or failed, so a revision read during it differs from every later one.
        defer { if writing { lock.withLock { ownWrites += 1 } } }
        if let shared {
            if writing { writer.lock() }
            defer { if writing { writer.unlock() } }
            return try body(Ledger(store: shared), shared)
        }
        let store = try lock.withLock { idle.popLast() } ?? location.open()
        defer { giveBack(store) }
        if writing { writer.lock() }
        defer { if writing { writer.unlock() } }
        return try body(Ledger(store: store), store)
    }

    private func giveBack(_ store: any DataAccess) {
        let kept = lock.withLock { () -> Bool in
            guard !closed, idle.count < keptOpen else { return false }
            idle.append(store)
            return true
        }
        if !kept { try? store.close() }
    }
}
