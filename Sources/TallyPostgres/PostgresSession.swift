import Foundation
import Logging
import PostgresNIO
import TallyCore

/// One connection to the server, used synchronously: `DataAccess` is synchronous, so every
/// query blocks the caller on its future. The connection's event loop is a thread of its own
/// (``PostgresSession/eventLoops``), never the caller's, so waiting cannot deadlock.
final class PostgresSession: @unchecked Sendable {
    /// One thread for every connection of the process: a CLI opens one, the tests a few dozen.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    let connection: PostgresConnection
    let logger: Logger
    let location: ServerLocation
    // A connection runs one statement at a time; the lock keeps a shared store's calls apart.
    let lock = NSRecursiveLock()
    /// The reply being waited for, and whether the connection has closed (see ``watch(_:)``).
    private let replyLock = NSLock()
    private var awaited: EventLoopPromise<PostgresQueryResult>?
    private var dropped = false
    /// A COPY still running on the server (``copy(into:columns:_:)``); the next statement waits for it.
    var copying: EventLoopFuture<Void>?
    /// Statements sent without waiting for their reply (a read transaction's BEGIN and COMMIT):
    /// the server answers in order, so the next reply waited for means these have their answers,
    /// and a failure among them is reported there. Each saves a round trip.
    private var unanswered: [EventLoopFuture<PostgresQueryResult>] = []

    init(_ location: ServerLocation) throws(TallyError) {
        self.location = location
        // No logging: a log line could carry a query's values, and nothing below the CLI prints.
        logger = Logger(label: "tally.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let configuration = try location.connectionConfiguration()
        do {
            connection = try Self.connect(configuration, within: .seconds(Int64(location.connectTimeout)), logger: logger)
        } catch {
            throw location.connectionFailure(error)
        }
        // postgres-nio writes a statement to its channel without a promise: on a channel that has
        // closed already (the server stopped between two statements) the write is dropped and the
        // statement's future never completes, so the caller's `wait()` would block forever. Closing
        // fails the reply being waited for instead, and later statements fail at once.
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed() }
    }

    /// Connects, giving up after `timeout` for the whole setup (TCP, TLS, startup message and
    /// authentication): NIO's `connectTimeout` bounds the TCP connect only, so a host that
    /// accepts and never answers would be waited for forever. postgres-nio 1.33.2 bounds its
    /// startup too; this bound does not rely on it. A connection that arrives after the timeout
    /// is closed.
    private static func connect(
        _ configuration: PostgresConnection.Configuration, within timeout: TimeAmount, logger: Logger
    ) throws -> PostgresConnection {
        let eventLoop = eventLoops.next()
        let connected = eventLoop.makePromise(of: PostgresConnection.self)
        let attempt = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: 1, logger: logger)
        // Both callbacks run on `eventLoop`, so whichever comes first decides: the attempt cancels
        // the deadline, or the deadline fails the promise (a later completion of it is ignored).
        let deadline = eventLoop.scheduleTask(in: timeout) {
            connected.fail(ChannelError.connectTimeout(timeout))
            attempt.whenSuccess { late in let _: EventLoopFuture<Void> = late.close() }
        }
        attempt.whenComplete { result in
            deadline.cancel()
            connected.completeWith(result)
        }
        return try connected.futureResult.wait()
    }

    private func connectionClosed() {
        replyLock.lock()
        dropped = true
        let promise = awaited
        awaited = nil
        replyLock.unlock()
        promise?.fail(ChannelError.ioOnClosedChannel)
    }

    /// Makes `promise` the reply being waited for; false, with `promise` failed, once closed.
    private func watch(_ promise: EventLoopPromise<PostgresQueryResult>?) -> Bool {
        replyLock.lock()
        let open = !dropped
        awaited = open ? promise : nil
        replyLock.unlock()
        if !open { promise?.fail(ChannelError.ioOnClosedChannel) }
        return open
    }

    private var closed = false

    /// Closes the connection once; later statements fail with a closed connection.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        _ = try? finishCopy()
        try? connection.close().wait()
    }

    // postgres-nio requires a connection to be closed before it goes away.
    deinit { close() }

    /// Runs `sql` with `binds` ($1, $2, … in order) and returns every row.
    @discardableResult
    func query(_ sql: String, _ binds: [SQLValue] = []) throws(TallyError) -> [PostgresRow] {
        lock.lock()
        defer { lock.unlock() }
        try finishCopy()
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds { value.append(to: &bindings) }
        let reply = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        defer { _ = watch(nil) }
        do {
            guard watch(reply) else { return try reply.futureResult.wait().rows }
            connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).cascade(to: reply)
            let rows = try reply.futureResult.wait().rows
            let answered = unanswered
            unanswered = []
            for earlier in answered { _ = try earlier.wait() }
            return rows
        } catch {
            unanswered = []
            throw location.failure(error)
        }
    }

    /// Sends `sql` without waiting for its reply (see `unanswered`).
    private func send(_ sql: String) throws(TallyError) {
        try finishCopy()
        guard watch(nil) else { throw location.failure(ChannelError.ioOnClosedChannel) }
        unanswered.append(connection.query(PostgresQuery(unsafeSQL: sql), logger: logger))
    }

    /// Runs `body` as one transaction. A write takes the ledger's writer lock first, so writers
    /// from every machine queue up instead of failing or losing each other's changes; a read
    /// sees one snapshot.
    func transaction<T>(writing: Bool, _ body: () throws(TallyError) -> T) throws(TallyError) -> T {
        lock.lock()
        defer { lock.unlock() }
        if writing {
            try query("BEGIN ISOLATION LEVEL READ COMMITTED")
            do {
                try query("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))")
            } catch {
                _ = try? query("ROLLBACK")
                throw error
            }
        } else {
            try send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        let result: T
        do {
            result = try body()
            try finishCopy()
        } catch {
            // A failed rollback means the connection is gone, and the server rolls back with it.
            _ = try? finishCopy()
            _ = try? query("ROLLBACK")
            throw error
        }
        // A read commits nothing, so its COMMIT's answer is checked with the next statement's.
        if writing { try query("COMMIT") } else { try send("COMMIT") }
        return result
    }

    /// The server's version, as `SHOW server_version` says.
    func serverVersion() throws(TallyError) -> String {
        try query("SHOW server_version").first.map { row throws(TallyError) in try row.string(0) } ?? ""
    }
}

/// A value bound to a statement's `$n`.
enum SQLValue: Sendable {
    case int(Int64?)
    case text(String?)
    case texts([String])
    case ints([Int64])

    func append(to bindings: inout PostgresBindings) {
        switch self {
        case .int(let value): bindings.append(value)
        case .text(let value): bindings.append(value)
        case .texts(let value): bindings.append(value)
        case .ints(let value): bindings.append(value)
        }
    }
}

extension PostgresRow {
    func int(_ index: Int) throws(TallyError) -> Int64 { try makeRandomAccess().int(index) }
    func optionalInt(_ index: Int) throws(TallyError) -> Int64? { try makeRandomAccess().optionalInt(index) }
    func string(_ index: Int) throws(TallyError) -> String { try makeRandomAccess().string(index) }
    func optionalString(_ index: Int) throws(TallyError) -> String? { try makeRandomAccess().optionalString(index) }
    func strings(_ index: Int) throws(TallyError) -> [String] { try makeRandomAccess().strings(index) }
    func ints(_ index: Int) throws(TallyError) -> [Int64] { try makeRandomAccess().ints(index) }

    func bool(_ index: Int) throws(TallyError) -> Bool {
        do { return try makeRandomAccess()[index].decode(Bool.self) } catch { throw .storage("a stored truth value cannot be read") }
    }
}

/// A row's cells by position. `makeRandomAccess()` walks the row's bytes to find each cell, so a
/// row read for several columns (an expense has eleven) is made random-access once.
extension PostgresRandomAccessRow {
    func int(_ index: Int) throws(TallyError) -> Int64 {
        guard let value = try optionalInt(index) else { throw .storage("a stored value that must be set is empty") }
        return value
    }

    func optionalInt(_ index: Int) throws(TallyError) -> Int64? {
        do { return try self[index].decode(Int64?.self) } catch { throw .storage("a stored number cannot be read") }
    }

    func string(_ index: Int) throws(TallyError) -> String {
        guard let value = try optionalString(index) else { throw .storage("a stored text that must be set is empty") }
        return value
    }

    func optionalString(_ index: Int) throws(TallyError) -> String? {
        do { return try self[index].decode(String?.self) } catch { throw .storage("a stored text cannot be read") }
    }

    func strings(_ index: Int) throws(TallyError) -> [String] {
        do { return try self[index].decode([String]?.self) ?? [] } catch { throw .storage("a stored list cannot be read") }
    }

    func ints(_ index: Int) throws(TallyError) -> [Int64] {
        do { return try self[index].decode([Int64]?.self) ?? [] } catch { throw .storage("a stored list cannot be read") }
    }
}
