import Foundation
import TallyTestSupport
import Testing

/// A `--db` that is not what it seems: Tally says so in one line, exits non-zero and leaves
/// the file exactly as it was, never recreating or upgrading what it cannot read.
@Suite(.ownThreads) struct HardeningFileTests {
    /// A read and a write, since a write is what could damage the file.
    static let commands = [["budget", "list"], ["add", "Bread", "2", "-b", "Food", "--date", "2026-03-10"]]

    @Test func aTextFileIsRefusedUnchanged() throws {
        let sandbox = try Sandbox()
        try Data("date,name,amount\n2026-03-10,Bread,2.50\n".utf8).write(to: URL(fileURLWithPath: sandbox.db))
        try expectRefusedUnchanged(sandbox, message: "is not a Tally database that can be read: file is not a database")
    }

    @Test(arguments: [false, true])
    func randomBytesAreRefusedUnchanged(withSQLiteHeader: Bool) throws {
        let sandbox = try Sandbox()
        var state: UInt64 = 0x0BAD_F11E
        var bytes = (0..<16_384).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        if withSQLiteHeader { bytes.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8)) }
        try Data(bytes).write(to: URL(fileURLWithPath: sandbox.db))
        try expectRefusedUnchanged(sandbox, message: "is not a Tally database that can be read")
    }

    /// Cut inside the header, at a page boundary, and one byte short: SQLite itself would open
    /// the last and write into it, corrupting an index.
    @Test(arguments: [50, 4096, 61_440, -1])
    func aTruncatedDatabaseIsRefusedUnchanged(length: Int) throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        try sandbox.ok(["add", "Tea", "3", "-b", "Food", "--date", "2026-03-11"])
        let full = try Data(contentsOf: URL(fileURLWithPath: sandbox.db))
        try full.prefix(length < 0 ? full.count + length : length).write(to: URL(fileURLWithPath: sandbox.db))
        try expectRefusedUnchanged(sandbox, message: "is not a Tally database that can be read")
    }

    @Test func anotherApplicationsDatabaseIsRefusedUnchanged() throws {
        let sandbox = try Sandbox()
        try Hardening.sqlite3([sandbox.db, "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Ann')"])
        try expectRefusedUnchanged(sandbox, message: "it is an SQLite database of another application")
    }

    @Test func aDatabaseFromANewerTallyIsNeitherOpenedNorUpgraded() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        try Hardening.sqlite3([sandbox.db, "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')"])
        try expectRefusedUnchanged(sandbox, message: "was written by a newer version of Tally (unknown migrations: v99-future)")
    }

    @Test func aFolderThatCannotBeCreatedIsReportedAndNothingIsWritten() throws {
        let sandbox = try Sandbox()
        let blocker = sandbox.directory.appendingPathComponent("notes.txt")
        try Data("a file where a folder should be".utf8).write(to: blocker)
        let before = try Hardening.files(in: sandbox.directory.path)
        for path in [blocker.path + "/sub/tally.sqlite", blocker.path + "/tally.sqlite"] {
            let outcome = try sandbox.run(["budget", "add", "Food", "--limit", "5", "--db", path], useDB: false)
            #expect(outcome.status == 1)
            #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot create database at"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Not a directory"), "\(outcome.stderr)")
        }
        let viaXDG = try sandbox.run(["budget", "list"], useDB: false, environment: ["XDG_DATA_HOME": blocker.path])
        #expect(viaXDG.isOneLineFailure && viaXDG.stderr.contains("Not a directory"), "\(viaXDG.stderr)")
        #expect(try Hardening.files(in: sandbox.directory.path) == before)
    }

    @Test func aFolderGivenAsTheDatabaseIsRefused() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.directory.appendingPathComponent("db").path
        let outcome = try sandbox.run(["budget", "list", "--db", folder], useDB: false)
        #expect(outcome.status == 1)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func anEmptyDatabasePathIsAUsageErrorNotTheDefaultDatabase() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "add", "Food", "--limit", "5", "--db", ""], useDB: false)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure && outcome.stderr.contains("--db needs a file path"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.appendingPathComponent("data").path).isEmpty)
    }

    /// Root ignores permissions, so there the commands run as `nobody` through `setpriv`.
    @Test func aReadOnlyDatabaseIsReadButNeverWritten() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        let folder = sandbox.directory.appendingPathComponent("db").path
        let dump = try Hardening.dump(sandbox.db)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.db))
        #expect(chmod(sandbox.db, 0o444) == 0)
        // A WAL database needs its folder writable even to be read: the `-shm` index lives there.
        #expect(chmod(folder, 0o777) == 0 && chmod(sandbox.directory.path, 0o755) == 0)
        let asUser = Hardening.isRoot ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""

        let read = try Hardening.shell(asUser + #""$TALLY" budget list --month 2026-03 --db "$1""#, arguments: [sandbox.db])
        #expect(read.status == 0 && read.stdout.contains("Food"), "\(read.stderr)")
        let write = try Hardening.shell(asUser + #""$TALLY" add Bread 2 -b Food --date 2026-03-10 --db "$1""#, arguments: [sandbox.db])
        #expect(write.status == 1)
        #expect(write.isOneLineFailure && write.stderr.contains("readonly database"), "\(write.stderr)")

        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.db)) == bytes)
        #expect(chmod(sandbox.db, 0o600) == 0)
        #expect(try Hardening.dump(sandbox.db) == dump)
    }

    /// `chattr +i` binds even root; skipped where the file system or capabilities refuse it.
    @Test func anImmutableDatabaseIsNeverWritten() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.db))
        guard try Hardening.shell(#"chattr +i "$1""#, arguments: [sandbox.db]).status == 0 else { return }
        defer { _ = try? Hardening.shell(#"chattr -i "$1""#, arguments: [sandbox.db]) }
        let write = try sandbox.run(["add", "Bread", "2", "-b", "Food", "--date", "2026-03-10"])
        #expect(write.status == 1)
        #expect(write.isOneLineFailure && write.stderr.contains("readonly database"), "\(write.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.db)) == bytes)
    }

    /// A full disk, imitated by a file size limit (`ulimit -f`, with SIGXFSZ ignored so that
    /// writes fail instead of killing the process): refused in one line, and the database
    /// still opens afterwards with every row.
    @Test func aFullDiskFailsCleanlyAndLosesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "100"])
        try sandbox.ok(["add", "Tea", "3", "-b", "Food", "--date", "2026-03-11"])
        let dump = try Hardening.dump(sandbox.db)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.db))
        let full = try Hardening.shell(
            #"trap '' XFSZ; ulimit -f 16; exec "$TALLY" add Bread 2 -b Food --date 2026-03-10 --db "$1""#,
            arguments: [sandbox.db])
        #expect(full.status == 1)
        #expect(full.isOneLineFailure, "\(full.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.db)) == bytes)
        try sandbox.ok(["budget", "list"])
        #expect(try Hardening.dump(sandbox.db) == dump)
        #expect(try Hardening.sqlite3([sandbox.db, "PRAGMA integrity_check"]) == "ok\n")
    }

    /// Both commands fail in one line, and every file of the database folder keeps its bytes:
    /// no `-wal` or `-shm` is left behind and nothing is created beside it.
    private func expectRefusedUnchanged(
        _ sandbox: Sandbox, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = (sandbox.db as NSString).deletingLastPathComponent
        let files = try Hardening.files(in: folder)
        for command in Self.commands {
            let outcome = try sandbox.run(command)
            #expect(outcome.status == 1, "\(command)", sourceLocation: sourceLocation)
            #expect(outcome.isOneLineFailure, "\(command): \(outcome.stderr)", sourceLocation: sourceLocation)
            #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)", sourceLocation: sourceLocation)
            #expect(try Hardening.files(in: folder) == files, "\(command)", sourceLocation: sourceLocation)
        }
    }
}
