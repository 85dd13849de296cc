import Foundation
import TallyTestSupport
import Testing

/// The root command: help, version and the error contract every command shares.
@Suite(.ownThreads) struct TallyTests {
    @Test func helpMatchesGolden() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["--help"], useDB: false)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        try expectGolden(outcome.stdout, named: "help.txt")
    }

    @Test func subcommandHelpGoesToStdout() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["expense", "list", "--help"], useDB: false)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("--page-size"))
        #expect(outcome.stderr.isEmpty)
    }

    @Test func versionIsPrinted() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["--version"], useDB: false)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "0.1.0\n")
    }

    /// libgd and the fifty libraries it needs are loaded by the first picture, not by every
    /// command: they cost each fresh process 7 ms. glibc's `LD_DEBUG=files` names each library
    /// as it is loaded.
    @Test func libgdIsLoadedOnlyToDrawAPicture() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "300"])
        let add = try sandbox.run(["add", "Bread", "2.50", "--budget", "Food"], environment: ["LD_DEBUG": "files"])
        #expect(add.status == 0, "\(add.stderr.suffix(300))")
        #expect(add.stderr.contains("libsqlite3"), "LD_DEBUG reported the loaded libraries")
        #expect(!add.stderr.contains("libgd"))
        let output = sandbox.directory.appendingPathComponent("report.png").path
        let png = try sandbox.run(
            ["report", "--format", "png", "--month", "2026-11", "--output", output], environment: ["LD_DEBUG": "files"])
        #expect(png.status == 0, "\(png.stderr.suffix(300))")
        #expect(png.stderr.contains("libgd.so"))
    }

    /// libxml2 (and the ICU it brings on Debian) is loaded by the first XML statement, not by
    /// every command: an MT940 import reads no XML and loads neither.
    @Test func libxml2IsLoadedOnlyToReadXML() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Inbox", "--limit", "300"])
        try sandbox.ok(["account", "add", "Main", "--kind", "checking"])
        let statements = StatementImportTests.fixtures
        let mt940 = try sandbox.run(
            ["import", statements.appendingPathComponent("mt940-german.sta").path, "--account", "Main", "--budget", "Inbox"],
            environment: ["LD_DEBUG": "files"])
        #expect(mt940.status == 0, "\(mt940.stderr.suffix(300))")
        #expect(mt940.stderr.contains("libsqlite3") || mt940.stderr.contains("calling init"), "LD_DEBUG reported the loaded libraries")
        #expect(!mt940.stderr.contains("libxml2"))
        let camt = try sandbox.run(
            ["import", statements.appendingPathComponent("camt053-v08.xml").path, "--account", "Main", "--budget", "Inbox"],
            environment: ["LD_DEBUG": "files"])
        #expect(camt.status == 0, "\(camt.stderr.suffix(300))")
        #expect(camt.stderr.contains("libxml2.so"))
    }

    @Test(arguments: [
        ["frobnicate"],
        ["budget", "add", "Food"],
        ["budget", "add", "Food", "--limit"],
        ["budget", "list", "--colour"],
        ["budget", "list", "--sort", "size"],
        ["expense", "list", "--sort", "colour"],
        ["expense", "remove", "abc"],
        ["add", "Coffee", "3.50"],
        ["budget"],
    ])
    func usageErrorsAreOneLineAndExit64(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot().isEmpty, "a usage error must not create the database")
    }

    @Test func databaseComesFromXDGDataHomeWithoutDB() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "add", "Food", "--limit", "10"], useDB: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let expected = sandbox.directory.appendingPathComponent("data/tally/tally.sqlite").path
        #expect(FileManager.default.fileExists(atPath: expected))
    }

    @Test func tallyDBEnvironmentVariableIsUsed() throws {
        let sandbox = try Sandbox()
        let path = sandbox.directory.appendingPathComponent("db/from-env.sqlite").path
        let outcome = try sandbox.run(["budget", "add", "Food", "--limit", "10"], useDB: false, environment: ["TALLY_DB": path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
