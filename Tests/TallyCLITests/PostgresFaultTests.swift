import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// `kill -9` of tally in the middle of a large import into a server ledger: the import is one
/// transaction, so the server rolls it back and the database has none or all of its rows.
@Suite struct PostgresFaultTests {
    static let rowCount = 30_000

    @Test func killedImportLeavesNoneOrAllOfItsRowsOnTheServer() throws {
        let server = try PostgresTestServer.get()
        let sandbox = try Sandbox()
        let csv = sandbox.directory.appendingPathComponent("large.csv").path
        try HardeningCrashTests.largeCSV(rows: Self.rowCount, seed: 0xC4A5_0017).write(to: URL(fileURLWithPath: csv))

        func ledger() throws -> (name: String, url: String) {
            let database = try server.makeDatabase(prefix: "kill")
            for budget in HardeningCrashTests.budgets {
                let added = try sandbox.run(["budget", "add", budget, "--limit", "5000", "--db", database.url], useDB: false)
                #expect(added.status == 0, "\(added.stderr)")
            }
            return database
        }
        func count(_ database: String) throws -> Int { Int(try server.psql("SELECT count(*) FROM expense", database: database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }

        // One import that finishes: its length scales the moments of the kills below.
        let finished = try ledger()
        let started = ContinuousClock.now
        let full = try sandbox.run(["import", csv, "--db", finished.url], useDB: false)
        let duration = HardeningCrashTests.seconds(started.duration(to: .now))
        #expect(full.status == 0, "\(full.stderr)")
        #expect(try count(finished.name) == Self.rowCount)

        var interrupted = 0
        var retried = false
        for fraction in [0.1, 0.3, 0.5, 0.7, 0.9] {
            let database = try ledger()
            let process = try HardeningCrashTests.start(["import", csv, "--db", database.url], in: sandbox) {}
            Thread.sleep(forTimeInterval: duration * fraction)
            let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
            process.waitUntilExit()
            // The server notices the dropped connection and rolls the transaction back.
            var rows = try count(database.name)
            for _ in 0..<50 where rows != 0 && rows != Self.rowCount {
                Thread.sleep(forTimeInterval: 0.1)
                rows = try count(database.name)
            }
            #expect(rows == 0 || rows == Self.rowCount, "killed at \(Int(fraction * 100))%: \(rows) rows")
            if killed && rows == 0 {
                interrupted += 1
                if !retried {
                    // The interrupted import is a clean slate: the file is not taken for imported.
                    retried = true
                    let retry = try sandbox.run(["import", csv, "--db", database.url], useDB: false)
                    #expect(retry.status == 0, "retry: \(retry.stderr)")
                    #expect(try count(database.name) == Self.rowCount)
                }
            }
        }
        // Otherwise the test would prove nothing: kills must land while the import runs.
        #expect(interrupted >= 2, "only \(interrupted) of 5 kills interrupted the import")
    }
}
