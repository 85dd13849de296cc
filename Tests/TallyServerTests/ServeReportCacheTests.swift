import Foundation
import TallyCore
import TallyReports
import TallyStores
@testable import TallyServer
import TallyUseCases
import Testing

/// The month report is computed once per ledger revision (`ReportCache`), and a write by anyone,
/// this server or the CLI in another process, shows in the next read.
@Suite struct ServeReportCacheTests {
    @Test func aWriteByTheCLIBetweenTwoReadsShowsInTheSecond() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let month = Day.today().monthValue.isoString
        let path = "/api/report?month=\(month)"
        let arguments = ["report", "--month", month, "--format", "json"]
        let first = try await harness.request("GET", path).body
        #expect(first == (try harness.cli(arguments)))
        // Served again from the cache, unchanged.
        #expect(try await harness.request("GET", path).body == first)

        _ = try harness.cli(["add", "Cake", "7.25", "-b", "Food"])
        let second = try await harness.request("GET", path).body
        #expect(second != first)
        #expect(second == (try harness.cli(arguments)))
        #expect(second.contains("7.25") || second.contains("22.75"))

        // The server's own write, then the CLI's undo of it.
        let added = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json"], body: #"{"name": "Tea", "amount": "2", "budget": "Food"}"#)
        #expect(added.status == 201)
        let third = try await harness.request("GET", path).body
        let cliThird = try harness.cli(arguments)
        #expect(third != second)
        #expect(third == cliThird)
        _ = try harness.cli(["undo"])
        let fourth = try await harness.request("GET", path).body
        #expect(fourth == second)
        #expect(fourth == (try harness.cli(arguments)))

        // The HTML report reads the same kept value.
        let page = try await harness.request("GET", "/?month=\(month)")
        #expect(page.status == 200 && page.body.contains("Bread"))
        await harness.stop()
    }

    @Test func computesOnceForConcurrentRequestsAndAgainAfterARevision() async throws {
        let cache = ReportCache(limit: 3)
        let runs = Locked(0)
        let key = ReportCache.Key(month: "2026-01", today: Day.today())
        let ledger = Ledger(location: .memory)
        defer { ledger.close() }
        let report = try MonthReport(month: try Month(parsing: "2026-01")).run(in: ledger)
        let compute: @Sendable () async throws -> MonthlyReport = {
            runs.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(50))
            return report
        }
        let first = LedgerRevision(own: 0, store: "1")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await cache.entry(key, at: first, compute: compute) } }
            try await group.waitForAll()
        }
        #expect(runs.withLock { $0 } == 1)
        let entry = try await cache.entry(key, at: first, compute: compute)
        #expect(String(buffer: entry.json) == JSONRenderer().render(report).trimmingSuffixNewline() + "\n")
        #expect(runs.withLock { $0 } == 1)

        _ = try await cache.entry(key, at: LedgerRevision(own: 1, store: "1"), compute: compute)
        _ = try await cache.entry(key, at: LedgerRevision(own: 1, store: "2"), compute: compute)
        #expect(runs.withLock { $0 } == 3)

        // A failure is not kept; months past the limit do not pile up.
        struct Failure: Error {}
        let second = LedgerRevision(own: 2, store: "2")
        await #expect(throws: Failure.self) { try await cache.entry(key, at: second, compute: { throw Failure() }) }
        _ = try await cache.entry(key, at: second, compute: compute)
        #expect(runs.withLock { $0 } == 4)
        for month in ["2026-02", "2026-03", "2026-04", "2026-05"] {
            _ = try await cache.entry(ReportCache.Key(month: month, today: key.today), at: second, compute: compute)
        }
        #expect(cache.count <= 3)
    }
}

extension String {
    fileprivate func trimmingSuffixNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
