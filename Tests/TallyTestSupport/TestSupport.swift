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

/// A new empty folder under the system temporary folder.
public func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("TallyTests", isDirectory: true)
        .appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
