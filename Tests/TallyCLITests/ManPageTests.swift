import Foundation
import TallyTestSupport
import Testing

/// docs/tally.1, the man page scripts/install installs: made from the help tally prints, never
/// stale, and rendered by Debian's `man` without a warning.
@Suite(.ownThreads) struct ManPageTests {
    static let page = Sandbox.packageRoot.appendingPathComponent("docs/tally.1")

    /// scripts/make-manpage stamps the page with the SHA-256 of the `--experimental-dump-help`
    /// it was made from; any change to a command, an option or a help text changes that dump.
    @Test func pageIsMadeFromTheCurrentHelp() throws {
        let sandbox = try Sandbox()
        let dump = try sandbox.run(["--experimental-dump-help"], useDB: false)
        #expect(dump.status == 0, "\(dump.stderr)")
        let sha = try sandbox.run(["-"], useDB: false, stdin: dump.stdout, executable: URL(fileURLWithPath: "/usr/bin/sha256sum"))
        let digest = String(sha.stdout.prefix(64))
        #expect(digest.count == 64, "sha256sum: \(sha.stderr)")

        let firstLine = try String(contentsOf: Self.page, encoding: .utf8).prefix { $0 != "\n" }
        #expect(
            firstLine.hasSuffix("sha256 \(digest)"),
            "docs/tally.1 was made from another help text than tally prints now; run scripts/make-manpage and commit the page"
        )
    }

    @Test func manRendersThePageWithoutWarnings() throws {
        let sandbox = try Sandbox()
        let man = try sandbox.run(
            ["--warnings", "-l", Self.page.path], useDB: false, environment: ["MANWIDTH": "80"],
            executable: URL(fileURLWithPath: "/usr/bin/man"))
        #expect(man.status == 0)
        #expect(man.stderr.isEmpty, "man warned: \(man.stderr)")
        let text = man.stdout
        #expect(text.hasPrefix("TALLY(1)"))
        for name in ["budget", "expense", "import", "export", "report", "settings", "--db", "--month"] {
            #expect(text.contains(name), "the page says nothing about \(name)")
        }
        #expect(text.components(separatedBy: "\n").allSatisfy { $0.count <= 80 }, "a line is wider than MANWIDTH")
    }
}
