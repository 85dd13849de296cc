import Foundation
import TallyTestSupport
import Testing

/// Several shells using one database at once: every command succeeds and nothing is lost.
@Suite(.ownThreads) struct HardeningConcurrencyTests {
    /// Eight processes, each a shell running fifty `tally add` one after the other, all at once.
    @Test func eightShellsAddingFiftyExpensesEachLoseNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "1000000"])
        let script = """
            worker=$1; db=$2
            for i in $(seq 1 50); do
                "$TALLY" add "Item $worker-$i" 1.25 -b Food --date 2026-03-10 --db "$db" >/dev/null || echo "add $worker-$i exited $?" >&2
            done
            """
        let db = sandbox.db
        let outcomes = try Self.concurrently(8) { worker in
            try Hardening.shell(script, arguments: ["\(worker)", db])
        }
        for (worker, outcome) in outcomes.enumerated() {
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "worker \(worker): \(outcome.stderr)")
        }
        let names = try sandbox.ok(["expense", "list", "--json", "--page-size", "1000"]).jsonArray.compactMap { $0["name"] as? String }
        #expect(names.count == 400)
        #expect(Set(names) == Set((0..<8).flatMap { worker in (1...50).map { "Item \(worker)-\($0)" } }))
        #expect(try Hardening.sqlite3([sandbox.db, "PRAGMA integrity_check"]) == "ok\n")
    }

    /// Eight processes opening a file that does not exist yet: one creates it, all migrate it
    /// and switch it to WAL at the same moment. Repeated, as such races only show sometimes.
    @Test func eightProcessesCreatingOneNewDatabaseAllSucceed() throws {
        let sandbox = try Sandbox()
        for round in 0..<10 {
            let db = sandbox.directory.appendingPathComponent("round\(round)/tally.sqlite").path
            let outcomes = try Self.concurrently(8) { worker in
                try Hardening.shell(#""$TALLY" budget add "Budget $1" --limit 10 --db "$2""#, arguments: ["\(worker)", db])
            }
            for (worker, outcome) in outcomes.enumerated() {
                #expect(outcome.status == 0, "round \(round), worker \(worker): \(outcome.stderr)")
            }
            let count = try Hardening.sqlite3([db, "SELECT COUNT(*) FROM budget"])
            #expect(count == "8\n", "round \(round)")
        }
    }

    /// Runs `body` for 0..<count on as many threads and returns the results in order.
    private static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = Locked<[Int: Result<T, any Error>]>([:])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                let result = Result { try body(index) }
                results.withLock { $0[index] = result }
                group.leave()
            }
        }
        group.wait()
        return try (0..<count).map { index in try results.withLock { $0[index] }?.get() ?? { throw Hardening.Failure("no result") }() }
    }
}
