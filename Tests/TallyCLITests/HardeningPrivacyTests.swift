import Foundation
import TallyTestSupport
import Testing

/// The database is readable by its owner only, and nothing about the user's spending is
/// written anywhere but the database and the files they ask for.
@Suite(.ownThreads) struct HardeningPrivacyTests {
    /// Even with `umask 000`, every folder Tally creates is 0700 and the database 0600.
    @Test func aNewDatabaseAndItsFoldersArePrivateWhateverTheUmask() throws {
        let sandbox = try Sandbox()
        let dataHome = sandbox.directory.appendingPathComponent("data/deeper/xdg")
        let outcome = try Hardening.shell(
            #"umask 000; exec "$TALLY" budget add Food --limit 5"#,
            environment: ["HOME": sandbox.directory.appendingPathComponent("home").path, "XDG_DATA_HOME": dataHome.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let database = dataHome.appendingPathComponent("tally/tally.sqlite").path
        #expect(try Hardening.permissions(database) == 0o600)
        for folder in ["data/deeper", "data/deeper/xdg", "data/deeper/xdg/tally"] {
            #expect(try Hardening.permissions(sandbox.directory.appendingPathComponent(folder).path) == 0o700, "\(folder)")
        }
    }

    /// The `-wal` and `-shm` files exist while a connection is open; one is held open by
    /// `sqlite3` while Tally writes, so that they can be looked at.
    @Test func theWALFilesAreNotReadableByOthers() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [sandbox.db]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        try input.fileHandleForWriting.write(contentsOf: Data("SELECT COUNT(*) FROM budget;\n".utf8))
        let outcome = try Hardening.shell(
            #"umask 000; exec "$TALLY" add Bread 2 -b Food --date 2026-03-10 --db "$1""#, arguments: [sandbox.db])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for sidecar in ["-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: sandbox.db + sidecar), "\(sidecar)")
            #expect(try Hardening.permissions(sandbox.db + sidecar) & 0o077 == 0, "\(sidecar)")
        }
    }

    /// Every command that reads or writes spending, with `TMPDIR`, `HOME` and `XDG_DATA_HOME`
    /// pointing at empty folders: they stay empty, and the database folder holds the
    /// database and its snapshot folder, where the day's first change left one private snapshot.
    @Test func nothingIsWrittenOutsideTheDatabaseAndTheAskedForFiles() throws {
        let sandbox = try Sandbox()
        let temporary = sandbox.directory.appendingPathComponent("tmp")
        let output = sandbox.directory.appendingPathComponent("out")
        for folder in [temporary, output] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let commands: [[String]] = [
            ["budget", "add", "Food", "--limit", "100"], ["budget", "add", "Rent", "--limit", "900"],
            ["add", "Bread", "2.50", "-b", "Food", "--date", "2026-03-10", "--tag", "daily"],
            ["add", "Flat", "850", "-b", "Rent", "--date", "2026-03-01"], ["budget", "list", "--month", "2026-03"],
            ["budget", "show", "Food", "--month", "2026-03", "--json"], ["expense", "list", "--json"],
            ["expense", "edit", "1", "--amount", "3"], ["report", "--month", "2026-03"],
            ["report", "--month", "2026-03", "--format", "json"],
            ["report", "--month", "2026-03", "--format", "html", "--output", output.appendingPathComponent("r.html").path],
            ["report", "--month", "2026-03", "--format", "png", "--output", output.appendingPathComponent("r.png").path],
            ["expense", "remove", "2"], ["budget", "remove", "Rent", "--yes"], ["add", "Bread", "x", "-b", "Food"],
        ]
        for command in commands {
            let outcome = try sandbox.run(command, environment: ["TMPDIR": temporary.path])
            #expect(outcome.status == (command.contains("x") ? 64 : 0), "\(command): \(outcome.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.appendingPathComponent("home").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.appendingPathComponent("data").path).isEmpty)
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: sandbox.directory.appendingPathComponent("db").path)) == ["tally.sqlite", "tally.sqlite.snapshots"])
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: sandbox.db + ".snapshots")
        #expect(snapshots.count == 1 && snapshots.allSatisfy { $0.hasSuffix("-daily.sqlite") }, "\(snapshots)")
        #expect(try Hardening.permissions(sandbox.db + ".snapshots") == 0o700)
        for name in snapshots { #expect(try Hardening.permissions(sandbox.db + ".snapshots/" + name) == 0o600) }
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: output.path)) == ["r.html", "r.png"])
    }
}
