import Foundation
import Testing

/// Runs each test of a suite on ``TestThreads`` instead of Swift's cooperative pool.
///
/// Swift Testing starts every test at once, but a synchronous test body holds one of the
/// pool's threads (one per core) until it returns, also while it only waits: for a launched
/// `tally`, a PostgreSQL round trip, a sleep. With two cores the run was two tests at a
/// time, the cores idle for a third of it, and `async` tests (the server's) waited for the
/// end. Apply it to suites whose tests wait synchronously: `@Suite(.ownThreads)`.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OwnThreads? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreads {
    /// See ``OwnThreads``.
    public static var ownThreads: OwnThreads { OwnThreads() }
}

/// A task executor of a few threads of its own (twice the cores, at least four) taking jobs
/// first in, first out: enough tests at once to keep the cores busy while some wait.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    public static let shared = TestThreads(threads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test-thread-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
