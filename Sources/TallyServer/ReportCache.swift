import Foundation
import NIOCore
import TallyCore
import TallyReports
import TallyUseCases

/// Compute once, render many: the month report for one ledger revision, kept until the ledger
/// changes. Fifty browsers or `wrk` connections asking for the same month cost one
/// `MonthReport` and one JSON rendering; each request pays only for reading the revision.
///
/// A report is kept under the revision read *before* it was computed. Revisions only move
/// forward (``LedgerRevision``), so a request that reads the same revision later is one no
/// write has passed since, and the kept report is what computing it again would give.
/// Concurrent requests for the same month and revision wait for the one computation.
final class ReportCache: @unchecked Sendable {
    /// A month as the request names it (`month=` as typed) on the day it is asked: `last` or
    /// the current period mean another month tomorrow, and a current period's pace depends on
    /// the day.
    struct Key: Hashable, Sendable {
        var month: String
        var today: Day
    }

    /// The report and its `/api/report` body.
    struct Entry: Sendable {
        var report: MonthlyReport
        var json: ByteBuffer
    }

    // Guards `revision` and `entries`.
    private let lock = NSLock()
    private var revision: LedgerRevision?
    private var entries: [Key: Task<Entry, any Error>] = [:]
    /// Months kept for one revision: enough for every month a household browses, bounded so
    /// requests for many months cannot grow the server's memory.
    private let limit: Int

    init(limit: Int = 24) {
        self.limit = limit
    }

    /// The entry for `key` at `revision`, computed by `compute` unless a request already did.
    /// A failure is not kept: the next request computes again.
    func entry(_ key: Key, at revision: LedgerRevision, compute: @escaping @Sendable () async throws -> MonthlyReport) async throws -> Entry {
        let task = lock.withLock { () -> Task<Entry, any Error> in
            if revision != self.revision {
                entries.removeAll()
                self.revision = revision
            }
            if let running = entries[key] { return running }
            if entries.count >= limit { entries.removeAll() }
            let task = Task { Self.entry(for: try await compute()) }
            entries[key] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            lock.withLock {
                if self.revision == revision, entries[key] == task { entries[key] = nil }
            }
            throw error
        }
    }

    /// `tally report --month M` for a request's `month=`, from the cache when the ledger has not
    /// changed since it was computed.
    func report(_ query: Parameters, in ledger: LedgerAccess) async throws -> Entry {
        let today = Day.today()
        let period = try query.period(today: today)
        let revision = try await ledger.revision()
        return try await entry(Key(month: query.text("month") ?? "", today: today), at: revision) {
            try await ledger.read { ledger, _ in try MonthReport(period: period, today: today).run(in: ledger) }
        }
    }

    /// How many reports are kept; for tests.
    var count: Int { lock.withLock { entries.count } }

    static func entry(for report: MonthlyReport) -> Entry {
        var text = JSONRenderer().render(report)
        // As `ReportOutput.emit` prints it, then `Console.write`'s newline.
        if text.hasSuffix("\n") { text.removeLast() }
        return Entry(report: report, json: ByteBuffer(string: text + "\n"))
    }
}
