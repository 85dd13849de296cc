import Foundation
import TallyTestSupport
import Testing

/// scripts/install into a temporary PREFIX, with the debug build instead of a release build
/// (`TALLY_INSTALL_BINARY`), so the suite stays fast.
@Suite(.ownThreads) struct InstallTests {
    static let script = Sandbox.packageRoot.appendingPathComponent("scripts/install")
    /// `tally-postgres` and `tally-serve` are installed because the debug build has them beside `tally`.
    static let files = [
        "bin/tally",
        "bin/tally-postgres",
        "bin/tally-serve",
        "share/man/man1/tally.1",
        "share/bash-completion/completions/tally",
        "share/zsh/site-functions/_tally",
        "share/fish/vendor_completions.d/tally.fish",
    ]

    func install(into prefix: String, _ sandbox: Sandbox) throws -> Outcome {
        try sandbox.run(
            [prefix], useDB: false, environment: ["TALLY_INSTALL_BINARY": Sandbox.tallyURL.path],
            executable: Self.script)
    }

    @Test func installsEveryFileAndAgainTheSame() throws {
        let sandbox = try Sandbox()
        let prefix = sandbox.directory.appendingPathComponent("prefix").path
        let first = try install(into: prefix, sandbox)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == Self.files.map { "installed \(prefix)/\($0)\n" }.joined())
        let everything = try Hardening.files(in: prefix)
        let installed = everything.filter { !$0.value.isEmpty }  // folders are empty values
        #expect(installed.keys.sorted() == Self.files.sorted())
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/tally"))
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/tally-postgres"))
        #expect(try Hardening.permissions("\(prefix)/share/man/man1/tally.1") == 0o644)
        // Values are looked up first: #expect describes what it captures, a 50 MB binary included.
        let page = installed["share/man/man1/tally.1"]
        #expect(page == (try Data(contentsOf: ManPageTests.page)))
        // What each shell looks for, whichever command of tally's printed the script.
        let zsh = String(decoding: installed["share/zsh/site-functions/_tally"] ?? Data(), as: UTF8.self)
        let fish = String(decoding: installed["share/fish/vendor_completions.d/tally.fish"] ?? Data(), as: UTF8.self)
        #expect(zsh.hasPrefix("#compdef tally\n"))
        #expect(fish.contains("complete -c 'tally'"))
        let bash = try sandbox.run(
            ["-c", "source \"$1\" && complete -p tally", "bash", "\(prefix)/share/bash-completion/completions/tally"],
            useDB: false, executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(bash.status == 0 && bash.stderr.isEmpty, "\(bash.stderr)")
        #expect(bash.stdout.hasSuffix(" tally\n"), "bash completes tally: \(bash.stdout)")

        let again = try install(into: prefix, sandbox)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == first.stdout)
        let unchanged = try Hardening.files(in: prefix) == everything
        #expect(unchanged, "the same files, nothing left beside them")

        let version = try sandbox.run(["--version"], useDB: false, executable: URL(fileURLWithPath: "\(prefix)/bin/tally"))
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
    }

    /// `man -M PREFIX/share/man tally`, and plain `man tally` once PREFIX/bin is on PATH (Debian's
    /// man looks in ../share/man beside each folder on PATH), as the README says.
    @Test func manFindsTheInstalledPage() throws {
        let sandbox = try Sandbox()
        let prefix = sandbox.directory.appendingPathComponent("prefix").path
        let installed = try install(into: prefix, sandbox)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stderr.contains("not on PATH"), "the script says when man needs MANPATH")

        let man = URL(fileURLWithPath: "/usr/bin/man")
        let runs = [
            try sandbox.run(["--warnings", "-M", "\(prefix)/share/man", "tally"], useDB: false, environment: ["MANWIDTH": "80"], executable: man),
            try sandbox.run(["--warnings", "tally"], useDB: false, environment: ["MANWIDTH": "80", "PATH": "\(prefix)/bin:/usr/bin:/bin"], executable: man),
        ]
        for outcome in runs {
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.isEmpty, "man warned: \(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("TALLY(1)"))
            for name in ["budget", "expense", "report", "import", "export"] {
                #expect(outcome.stdout.contains(name), "the page says nothing about \(name)")
            }
        }
    }

    @Test func refusesAPrefixItCannotWriteInOneLine() throws {
        let sandbox = try Sandbox()
        let blocker = sandbox.directory.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        var prefixes = [blocker.appendingPathComponent("prefix").path]
        if getuid() != 0 {  // root writes into any folder
            let locked = sandbox.directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
            prefixes.append(locked.path)
        }
        for prefix in prefixes {
            let outcome = try install(into: prefix, sandbox)
            #expect(outcome.status == 1)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderrLines.count == 1)
            #expect(outcome.stderr.hasPrefix("scripts/install: cannot install into \(prefix): "), "\(outcome.stderr)")
        }
    }
}
