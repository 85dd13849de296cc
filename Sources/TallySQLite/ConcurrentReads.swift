import Foundation
import GRDB

/// Lets reads from several threads run at once: SQLite runs a statement on one core, and a
/// `DatabaseQueue` serves one read at a time. A read that arrives while the store's own
/// connection is busy reading gets a read-only connection of its own (WAL lets readers proceed
/// side by side), opened on first need and kept for the next one.
///
/// A report reads its month and its five trend months this way on two cores at once.
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
