import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// `kill -9` in the middle of a large import: whenever the process dies, the database is intact
/// and holds either none or all of the file's rows, never a part of them.
@Suite(.ownThreads) struct HardeningCrashTests {
    /// The import holds its write transaction from its start and writes nothing to the file
    /// before its commit (its 32 MB page cache takes some 2.5 MB of rows), so every kill lands
    /// before the transaction, inside it with the file untouched, in the commit's WAL write or
    /// after it: the states a larger file reaches, each import a tenth as long.
    static let rowCount = 20_000
    static let budgets = ["Food", "Rent", "Travel", "Café", "Health"]

    @Test func killedImportLeavesEitherNoneOrAllOfItsRows() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.directory
        let base = try Self.baseDatabase(sandbox)
        let oldCount = try Self.expenseCount(base)
        #expect(oldCount == 301)
        let csv = folder.appendingPathComponent("large.csv").path
        try Self.largeCSV(rows: Self.rowCount, seed: 0xC4A5_0001).write(to: URL(fileURLWithPath: csv))

        // One import that finishes: its length scales the moments of the kills below.
        let finished = try Self.copy(base, to: "finished", in: folder)
        let started = ContinuousClock.now
        let full = try sandbox.run(["import", csv, "--db", finished], useDB: false)
        var duration = started.duration(to: .now)
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stdout.hasPrefix("Imported \(Self.rowCount) expenses"), "\(full.stdout)")
        #expect(try Self.expenseCount(finished) == oldCount + Self.rowCount)
        #expect(try Hardening.sqlite3([finished, "PRAGMA integrity_check"]) == "ok\n")
        let repeated = try sandbox.run(["import", csv, "--db", finished], useDB: false)
        #expect(repeated.status == 0, "\(repeated.stderr)")
        #expect(repeated.stdout.hasPrefix("Imported 0 expenses") && repeated.stdout.contains("; \(Self.rowCount) rows already there; "), "\(repeated.stdout)")
        #expect(try Self.expenseCount(finished) == oldCount + Self.rowCount)

        var random = SeededGenerator(seed: 0x0000_DEAD_0009)
        var results: [(fraction: Double, killed: Bool, count: Int)] = []
        var reimported = false
        for (round, fraction) in Self.killMoments(using: &random).enumerated() {
            let db = try Self.copy(base, to: "round\(round)", in: folder)
            let roundStarted = ContinuousClock.now
            let exited = Locked<ContinuousClock.Instant?>(nil)
            let process = try Self.start(["import", csv, "--db", db], in: sandbox) { exited.withLock { $0 = .now } }
            Thread.sleep(forTimeInterval: Self.seconds(duration) * fraction)
            let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
            process.waitUntilExit()
            // The first import may have been slowed by the tests running beside it; an import
            // that finished before its kill says exactly how long one takes now.
            if !killed, let end = exited.withLock({ $0 }) { duration = min(duration, roundStarted.duration(to: end)) }
            let check = try Hardening.sqlite3([db, "PRAGMA integrity_check"])
            let count = try Self.expenseCount(db)
            results.append((fraction, killed, count))
            let moment = "round \(round), killed at \(Int(fraction * 100))% of \(duration)"
            #expect(check == "ok\n", "\(moment): \(check)")
            #expect(count == oldCount || count == oldCount + Self.rowCount, "\(moment): \(count) expenses")
            if !killed { #expect(process.terminationStatus == 0, "\(moment): exited \(process.terminationStatus)") }

            // Once, the interrupted import must be a clean slate: Tally opens the database,
            // does not take the file for imported, and the retry brings in every row.
            if killed, count == oldCount, !reimported, fraction > 0.3 {
                reimported = true
                let retry = try sandbox.run(["import", csv, "--db", db], useDB: false)
                #expect(retry.status == 0, "\(moment), retry: \(retry.stderr)")
                #expect(try Self.expenseCount(db) == oldCount + Self.rowCount, "\(moment), retry")
            }
            try? FileManager.default.removeItem(atPath: (db as NSString).deletingLastPathComponent)
        }
        // Otherwise the test would prove nothing: most kills must land while the import runs.
        let interrupted = results.filter { $0.killed && $0.count == oldCount }
        #expect(interrupted.count >= 5, "only \(interrupted.count) of 10 kills interrupted the import: \(results)")
        #expect(reimported, "no kill after 30% interrupted the import: \(results)")
    }

    /// Ten moments as fractions of a full import: three early, four mid-way and three near the
    /// commit, which comes within the last few percent (a kill after it must find every row).
    static func killMoments(using random: inout SeededGenerator) -> [Double] {
        let bands: [(ClosedRange<Double>, Int)] = [(0.02...0.25, 3), (0.3...0.75, 4), (0.92...1.02, 3)]
        var moments = bands.flatMap { band, count in (0..<count).map { _ in Double.random(in: band, using: &random) } }
        moments.shuffle(using: &random)
        return moments
    }

    /// Five budgets, 300 imported expenses and one added by hand, checkpointed into one file.
    static func baseDatabase(_ sandbox: Sandbox) throws -> String {
        for budget in budgets { try sandbox.ok(["budget", "add", budget, "--limit", "5000"]) }
        let small = sandbox.directory.appendingPathComponent("small.csv")
        try largeCSV(rows: 300, seed: 0x5A11).write(to: small)
        try sandbox.ok(["import", small.path])
        try sandbox.ok(["add", "Bread", "2.40", "-b", "Food", "--date", "2026-03-10"])
        try Hardening.sqlite3([sandbox.db, "PRAGMA wal_checkpoint(TRUNCATE)"])
        return sandbox.db
    }

    /// A file in the default header with quoted names, tags and every budget, from a seed.
    static func largeCSV(rows: Int, seed: UInt64) -> Data {
        var random = SeededGenerator(seed: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rows * 48)
        bytes.append(contentsOf: "date,budget,name,amount,quantity,tags\n".utf8)
        let tags = ["", "weekly", "work;travel", "gift", "\"a;b\""]
        for row in 0..<rows {
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            let budget = budgets[Int.random(in: 0..<budgets.count, using: &random)]
            let name = row % 97 == 0 ? "\"Item, \(row)\"" : "Item \(row)"
            let cents = Int.random(in: 1...999_999, using: &random)
            let quantity = Int.random(in: 0...3, using: &random)
            let tag = tags[Int.random(in: 0..<tags.count, using: &random)]
            let line = "2025-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day),\(budget),\(name),"
                + "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100),\(quantity == 0 ? "" : String(quantity)),\(tag)\n"
            bytes.append(contentsOf: line.utf8)
        }
        return Data(bytes)
    }

    /// The database file (and its WAL, if any) copied into a folder of its own.
    static func copy(_ database: String, to name: String, in folder: URL) throws -> String {
        let target = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let copy = target.appendingPathComponent("tally.sqlite").path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: database + suffix) {
            try FileManager.default.copyItem(atPath: database + suffix, toPath: copy + suffix)
        }
        return copy
    }

    static func expenseCount(_ database: String) throws -> Int {
        let text = try Hardening.sqlite3([database, "SELECT COUNT(*) FROM expense"])
        guard let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Hardening.Failure("not a count: \(text)")
        }
        return count
    }

    /// Starts `tally` without waiting, in the sandbox's environment, its output discarded.
    /// Starts `tally`; `onExit` runs, on another thread, as soon as it ends.
    static func start(_ arguments: [String], in sandbox: Sandbox, onExit: @escaping @Sendable () -> Void) throws -> Process {
        let process = Process()
        process.terminationHandler = { _ in onExit() }
        process.executableURL = Sandbox.tallyURL
        process.arguments = arguments
        process.environment = [
            "HOME": sandbox.directory.appendingPathComponent("home").path,
            "XDG_DATA_HOME": sandbox.directory.appendingPathComponent("data").path,
            "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

