import Foundation
import TallyTestSupport
import Testing

/// `--db` before the subcommand is the same as after it.
@Suite(.ownThreads) struct GlobalOptionsTests {
    @Test func theDatabaseMayBeNamedBeforeTheSubcommand() throws {
        let sandbox = try Sandbox()
        let other = sandbox.directory.appendingPathComponent("other.sqlite").path
        try sandbox.checked(["--db", other, "budget", "add", "Food", "--limit", "100"], useDB: false)
        // The quick path of `add` and ArgumentParser's both read it.
        try sandbox.checked(["--db=\(other)", "add", "Bread", "2.50", "-b", "food", "--date", "2026-03-01"], useDB: false)
        try sandbox.checked(["--db", other, "expense", "add", "Milk", "1.20", "--budget", "food", "--date", "2026-03-02", "--tag", "daily"], useDB: false)
        let before = try sandbox.checked(["--db", other, "budget", "list", "--month", "2026-03", "--json"], useDB: false).stdout
        let after = try sandbox.checked(["budget", "list", "--month", "2026-03", "--json", "--db", other], useDB: false).stdout
        #expect(before == after)
        #expect(before.contains("\"spent\" : \"3.70\""))
        // The same value twice is fine.
        try sandbox.checked(["--db", other, "budget", "list", "--db", other], useDB: false)
        #expect(!FileManager.default.fileExists(atPath: sandbox.db), "nothing went to the sandbox's own database")
    }

    @Test(arguments: [
        ["--db", "a.sqlite", "budget", "list", "--db", "b.sqlite"],
        ["--db=a.sqlite", "--db", "b.sqlite", "budget", "list"],
        ["budget", "list", "--db", "a.sqlite", "--db=b.sqlite"],
        ["--db", "a.sqlite", "add", "Bread", "2", "-b", "Food", "--db", "b.sqlite"],
    ])
    func twoDifferentDatabasesAreAUsageError(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(arguments, useDB: false, currentDirectory: sandbox.directory)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure)
        #expect(outcome.stderr == "tally: error: --db is given twice with different values: 'a.sqlite' and 'b.sqlite'\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).allSatisfy { !$0.hasSuffix(".sqlite") })
    }

    @Test func aMissingValueIsStillReported() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["budget", "list", "--db"], useDB: false)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure)
    }
}

extension Sandbox {
    /// Runs `arguments` as they are (no `--db` of the sandbox's added) and expects success.
    @discardableResult
    fileprivate func checked(_ arguments: [String], useDB: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let outcome = try run(arguments, useDB: useDB)
        #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)", sourceLocation: sourceLocation)
        return outcome
    }
}
