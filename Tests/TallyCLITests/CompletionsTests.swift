import Foundation
import TallyTestSupport
import Testing

@testable import TallyCLI

/// Each script is loaded by its real shell (Debian's bash, zsh and fish; `scripts/install-deps`)
/// and asked for completions; the names come from the built `tally` called back at TAB.
@Suite(.ownThreads) struct CompletionsTests {
    /// A ledger, in a folder whose name has a space, with names that need quoting.
    final class Fixture {
        let sandbox: Sandbox
        let db: String

        init() throws {
            sandbox = try Sandbox()
            let folder = sandbox.directory.appendingPathComponent("my ledgers")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            db = folder.appendingPathComponent("tally.sqlite").path
            for arguments in [
                ["budget", "add", "Café & Coffee", "--limit", "45"],
                ["budget", "add", "Groceries", "--limit", "400"],
                ["budget", "add", "Trips: Japan", "--limit", "900"],
                ["add", "Lunch", "12", "-b", "groceries", "--tag", "day off", "--tag", "été"],
            ] {
                let outcome = try sandbox.run(arguments + ["--db", db], useDB: false)
                #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            }
        }

        /// A missing database in a folder that does not exist either.
        var missing: String { sandbox.directory.appendingPathComponent("nowhere/tally.sqlite").path }

        func shell(_ name: String, _ script: String, environment: [String: String] = [:]) throws -> Outcome {
            let executable = URL(fileURLWithPath: "/usr/bin/\(name)")
            try #require(
                FileManager.default.isExecutableFile(atPath: executable.path), "\(name) is missing: run scripts/install-deps")
            let tallyFolder = Sandbox.tallyURL.deletingLastPathComponent().path
            var environment = environment
            environment["PATH"] = "\(tallyFolder):/usr/bin:/bin"
            let arguments = name == "zsh" ? ["-f", "-c", script] : ["-c", script]
            return try sandbox.run(arguments, useDB: false, environment: environment, executable: executable)
        }
    }

    static let budgets = ["Café & Coffee", "Groceries", "Trips: Japan"]

    /// `db` quoted for the line being completed, as a person types it.
    static func singleQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    // MARK: - bash

    /// What `_tally` puts in COMPREPLY for `line`, completed at its end.
    func bash(_ fixture: Fixture, _ line: String, environment: [String: String] = [:]) throws -> (words: [String], outcome: Outcome) {
        let script = """
            source <(tally completions bash) || exit 2
            line=\(Self.singleQuoted(line))
            COMP_LINE="$line"
            COMP_POINT=${#line}
            eval "COMP_WORDS=($line)"
            [[ "$line" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _tally tally "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let outcome = try fixture.shell("bash", script, environment: environment)
        return (outcome.stdout.split(separator: "\n").map(String.init), outcome)
    }

    @Test func bashCompletesBudgetNamesAndTagsFromTheDatabaseOnTheLine() throws {
        let fixture = try Fixture()
        let db = Self.singleQuoted(fixture.db)
        for line in ["tally budget show --db \(db) ", "tally budget remove --db \(db) ", "tally expense list --db \(db) --budget ",
            "tally add Tea 2 --db \(db) -b ", "tally export --db=\(db) --budget "]
        {
            let (words, outcome) = try bash(fixture, line)
            #expect(words == Self.budgets, "\(line)")
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(line): \(outcome.stderr)")
        }
        #expect(try bash(fixture, "tally budget show --db \(db) Caf").words == ["Café & Coffee"])
        #expect(try bash(fixture, "tally add Tea 2 --db \(db) --tag ").words == ["day off", "été"])
        #expect(try bash(fixture, "tally expense list --tag ", environment: ["TALLY_DB": fixture.db]).words == ["day off", "été"])
    }

    /// A goal's flags complete: `--every` its two cadences, `--account` the ledger's accounts.
    @Test func bashCompletesTheGoalFlags() throws {
        let fixture = try Fixture()
        #expect(try fixture.sandbox.run(["account", "add", "Savings", "--kind", "savings", "--db", fixture.db], useDB: false).status == 0)
        let db = Self.singleQuoted(fixture.db)
        #expect(try bash(fixture, "tally budget edit --db \(db) Groceries --every ").words == ["month", "year"])
        #expect(try bash(fixture, "tally budget add Car --db \(db) --limit 5 --target 5 --every month --account ").words == ["Savings"])
    }

    /// `tally undo` completes the ids of the change sets not undone yet, as `tally log` lists them.
    @Test func bashCompletesTheChangeSetsUndoCanTake() throws {
        let fixture = try Fixture()
        #expect(try fixture.sandbox.run(["undo", "--db", fixture.db], useDB: false).status == 0)
        let log = try fixture.sandbox.run(["log", "--json", "--db", fixture.db], useDB: false)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
        let open = entries.filter { ($0["undone"] as? Bool) == false }.compactMap { ($0["id"] as? Int).map(String.init) }
        #expect(open.count == entries.count - 1 && !open.isEmpty)
        let (words, outcome) = try bash(fixture, "tally undo --db \(Self.singleQuoted(fixture.db)) ")
        #expect(words == open.sorted { $0.localizedStandardCompare($1) == .orderedAscending })
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
    }

    @Test func bashUsesTallyDBThenTheDefaultDatabase() throws {
        let fixture = try Fixture()
        #expect(try bash(fixture, "tally budget show ", environment: ["TALLY_DB": fixture.db]).words == Self.budgets)
        // The default: $XDG_DATA_HOME/tally/tally.sqlite.
        let data = fixture.sandbox.directory.appendingPathComponent("data/tally")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.db, toPath: data.appendingPathComponent("tally.sqlite").path)
        #expect(try bash(fixture, "tally budget show ").words == Self.budgets)
        // --db on the line beats TALLY_DB.
        let line = "tally budget show --db \(Self.singleQuoted(fixture.missing)) "
        #expect(try bash(fixture, line, environment: ["TALLY_DB": fixture.db]).words.isEmpty)
    }

    @Test func aMissingDatabaseCompletesNothingAndIsNotCreated() throws {
        let fixture = try Fixture()
        let empty = fixture.sandbox.directory.appendingPathComponent("empty.sqlite").path
        _ = FileManager.default.createFile(atPath: empty, contents: nil)
        for db in [fixture.missing, empty] {
            let (words, outcome) = try bash(fixture, "tally budget show --db \(Self.singleQuoted(db)) ")
            #expect(words.isEmpty)
            #expect(outcome.stderr.isEmpty)
            let fish = try fixture.shell("fish", "tally completions fish | source; complete -C \"tally add Tea 2 --db '\(db)' --tag \"")
            #expect(fish.stdout.isEmpty && fish.stderr.isEmpty, "\(fish.stdout)\(fish.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.missing))
        #expect(!FileManager.default.fileExists(atPath: (fixture.missing as NSString).deletingLastPathComponent))
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.sandbox.directory.path).sorted() == [
            "data", "db", "empty.sqlite", "home", "my ledgers",
        ])
    }

    @Test func completingNeverWritesTheDatabase() throws {
        let fixture = try Fixture()
        let folder = (fixture.db as NSString).deletingLastPathComponent
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            // The fixture's setup left the day's snapshot folder beside the file; files only.
            for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
                let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
                guard (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory != true else { continue }
                files[name] = try Data(contentsOf: url)
            }
            return files
        }
        let before = try snapshot()
        _ = try bash(fixture, "tally budget show --db \(Self.singleQuoted(fixture.db)) ")
        _ = try bash(fixture, "tally add Tea 2 --db \(Self.singleQuoted(fixture.db)) --tag ")
        #expect(try snapshot() == before)
    }

    // MARK: - fish

    @Test func fishCompletesBudgetNamesAndTags() throws {
        let fixture = try Fixture()
        let db = Self.singleQuoted(fixture.db)
        // One fish loads the script once and completes every line, each answer after a marker.
        let lines: [(line: String, tallyDB: String?)] = [
            ("tally budget show --db \(db) ", nil),
            ("tally budget edit --db \(db) Caf", nil),
            ("tally expense list --db \(db) -b ", nil),
            ("tally add Tea 2 --db \(db) --tag ", nil),
            ("tally export --budget ", fixture.db),
            ("tally budget show --db '\(fixture.missing)' ", fixture.db),
            // The report over time's flags.
            ("tally report --year 2026 --db \(db) --budget ", nil),
            ("tally report --year 2026 --db \(db) --tag ", nil),
            ("tally report --year 2026 --compare ", nil),
            ("tally report --year 2026 --by ", nil),
            ("tally report --format ", nil),
            ("tally report --", nil),
            ("tally prices --", nil),
        ]
        let marker = "@@completion@@"
        let script = ["tally completions fish | source; or exit 2"] + lines.map { line, tallyDB in
            let environment = tallyDB.map { "set -gx TALLY_DB \(Self.singleQuoted($0)); " } ?? "set -e TALLY_DB; "
            return environment + "echo \(marker); complete -C \(Self.singleQuoted(line))"
        }
        let outcome = try fixture.shell("fish", script.joined(separator: "\n"))
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        // Each line is `candidate<TAB>description`.
        let answers = outcome.stdout.components(separatedBy: marker + "\n").dropFirst().map { answer in
            answer.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }
        }
        try #require(answers.count == lines.count, "\(outcome.stdout)")
        #expect(answers[0] == Self.budgets)
        #expect(answers[1] == ["Café & Coffee"])
        #expect(answers[2] == Self.budgets)
        #expect(answers[3] == ["day off", "été"])
        #expect(answers[4] == Self.budgets)
        #expect(answers[5].isEmpty)
        #expect(answers[6] == Self.budgets)
        #expect(answers[7] == ["day off", "été"])
        #expect(answers[8] == ["previous", "last-year"])
        #expect(answers[9] == ["tag"])
        #expect(answers[10].contains("csv"))
        for flag in ["--from", "--to", "--year", "--compare", "--by", "--budget", "--tag"] { #expect(answers[11].contains(flag), "\(flag)") }
        #expect(answers[12].contains("--json"))
    }

    // MARK: - zsh

    /// zsh's completion system runs only inside a line editor, so this loads the script after
    /// `compinit`, checks that it registered `_tally`, and calls the function `_tally`'s specs
    /// call for a budget or a tag, with the words and environment `_tally` sets up; `_describe`
    /// is replaced by one that prints the candidates it is given. One zsh answers every call,
    /// each answer after a marker.
    func zsh(_ fixture: Fixture, _ calls: [(words: [String], call: String, tallyDB: String?)]) throws -> [[String]] {
        let marker = "@@completion@@"
        let script = """
            # A dump of its own: compinit reading /dev/null while other shells start failed now and then.
            autoload -Uz compinit && compinit -u -d "$(mktemp -d)/zcompdump" || exit 2
            source <(tally completions zsh) || exit 2
            [[ "$_comps[tally]" == _tally ]] || { print -u2 "tally not registered"; exit 3 }
            _describe() { print -rl -- "${(@P)3}" }
            export SAP_SHELL=zsh SAP_SHELL_VERSION="$ZSH_VERSION"
            command_name=tally

            """ + calls.map { words, call, tallyDB in
                """
                \(tallyDB.map { "export TALLY_DB=\(Self.singleQuoted($0))" } ?? "unset TALLY_DB")
                print -r -- \(marker)
                command_line=(\(words.map(Self.singleQuoted).joined(separator: " ")))
                __tally_custom_complete ---completion \(call) \(words.count - 1) 0
                """
            }.joined(separator: "\n")
        let outcome = try fixture.shell("zsh", script)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        let answers = outcome.stdout.components(separatedBy: marker + "\n").dropFirst().map { $0.split(separator: "\n").map(String.init) }
        try #require(answers.count == calls.count, "\(outcome.stdout)")
        return Array(answers)
    }

    @Test func zshCompletesBudgetNamesAndTags() throws {
        let fixture = try Fixture()
        let script = try fixture.sandbox.run(["completions", "zsh"], useDB: false).stdout
        // The calls tested below are the ones the script makes.
        #expect(script.contains("__tally_custom_complete ---completion budget show -- positional@0 \"${current_word_index}\""))
        #expect(script.contains("__tally_custom_complete ---completion add -- --tag \"${current_word_index}\""))
        // As typed: the quotes are the shell's.
        let db = Self.singleQuoted(fixture.db)
        let escaped = ["Café & Coffee", "Groceries", "Trips\\: Japan"]
        let answers = try zsh(fixture, [
            (["tally", "budget", "show", "--db", db, ""], "budget show -- positional@0", nil),
            (["tally", "add", "Tea", "2", "--db", db, "--tag", ""], "add -- --tag", nil),
            (["tally", "export", "-b", ""], "export -- --budget", fixture.db),
            (["tally", "budget", "show", "--db", fixture.missing, ""], "budget show -- positional@0", nil),
        ])
        #expect(answers[0] == escaped)
        #expect(answers[1] == ["day off", "été"])
        #expect(answers[2] == escaped)
        #expect(answers[3].isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.missing))
    }

    // MARK: - In-process

    @Test func theScriptCommandRefusesOtherShells() throws {
        let sandbox = try Sandbox()
        let outcome = try sandbox.run(["completions", "tcsh"], useDB: false)
        #expect(outcome.isOneLineFailure && outcome.status == 64, "\(outcome.stderr)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try sandbox.run(["completions", shell], useDB: false)
            #expect(script.status == 0 && script.stdout.contains("---completion") && script.stderr.isEmpty)
        }
    }

    @Test func quickAddDeclinesCompletionCalls() {
        #expect(QuickAdd.parse(["---completion", "add", "--", "--budget", "5", "0", "tally", "add", "Tea", "2", "-b", ""]) == nil)
        #expect(QuickAdd.parse(["---completion", "expense", "add", "--", "--tag", "5", "0", "add", "Tea", "2", "-b", "x"]) == nil)
    }

    @Test func theDatabaseIsReadFromTheWordsAsTheShellWouldPassIt() {
        func db(_ words: [String]) -> String? { LedgerCompletion.database(in: words, shellUnquotes: true) }
        #expect(db(["tally", "budget", "show", ""]) == nil)
        #expect(db(["tally", "--db", "/a b/x.sqlite"]) == "/a b/x.sqlite")
        #expect(db(["tally", "--db", "'/a b/it'\\''s.sqlite'"]) == "/a b/it's.sqlite")
        #expect(db(["tally", "--db", "\"/a b/\\\"q\\\".sqlite\""]) == "/a b/\"q\".sqlite")
        #expect(db(["tally", "--db", "/a\\ b/x.sqlite"]) == "/a b/x.sqlite")
        #expect(db(["tally", "--db=/x.sqlite", "--db", "/y.sqlite"]) == "/y.sqlite")
        #expect(db(["tally", "--", "--db", "/x.sqlite"]) == nil)
        #expect(db(["tally", "--db", "''"]) == nil)
        #expect(LedgerCompletion.unquoted("~/x.sqlite", home: { "/home/me" }) == "/home/me/x.sqlite")
        #expect(LedgerCompletion.unquoted("'~/x.sqlite'", home: { "/home/me" }) == "~/x.sqlite")
        #expect(LedgerCompletion.database(in: ["tally", "--db", "/a\\b"], shellUnquotes: false) == "/a\\b")
    }
}
