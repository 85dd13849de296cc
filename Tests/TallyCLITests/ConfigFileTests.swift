import Foundation
import TallyTestSupport
import Testing

extension Sandbox {
    /// Where `tally` looks for its config file in the sandbox: `$HOME/.config/tally/config.toml`.
    var configPath: String { directory.appendingPathComponent("home/.config/tally/config.toml").path }

    func writeConfig(_ text: String) throws {
        let url = URL(fileURLWithPath: configPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}

/// `$XDG_CONFIG_HOME/tally/config.toml` and its place in the precedence: flag > environment >
/// config > default, but for the locale, where the config file beats LANG and LC_*.
@Suite(.ownThreads) struct ConfigFileTests {
    @Test func theConfigDatabaseIsUsedBelowTheFlagAndTheEnvironment() throws {
        let sandbox = try Sandbox()
        let configured = sandbox.directory.appendingPathComponent("db/configured.sqlite").path
        let fromEnvironment = sandbox.directory.appendingPathComponent("db/environment.sqlite").path
        try sandbox.writeConfig("db = \"\(configured)\"\n")
        try sandbox.ok(["budget", "add", "Flag", "--limit", "1"])
        #expect(try sandbox.run(["budget", "add", "Config", "--limit", "1"], useDB: false).status == 0)
        #expect(try sandbox.run(["budget", "add", "Env", "--limit", "1"], useDB: false, environment: ["TALLY_DB": fromEnvironment]).status == 0)
        func names(_ path: String) throws -> [String] {
            try sandbox.run(["budget", "list", "--json", "--db", path], useDB: false).jsonArray.compactMap { $0["name"] as? String }
        }
        #expect(try names(sandbox.db) == ["Flag"])
        #expect(try names(configured) == ["Config"])
        #expect(try names(fromEnvironment) == ["Env"])
    }

    @Test func aTildeInTheDatabasePathIsTheHomeFolder() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("db = \"~/books.sqlite\"\n")
        #expect(try sandbox.run(["budget", "add", "Food", "--limit", "1"], useDB: false).status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("home/books.sqlite").path))
    }

    @Test func xdgConfigHomeMovesTheFile() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.directory.appendingPathComponent("xdg/tally")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("default-budget = \"Food\"\n".utf8).write(to: folder.appendingPathComponent("config.toml"))
        try sandbox.ok(["budget", "add", "Food", "--limit", "10"])
        let added = try sandbox.run(["add", "Tea", "2"], environment: ["XDG_CONFIG_HOME": sandbox.directory.appendingPathComponent("xdg").path])
        #expect(added.status == 0 && added.stdout.contains("Tea: 2.00 in Food"), "\(added.stderr)")
    }

    @Test func addUsesTheDefaultBudgetOnlyWithoutDashB() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "10"])
        try sandbox.ok(["budget", "add", "Fun", "--limit", "10"])
        let missing = try sandbox.run(["add", "Tea", "2"])
        #expect(missing.status == 64 && missing.isOneLineFailure)
        #expect(missing.stderr.contains("Missing expected argument '--budget <budget>'") && missing.stderr.contains("default-budget"))
        try sandbox.writeConfig("default-budget = \"food\"\n")
        #expect(try sandbox.ok(["add", "Tea", "2"]).stdout.contains("Tea: 2.00 in Food"))
        #expect(try sandbox.ok(["expense", "add", "Cake", "3", "--quantity", "2"]).stdout.contains("in Food"))
        #expect(try sandbox.ok(["add", "Film", "9", "-b", "Fun"]).stdout.contains("Film: 9.00 in Fun"))
    }

    @Test func colourFollowsFlagThenNoColorThenConfig() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "10"])
        let escape = "\u{1B}["
        func coloured(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Bool {
            let outcome = try sandbox.run(["report"] + arguments, environment: environment)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stdout.contains(escape)
        }
        #expect(try !coloured([]), "stdout is a file here: auto stays plain")
        try sandbox.writeConfig("color = \"always\"\n")
        #expect(try coloured([]))
        #expect(try !coloured([], ["NO_COLOR": "1"]), "NO_COLOR beats the config file")
        #expect(try coloured(["--color", "always"], ["NO_COLOR": "1"]), "--color beats NO_COLOR")
        #expect(try !coloured(["--color", "never"]))
        #expect(try coloured([], ["NO_COLOR": ""]), "an empty NO_COLOR is unset")
    }

    @Test func theConfigLocaleBeatsTheSystemsAndTheFlagBeatsBoth() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "1234.5"])
        func limitLine(_ arguments: [String] = [], _ environment: [String: String] = [:]) throws -> String {
            let outcome = try sandbox.run(["budget", "list"] + arguments, environment: environment)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return String(outcome.stdout.split(separator: "\n").last { $0.hasPrefix("Food") } ?? "")
        }
        #expect(try limitLine().contains("1,234.50"))
        #expect(try limitLine([], ["LC_ALL": "", "LANG": "de_DE.UTF-8"]).contains("1.234,50"))
        #expect(try limitLine([], ["LC_ALL": "", "LC_MONETARY": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]).contains("1\u{202F}234,50"))
        #expect(try limitLine([], ["LC_ALL": "", "LANG": "xx_YY.UTF-8"]).contains("1,234.50"), "a system locale ICU does not know is C")
        try sandbox.writeConfig("locale = \"de_DE\"\n")
        #expect(try limitLine([], ["LC_ALL": "en_IE.UTF-8"]).contains("1.234,50"))
        #expect(try limitLine(["--locale", "en_IE"]).contains("1,234.50"))
        #expect(try sandbox.run(["--locale", "C", "budget", "list"]).stdout.contains("1,234.50"))
    }

    @Test func anUnknownKeyIsAWarningAndTheCommandRuns() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("# mine\ncolour = \"always\"\n[server]\nurl = \"x\"\n")
        let outcome = try sandbox.run(["budget", "add", "Food", "--limit", "1"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "Added budget 'Food' with a monthly limit of 1.00.\n")
        #expect(outcome.stderr.contains("line 2: unknown key 'colour' ignored (known: db, color, locale, default-budget, default-account)"))
        #expect(outcome.stderr.contains("line 3: unknown key 'server'"))
        #expect(outcome.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("tally: warning: ") })
    }

    static let badConfigs: [(String, String)] = [
        ("db = \"~/a.sqlite\"\nlocale = \n", "line 2: not valid TOML"),
        ("color = \"always\"\ncolor = \"never\"\n", "line 2: not valid TOML"),
        ("db = 5\n", "line 1: db: it must be a string in quotes"),
        ("\n\nlocale = \"xx_YY\"\n", "line 3: locale: unknown locale 'xx_YY'"),
        ("color = \"rainbow\"\n", "line 1: color: 'rainbow': use auto, always or never"),
        ("db = \"relative.sqlite\"\n", "line 1: db: 'relative.sqlite' is not a full path"),
        ("default-budget = \"\"\n", "line 1: default-budget: it is empty"),
        ("this is not toml", "line 1: not valid TOML"),
        ("db = \"/a\u{0}b\"\n", "line 1: not valid TOML: it contains a NUL byte"),
    ]

    /// EX_CONFIG, one line naming the file and the line, and no database created.
    @Test(arguments: badConfigs.indices)
    func aBadConfigExits78AndWritesNothing(index: Int) throws {
        let (text, message) = Self.badConfigs[index]
        let sandbox = try Sandbox()
        try sandbox.writeConfig(text)
        let outcome = try sandbox.run(["budget", "add", "Food", "--limit", "1"])
        #expect(outcome.status == 78, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("config file \(sandbox.configPath)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    @Test func aConfigFileThatIsNotUTF8Exits78() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("")
        try Data([0x64, 0x62, 0x20, 0x3D, 0x20, 0x22, 0xFF, 0x22, 0x0A]).write(to: URL(fileURLWithPath: sandbox.configPath))
        let outcome = try sandbox.run(["budget", "list"])
        #expect(outcome.status == 78 && outcome.isOneLineFailure)
        #expect(outcome.stderr.contains("not valid TOML: it is not UTF-8 text"), "\(outcome.stderr)")
    }

    @Test func aConfigFileThatCannotBeReadExits78() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.configPath, withIntermediateDirectories: true)
        let outcome = try sandbox.run(["budget", "list"])
        #expect(outcome.status == 78 && outcome.isOneLineFailure)
        #expect(outcome.stderr.contains("cannot read config file \(sandbox.configPath): Is a directory"))
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }

    @Test func badLocaleAndColourFlagsAreUsageErrors() throws {
        let sandbox = try Sandbox()
        for (arguments, message) in [
            (["--locale", "xx_YY", "budget", "list"], "unknown locale 'xx_YY': use a name such as de_DE, fr_FR or en_IE"),
            (["budget", "list", "--color", "sometimes"], "invalid --color 'sometimes': use auto, always or never"),
            (["--locale", "de_DE", "budget", "list", "--locale", "fr_FR"], "--locale is given twice with different values"),
        ] {
            let outcome = try sandbox.run(arguments)
            #expect(outcome.status == 64 && outcome.isOneLineFailure, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
        #expect(try sandbox.databaseSnapshot().isEmpty)
    }
}

extension ConfigFileTests {
    /// Another user's `HOME` that this user may not search hides any config file: none is read,
    /// and the command runs. A file this user can see but not read is an error.
    /// Root ignores permissions, so this runs (as `nobody`) where the tests run as root, as in CI.
    @Test(.enabled(if: Hardening.isRoot)) func aConfigFolderThisUserCannotSearchCountsAsNoFile() throws {
        let sandbox = try Sandbox()
        try sandbox.writeConfig("color = \"always\"\n")
        let home = sandbox.directory.appendingPathComponent("home").path
        #expect(chmod(home, 0o700) == 0 && chmod(sandbox.directory.path, 0o755) == 0)
        let asNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups "
        let hidden = try Hardening.shell(asNobody + #"env HOME="$1" "$TALLY" --version"#, arguments: [home])
        #expect(hidden.status == 0 && hidden.stderr.isEmpty, "\(hidden.stderr)")
        #expect(chmod(home, 0o755) == 0 && chmod(home + "/.config", 0o755) == 0 && chmod(home + "/.config/tally", 0o755) == 0)
        #expect(chmod(sandbox.configPath, 0o600) == 0)
        let unreadable = try Hardening.shell(asNobody + #"env HOME="$1" "$TALLY" budget list --db /nonexistent/x.sqlite"#, arguments: [home])
        #expect(unreadable.status == 78 && unreadable.stderr.contains("cannot read config file"), "\(unreadable.stderr)")
    }
}
