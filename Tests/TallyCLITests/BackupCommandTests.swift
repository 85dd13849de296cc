import Foundation
import TallyTestSupport
import Testing

/// `tally backup` and the automatic snapshots, through the built binary.
@Suite(.ownThreads) struct BackupCommandTests {
    private func ledger() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        try sandbox.ok(["add", "Bread", "2.50", "-b", "Food", "--date", "2026-03-01", "--tag", "daily"])
        return sandbox
    }

    private func snapshots(_ sandbox: Sandbox) throws -> [[String: Any]] {
        let outcome = try sandbox.ok(["backup", "list", "--json"])
        return outcome.jsonArray
    }

    private func export(_ sandbox: Sandbox) throws -> String {
        try sandbox.ok(["export", "--format", "json"]).stdout
    }

    /// `backup create`, then changes, then `backup restore`: the export is the one from before.
    @Test func restoreBringsBackExactlyTheExportedLedger() throws {
        let sandbox = try ledger()
        // The day's first change to an existing ledger was snapshotted (creating it was not).
        #expect(try snapshots(sandbox).map { $0["reason"] as? String } == ["daily"])
        try sandbox.ok(["rule", "add", "bakery", "--budget", "Food"])
        try sandbox.ok(["settings", "set", "currency", "EUR"])
        let before = try export(sandbox)
        let created = try sandbox.ok(["backup", "create", "--json"]).jsonObject
        let id = try #require(created["id"] as? String)
        #expect(created["reason"] as? String == "manual")
        let path = try #require(created["path"] as? String)
        #expect(path == sandbox.db + ".snapshots/\(id)-manual.sqlite")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(created["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        let when = try #require(created["when"] as? String)
        #expect(when.hasSuffix("Z") && when.count == 24, "\(when)")

        try sandbox.ok(["add", "Cake", "9", "-b", "Food", "--date", "2026-03-02"])
        try sandbox.ok(["budget", "remove", "Food", "--yes"])
        try sandbox.ok(["budget", "add", "Rent", "--limit", "900"])
        let changed = try export(sandbox)
        #expect(changed != before)

        let restored = try sandbox.ok(["backup", "restore", id])
        #expect(restored.stdout.hasPrefix("Restored snapshot \(id) (manual, "))
        #expect(try export(sandbox) == before)
        let list = try snapshots(sandbox)
        #expect(list.map { $0["reason"] as? String } == ["restore", "manual", "daily"])
        // The state the restore replaced is a snapshot of its own, and restores back.
        let saved = try #require(list.first?["id"] as? String)
        try sandbox.ok(["backup", "restore", saved, "--json"])
        #expect(try export(sandbox) == changed)

        let table = try sandbox.ok(["backup", "list"]).stdout
        #expect(table.split(separator: "\n").first?.split(separator: " ") == ["ID", "When", "Reason", "Bytes"])
        #expect(table.contains("\(id)  "))
    }

    @Test func theLimitIsASettingOfTheLedger() throws {
        let sandbox = try ledger()
        #expect(try sandbox.ok(["settings", "show", "--json"]).jsonObject["snapshots"] as? Int == 10)
        #expect(try sandbox.ok(["settings", "show"]).stdout == "month-start 1\nwarn 80\ncurrency none\nhistory-days 365\ndefault-account none\nsnapshots 10\n")
        #expect(try sandbox.ok(["settings", "set", "snapshots", "2"]).stdout == "The newest 2 snapshots are now kept.\n")
        for _ in 0..<3 { try sandbox.ok(["backup", "create"]) }
        #expect(try snapshots(sandbox).map { $0["reason"] as? String } == ["manual", "manual"])
        #expect(try sandbox.ok(["settings", "set", "snapshots", "0"]).stdout == "Automatic snapshots are now off.\n")
        try sandbox.ok(["import", try csv(sandbox, "date,name,amount,budget\n2026-03-05,Milk,1.20,Food\n")])
        #expect(try snapshots(sandbox).count == 2, "no automatic snapshot")
        try sandbox.ok(["backup", "create"])
        #expect(try snapshots(sandbox).count == 3, "backup create works, and with 0 nothing is removed")

        let state = try sandbox.databaseSnapshot()
        for (value, message) in [
            ("-1", "tally: error: invalid value '-1': amounts, quantities, ids and pages cannot be negative"),
            ("many", "tally: error: invalid number of snapshots 'many': use a whole number from 0 to 1000"),
            ("1001", "tally: error: invalid number of snapshots 1001: use a whole number from 0 to 1000"),
            ("2.5", "tally: error: invalid number of snapshots '2.5': use a whole number from 0 to 1000"),
        ] {
            let outcome = try sandbox.run(["settings", "set", "snapshots", value])
            #expect(outcome.status == 64, "\(value)")
            #expect(outcome.isOneLineFailure, "\(value): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot() == state)
    }

    private func csv(_ sandbox: Sandbox, _ text: String) throws -> String {
        let url = sandbox.directory.appendingPathComponent("bank-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Before an import and before `db copy` into an existing file, a snapshot; a copy into a new
    /// file has nothing to keep.
    @Test func importsAndCopiesAreSnapshottedFirst() throws {
        let sandbox = try ledger()
        try sandbox.ok(["import", try csv(sandbox, "date,name,amount,budget\n2026-03-05,Milk,1.20,Food\n")])
        let list = try snapshots(sandbox)
        #expect(list.map { $0["reason"] as? String } == ["import", "daily"])
        let before = try #require(list.first?["id"] as? String)
        try sandbox.ok(["backup", "restore", before])
        #expect(!(try sandbox.ok(["expense", "list"]).stdout.contains("Milk")))

        let copy = sandbox.directory.appendingPathComponent("db/copy.sqlite").path
        try sandbox.ok(["db", "copy", sandbox.db, copy], useDB: false)
        #expect(!FileManager.default.fileExists(atPath: copy + ".snapshots"))
        // An existing, empty destination that has settings of its own.
        let other = sandbox.directory.appendingPathComponent("db/other.sqlite").path
        try sandbox.ok(["settings", "set", "warn", "50", "--db", other], useDB: false)
        try sandbox.ok(["db", "copy", sandbox.db, other], useDB: false)
        let copied = try sandbox.ok(["backup", "list", "--json", "--db", other], useDB: false).jsonArray
        #expect(copied.map { $0["reason"] as? String } == ["copy"])
    }

    /// Unknown ids and damaged snapshots: one line, nothing changed.
    @Test func badSnapshotsChangeNothing() throws {
        let sandbox = try ledger()
        let state = try sandbox.databaseSnapshot()
        let unknown = try sandbox.run(["backup", "restore", "20990101T000000.000Z"])
        #expect(unknown.status == 64)
        #expect(unknown.isOneLineFailure)
        #expect(unknown.stderr == "tally: error: no snapshot with id '20990101T000000.000Z'\n")
        #expect(try sandbox.databaseSnapshot() == state)

        let id = try #require(try snapshots(sandbox).first?["id"] as? String)
        let path = try #require(try snapshots(sandbox).first?["path"] as? String)
        // The header survives, the pages of the tables do not.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(4096..<bytes.count, with: Data(repeating: 0x5A, count: bytes.count - 4096))
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try sandbox.databaseSnapshot()
        let outcome = try sandbox.run(["backup", "restore", id])
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("tally: error: snapshot '\(id)' is damaged, nothing was restored: "), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot() == damaged)
    }

    /// A ledger elsewhere than in a file: a server is backed up with pg_dump, an in-memory
    /// ledger has no snapshots, and a missing file is not created.
    @Test func onlyLedgerFilesHaveSnapshots() throws {
        let sandbox = try Sandbox()
        for command in [["backup", "list"], ["backup", "create"], ["backup", "restore", "20260101T000000.000Z"]] {
            let missing = try sandbox.run(command)
            #expect(missing.isOneLineFailure && missing.status == 1, "\(command)")
            #expect(missing.stderr.hasPrefix("tally: error: no ledger at '/"), "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.db))
            let memory = try sandbox.run(command + ["--db", ":memory:"], useDB: false)
            #expect(memory.isOneLineFailure && memory.status == 1, "\(command)")
            #expect(memory.stderr == "tally: error: an in-memory ledger has no snapshots\n")
        }
    }

    @Test func aPostgreSQLLedgerIsBackedUpWithPgDump() throws {
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "backup").url
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300", "--db", url], useDB: false)
        for command in [["backup", "list"], ["backup", "create"], ["backup", "restore", "20260101T000000.000Z"], ["settings", "set", "snapshots", "3"]] {
            let outcome = try sandbox.run(command + ["--db", url], useDB: false)
            #expect(outcome.status == 1, "\(command)")
            #expect(outcome.isOneLineFailure, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr == "tally: error: snapshots are kept for ledger files only: back up a PostgreSQL ledger with pg_dump\n")
        }
        let settings = try sandbox.run(["settings", "show", "--json", "--db", url], useDB: false)
        #expect(settings.status == 0)
        #expect(settings.jsonObject["snapshots"] is NSNull)
    }

    /// The day's first change: a snapshot written on an earlier day does not count.
    @Test func theFirstChangeOfADayIsSnapshotted() throws {
        let sandbox = try ledger()
        let daily = try #require(try snapshots(sandbox).first)
        try sandbox.ok(["add", "Tea", "3", "-b", "Food"])
        #expect(try snapshots(sandbox).count == 1, "a second change the same day")
        // Yesterday's snapshot, as far as its name goes.
        let path = try #require(daily["path"] as? String)
        let yesterday = (path as NSString).deletingLastPathComponent + "/20200101T120000.000Z-daily.sqlite"
        try FileManager.default.moveItem(atPath: path, toPath: yesterday)
        try sandbox.ok(["budget", "list"])
        #expect(try snapshots(sandbox).count == 1, "a read is no change")
        try sandbox.ok(["add", "Tea", "3", "-b", "Food"])
        let list = try snapshots(sandbox)
        #expect(list.map { $0["reason"] as? String } == ["daily", "daily"])
        #expect(list.last?["id"] as? String == "20200101T120000.000Z")
    }

    /// A restore waits for a command that is writing, like any writer; when the other holds on
    /// past the busy timeout it fails cleanly and changes nothing.
    @Test func restoreWaitsForAWriterOrFailsCleanly() async throws {
        let sandbox = try ledger()
        let id = try #require(try snapshots(sandbox).first?["id"] as? String)
        try sandbox.ok(["add", "Cake", "9", "-b", "Food", "--date", "2026-03-02"])

        let holding = try holdWriteLock(sandbox.db, seconds: 7)
        let state = try sandbox.databaseSnapshot().filter { !$0.key.hasSuffix("-wal") && !$0.key.hasSuffix("-shm") }
        let refused = try await sandbox.runWaiting(["backup", "restore", id])
        try await offThread { holding.waitUntilExit() }
        #expect(refused.status == 1)
        #expect(refused.isOneLineFailure, "\(refused.stderr)")
        #expect(refused.stderr.contains("database is locked"), "\(refused.stderr)")
        #expect(try sandbox.databaseSnapshot().filter { !$0.key.hasSuffix("-wal") && !$0.key.hasSuffix("-shm") } == state)
        #expect(try sandbox.ok(["expense", "list"]).stdout.contains("Cake"))

        let brief = try holdWriteLock(sandbox.db, seconds: 1.5)
        let waited = try await sandbox.runWaiting(["backup", "restore", id])
        try await offThread { brief.waitUntilExit() }
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(!(try sandbox.ok(["expense", "list"]).stdout.contains("Cake")))
    }

    /// Another process (Python's sqlite3) holds the write lock for `seconds`; returns once it has it.
    private func holdWriteLock(_ path: String, seconds: Double) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            c.execute("UPDATE setting SET warnPercent = warnPercent")
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute('ROLLBACK')
            """,
            path, String(seconds),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("locked"))
        return process
    }

    /// kill -9 in the middle of `backup create` on a ledger big enough to take a while: the
    /// ledger and the earlier snapshots survive, `list` shows none of the half-written file,
    /// and the next snapshot clears it away.
    @Test func aSnapshotKilledHalfWayLeavesNothingBehindThatCounts() throws {
        let sandbox = try ledger()
        var rows = "date,name,amount,budget\n"
        for index in 0..<40_000 { rows += "2026-0\(index % 9 + 1)-1\(index % 10),Item \(index) with a longer name,\(index % 500 + 1).25,Food\n" }
        try sandbox.ok(["import", try csv(sandbox, rows)])
        let before = try snapshots(sandbox)
        let export = try self.export(sandbox)
        let folder = sandbox.db + ".snapshots"

        var killed = false
        for _ in 0..<5 where !killed {
            let process = Process()
            process.executableURL = Sandbox.tallyURL
            process.arguments = ["backup", "create", "--db", sandbox.db]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            while process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains(where: { $0.hasPrefix(".") && $0.contains(".tmp-") }) {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                    break
                }
                usleep(200)
            }
            process.waitUntilExit()
            if !killed {
                // It finished first: drop its snapshot and try again.
                let made = try snapshots(sandbox).filter { !before.map { $0["id"] as? String }.contains($0["id"] as? String) }
                for snapshot in made { try FileManager.default.removeItem(atPath: snapshot["path"] as? String ?? "") }
            }
        }
        #expect(killed, "backup create always finished before it could be killed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(!leftovers.isEmpty || !killed)
        #expect(try snapshots(sandbox).map { $0["id"] as? String } == before.map { $0["id"] as? String })
        #expect(try self.export(sandbox) == export)
        try sandbox.ok(["backup", "create"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }.isEmpty)
        #expect(try snapshots(sandbox).count == before.count + 1)
    }
}
