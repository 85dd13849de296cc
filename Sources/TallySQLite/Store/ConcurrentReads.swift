import Foundation
import GRDB
import TallyCore

/// Lets reads from several threads run at once: SQLite runs a statement on one core, and a
/// `DatabaseQueue` serves one read at a time. A read that arrives while the store's own
/// connection is busy reading gets a read-only connection of its own (WAL lets readers proceed
/// side by side), opened on first need and kept for the next one.
///
/// `prices` reads the halves of the table this way.
final class ConcurrentReads: @unchecked Sendable {
    // Guards `mainIsReading` and `idle`.
    private let lock = NSLock()
    private var mainIsReading = false
    private var idle: [DatabaseQueue] = []

    func read<T>(_ main: any DatabaseWriter, _ value: (Database) throws -> T) throws -> T {
        lock.lock()
        // An in-memory database exists only on its own connection.
        guard mainIsReading, main.path != ":memory:" else {
            let owns = !mainIsReading
            mainIsReading = true
            lock.unlock()
            defer {
                if owns { lock.withLock { mainIsReading = false } }
            }
            return try main.read(value)
        }
        let spare = idle.popLast()
        lock.unlock()
        let reader = try spare ?? DatabaseQueue(path: main.path, configuration: Self.readOnly)
        defer { lock.withLock { idle.append(reader) } }
        return try reader.read(value)
    }

    private static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        return configuration
    }
}

/// A read run on another thread from the moment it is made, for a store method that splits one
/// large read in two; `value()` waits for it. Through ``ConcurrentReads`` it gets a connection
/// of its own while the calling thread reads on the store's.
final class BackgroundRead<Value: Sendable>: @unchecked Sendable {
    // Written once by the worker before `done` is signalled, read only after waiting on it.
    private var result: Result<Value, TallyError> = .failure(.storage("the background read did not finish"))
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws(TallyError) -> Value) {
        DispatchQueue.global().async {
            self.result = Result { () throws(TallyError) in try body() }
            self.done.signal()
        }
    }

    /// Call once.
    func value() throws(TallyError) -> Value {
        done.wait()
        return try result.get()
    }
}
