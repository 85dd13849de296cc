import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// `kill -9` of tally in the middle of a large import into a server ledger: the import is one
/// transaction, so the server rolls it back and the database has none or all of its rows.
@Suite(.ownThreads) struct PostgresFaultTests {
    static let rowCount = 15_000

    @Test func killedImportLeavesNoneOrAllOfItsRowsOnTheServer() throws {
        let server = try PostgresTestServer.get()
        let sandbox = try Sandbox()
        let csv = sandbox.directory.appendingPathComponent("large.csv").path
        try HardeningCrashTests.largeCSV(rows: Self.rowCount, seed: 0xC4A5_0017).write(to: URL(fileURLWithPath: csv))

        let seed = try PostgresFaultTests.budgetsLedger(on: server, in: sandbox)
        func ledger() throws -> (name: String, url: String) { try server.makeDatabase(prefix: "kill", template: seed) }
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

    /// A ledger of the five budgets, made by `tally` once; each round's ledger is a copy of it
    /// (`CREATE DATABASE … TEMPLATE`), which costs no launches of `tally` and `tally-postgres`.
    static func budgetsLedger(on server: PostgresTestServer, in sandbox: Sandbox) throws -> String {
        let database = try server.makeDatabase(prefix: "budgets")
        for budget in HardeningCrashTests.budgets {
            try sandbox.prepare(["budget", "add", budget, "--limit", "5000", "--db", database.url], useDB: false)
        }
        return database.name
    }
}

/// The faults of issue 17 that need a server of their own or several processes at once.
@Suite(.ownThreads) struct PostgresConcurrencyFaultTests {
    /// The server is stopped (`pg_ctl stop -m fast`: it ends every session and rolls its
    /// transaction back; `-m immediate`: it ends without a word to the clients) in the middle of an import: tally exits by itself with exit 1 and one
    /// line naming the server, and once the server is started again it has none or all of the rows.
    @Test func aServerStoppedInTheMiddleOfAnImportKeepsNoneOrAllOfItsRows() throws {
        let server = try PostgresTestServer.makePrivate()
        let sandbox = try Sandbox()
        let rows = PostgresFaultTests.rowCount
        let csv = sandbox.directory.appendingPathComponent("large.csv").path
        try HardeningCrashTests.largeCSV(rows: rows, seed: 0x5709_0017).write(to: URL(fileURLWithPath: csv))
        let seed = try PostgresFaultTests.budgetsLedger(on: server, in: sandbox)
        func ledger() throws -> (name: String, url: String) { try server.makeDatabase(prefix: "stop", template: seed) }
        func count(_ database: String) throws -> Int {
            Int(try server.psql("SELECT count(*) FROM expense", database: database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let finished = try ledger()
        let started = ContinuousClock.now
        #expect(try sandbox.run(["import", csv, "--db", finished.url], useDB: false).status == 0)
        let duration = HardeningCrashTests.seconds(started.duration(to: .now))

        var interrupted = 0
        for (fraction, mode) in [(0.2, "fast"), (0.5, "immediate"), (0.8, "fast")] {
            let database = try ledger()
            let done = Locked(false)
            let process = Process()
            process.executableURL = Sandbox.tallyURL
            process.arguments = ["import", csv, "--db", database.url]
            process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "TALLY_USER": ""]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            process.terminationHandler = { _ in done.withLock { $0 = true } }
            try process.run()
            Thread.sleep(forTimeInterval: duration * fraction)
            let stoppedWhileRunning = process.isRunning
            try server.stop(mode: mode)
            // tally notices the closed connection and exits by itself: a statement waiting for its
            // reply fails when the connection closes (it used to wait forever).
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.1) }
            let hung = process.isRunning
            if hung {
                Issue.record("still running 10 s after the server stopped (\(mode)) at \(Int(fraction * 100))%")
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try server.start()
            let kept = try count(database.name)
            #expect(kept == 0 || kept == rows, "stopped at \(Int(fraction * 100))%: \(kept) rows")
            guard !hung else { continue }
            if process.terminationStatus == 0 {
                // The import had finished before the server stopped.
                #expect(kept == rows)
                continue
            }
            #expect(process.terminationStatus == 1, "stopped (\(mode)) at \(Int(fraction * 100))%: exit \(process.terminationStatus)")
            #expect(kept == 0)
            #expect(message.split(separator: "\n").count == 1, "one line: \(message)")
            #expect(message.contains("\(server.host):\(server.port)"), "names the server: \(message)")
            #expect(!message.contains("postgresql://") && !message.contains("@"), "no URL or credentials: \(message)")
            if stoppedWhileRunning { interrupted += 1 }
        }
        #expect(interrupted >= 1, "no stop landed while the import ran")
    }

    /// Two processes import the same file into one server ledger at once: each row once.
    @Test func twoProcessesImportingTheSameFileAtOnceWriteEachRowOnce() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "twice")
        let sandbox = try Sandbox()
        let rows = 5_000
        let csv = sandbox.directory.appendingPathComponent("same.csv").path
        try HardeningCrashTests.largeCSV(rows: rows, seed: 0x7_1CE).write(to: URL(fileURLWithPath: csv))
        for budget in HardeningCrashTests.budgets {
            #expect(try sandbox.run(["budget", "add", budget, "--limit", "5000", "--db", database.url], useDB: false).status == 0)
        }
        let outcomes = try Self.atOnce(2, sandbox: sandbox) { _ in ["import", csv, "--db", database.url] }
        #expect(outcomes.filter { $0 == 0 }.count >= 1, "\(outcomes)")
        let count = try server.psql("SELECT count(*), count(DISTINCT (name, amountCents, date, budgetId)) FROM expense", database: database.name)
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "\(rows)|\(rows)", "every row once, each name once: \(count)")
        #expect(try server.psql("SELECT count(*) FROM importedFile", database: database.name).hasPrefix("1"))
    }

    /// Two processes post the same recurring rules at once: each occurrence once.
    @Test func twoProcessesPostingRecurringBillsAtOnceNeverPostTwice() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "post")
        let sandbox = try Sandbox()
        func run(_ arguments: [String]) throws {
            let outcome = try sandbox.run(arguments + ["--db", database.url], useDB: false)
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        }
        try run(["budget", "add", "Home", "--limit", "5000"])
        try run(["recurring", "add", "Rent", "950", "--budget", "Home", "--every", "month", "--day", "1", "--start", "2024-01-01"])
        try run(["recurring", "add", "Paper", "3", "--budget", "Home", "--every", "week", "--day", "mon", "--start", "2024-01-01"])
        for _ in 0..<3 {
            let outcomes = try Self.atOnce(2, sandbox: sandbox) { _ in ["recurring", "post", "--through", "2026-03-01", "--db", database.url] }
            #expect(outcomes == [0, 0], "\(outcomes)")
        }
        // 27 months of rent from 2024-01 through 2026-03, and every Monday from 2024-01-01 to 2026-02-23.
        let mondays = (try Day(parsing: "2026-03-01").ordinal - (try Day(parsing: "2024-01-01")).ordinal) / 7 + 1
        let counts = try server.psql(
            "SELECT count(*), count(DISTINCT (name, date)), (SELECT count(*) FROM recurringPayment) FROM expense", database: database.name)
        #expect(counts.trimmingCharacters(in: .whitespacesAndNewlines) == "\(27 + mondays)|\(27 + mondays)|\(27 + mondays)", "\(counts)")
    }

    /// Runs `count` tally processes at once; their exit statuses in order.
    static func atOnce(_ count: Int, sandbox: Sandbox, arguments: (Int) -> [String]) throws -> [Int32] {
        var processes: [Process] = []
        for index in 0..<count {
            let process = Process()
            process.executableURL = Sandbox.tallyURL
            process.arguments = arguments(index)
            process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "TALLY_USER": ""]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            processes.append(process)
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        return processes.map(\.terminationStatus)
    }
}

/// The tests' throwaway server runs to the end of the test process: it must hold none of the
/// process's pipes. One it inherited kept another test waiting for the end of a `tally`'s
/// output, and kept CI's reader waiting for the end of the run's, until CI's time ran out.
@Suite(.ownThreads) struct PostgresTestServerTests {
    @Test func theServerHoldsNoneOfTheTestProcessesPipes() throws {
        let held = Pipe()  // open while the server starts, as another test's would be
        let server = try PostgresTestServer.makePrivate()
        defer { try? server.stop(mode: "immediate") }
        let pidFile = try String(contentsOfFile: server.folder + "/data/postmaster.pid", encoding: .utf8)
        let pid = try #require(pidFile.split(separator: "\n").first.flatMap { Int32($0) })
        func pipes(of process: String) throws -> Set<String> {
            let folder = "/proc/\(process)/fd"
            return Set(try FileManager.default.contentsOfDirectory(atPath: folder).compactMap { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + fd)).flatMap { $0.hasPrefix("pipe:") ? $0 : nil }
            })
        }
        let ours = try pipes(of: "self")
        #expect(!ours.isEmpty, "the test holds a pipe: \(held.fileHandleForWriting.fileDescriptor)")
        let shared = try pipes(of: String(pid)).intersection(ours)
        #expect(shared.isEmpty, "the server holds the test process's \(shared.sorted())")
    }
}
