import Foundation
import Testing

/// Collects mismatches and reports the first few, so one bug does not print ten thousand issues.
public struct FailureLog {
    public private(set) var messages: [String] = []
    public private(set) var count = 0

    public init() {}

    public mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        count += 1
        if messages.count < 10 { messages.append(message()) }
    }

    public func report(sourceLocation: SourceLocation = #_sourceLocation) {
        for message in messages { Issue.record("\(message)", sourceLocation: sourceLocation) }
        if count > messages.count { Issue.record("… and \(count - messages.count) more", sourceLocation: sourceLocation) }
    }
}

/// A value shared between threads behind a lock (Synchronization's Mutex needs macOS 15).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A clock that moves only when told to, starting at a time with sub-millisecond digits.
public final class TestClock: Sendable {
    private let state = Locked(Date(timeIntervalSince1970: 1_767_225_600.123_456))

    public init() {}

    public func callAsFunction() -> Date { state.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        state.withLock { $0 += seconds }
    }
}

/// Where the tests' files go: a folder of this test process, removed when it exits, on a RAM
/// file system with room to spare (`/dev/shm`) when there is one, else in the system temporary
/// folder. The tests make and remove tens of thousands of files (ledgers, sandboxes, a
/// PostgreSQL server's databases); on ext4 that cost the kernel about a third of the CPU of the
/// tests that run `tally`.
public let temporaryRoot: URL = {
    try? FileManager.default.createDirectory(atPath: temporaryRootPath, withIntermediateDirectories: true)
    // Others may search it: some tests run commands as `nobody` on files inside.
    chmod(temporaryRootPath, 0o755)
    // Registered first, so it runs after the handlers that stop the servers kept in it.
    atexit { try? FileManager.default.removeItem(atPath: temporaryRootPath) }
    return URL(fileURLWithPath: temporaryRootPath, isDirectory: true)
}()

private let temporaryRootPath: String = {
    var stats = statvfs()
    let spare = statvfs("/dev/shm", &stats) == 0 ? UInt64(stats.f_bavail) * UInt64(stats.f_frsize) : 0
    let parent = spare >= 8 << 30 && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : FileManager.default.temporaryDirectory.path
    return parent + "/tally-tests-\(getpid())"
}()

/// A new empty folder under ``temporaryRoot``.
public func temporaryFolder() throws -> URL {
    let url = temporaryRoot
        .appendingPathComponent("TallyTests", isDirectory: true)
        .appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The CPU time the calling thread has used, in seconds: what a test bounds when it guards
/// against a hang or a blow-up in synchronous code, so that a machine busy with other work
/// (parallel suites, builds) does not fail it the way a wall clock would.
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
