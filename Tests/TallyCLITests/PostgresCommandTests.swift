import Foundation
import TallyTestSupport
import Testing

/// The CLI on a PostgreSQL location, against the tests' own server (`PostgresTestServer`):
/// `tally` hands the command to `tally-postgres`, which answers as a file would.
@Suite(.ownThreads) struct PostgresCommandTests {
    /// The same commands on a file and on a server print the same and exit the same.
    @Test func everyCommandAnswersAsOnAFile() throws {
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "cli").url
        let sandbox = try Sandbox()
        let commands: [[String]] = [
            ["budget", "add", "Food", "--limit", "300"],
            ["budget", "add", "Fun", "--limit", "50", "--rollover", "both"],
            ["add", "Coffee beans", "12.50", "-b", "Food", "--date", "2026-03-10", "--tag", "shop"],
            ["add", "Cinema", "60", "-b", "Fun", "--date", "2026-03-12"],
            ["expense", "list"],
            ["expense", "list", "--json"],
            ["budget", "list"],
            ["report", "--month", "2026-03"],
            ["report", "--month", "2026-03", "--format", "json"],
            ["expense", "edit", "2", "--amount", "40"],
            ["expense", "remove", "1", "--yes"],
            ["budget", "show", "Fun", "--month", "2026-04"],
            ["add", "Nothing", "1", "-b", "Missing"],
            ["export", "--format", "csv"],
        ]
        for command in commands {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.run(command + ["--db", url], useDB: false)
            #expect(onServer.stdout == onFile.stdout, "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
            #expect(onServer.status == onFile.status, "\(command)")
        }
    }

    /// `TALLY_DB` selects a server as `--db` does.
    @Test func theEnvironmentSelectsAServer() throws {
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "env").url
        let sandbox = try Sandbox()
        let added = try sandbox.run(["budget", "add", "Rent", "--limit", "900"], useDB: false, environment: ["TALLY_DB": url])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try server.psql("SELECT name FROM budget", database: url.components(separatedBy: "/").last?.components(separatedBy: "?").first ?? "") == "Rent\n")
    }

    /// A malformed URL or an unknown sslmode is a usage error, with no password in the message.
    @Test(arguments: [
        "postgresql://me:hunter2@localhost:notaport/db",
        "postgresql://me:hunter2@localhost:5432/db?sslmode=sometimes",
        "postgres://me:hunter2@localhost/db?colour=blue",
    ])
    func malformedURLsAreUsageErrors(_ url: String) throws {
        let outcome = try Sandbox().run(["budget", "list", "--db", url], useDB: false)
        #expect(outcome.status == 64)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("hunter2"))
    }

    /// Nothing listening: one line naming host and port, exit 1, well within the 5 s timeout.
    @Test func aServerThatIsDownFailsInOneLineQuickly() throws {
        let sandbox = try Sandbox()
        let started = Date()
        let outcome = try sandbox.run(["budget", "list", "--db", "postgresql://me:hunter2@127.0.0.1:9/ledger"], useDB: false)
        #expect(Date().timeIntervalSince(started) < 6)
        expectConnectionFailure(outcome, naming: "127.0.0.1:9")
    }

    /// A server that takes the connection and never answers (a hung server, a proxy that accepts)
    /// fails in one line after the 5 s connect timeout, or the URL's `connect_timeout`, and
    /// leaves nothing behind.
    @Test(arguments: [(query: "", seconds: 5.0), (query: "?connect_timeout=2", seconds: 2.0)])
    func aServerThatNeverAnswersFailsInOneLineAfterTheTimeout(query: String, seconds: Double) async throws {
        let listener = try Listener(accepting: false)
        let sandbox = try Sandbox()
        let before = try FileManager.default.subpathsOfDirectory(atPath: sandbox.directory.path).sorted()
        let url = "postgresql://me:hunter2@127.0.0.1:\(listener.port)/ledger\(query)"
        // Timed on the thread that waits: the test resumes whenever a test thread is free.
        let (outcome, elapsed) = try await offThread {
            let started = Date()
            let outcome = try sandbox.run(["budget", "list", "--db", url], useDB: false)
            return (outcome, Date().timeIntervalSince(started))
        }
        #expect(elapsed > seconds - 0.5 && elapsed < seconds + 2, "took \(elapsed) s")
        expectConnectionFailure(outcome, naming: "127.0.0.1:\(listener.port): the server did not answer within \(Int(seconds)) s")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: sandbox.directory.path).sorted() == before)
    }

    /// A server that closes every connection as it comes fails in one line at once.
    @Test func aServerThatHangsUpFailsInOneLineQuickly() throws {
        let listener = try Listener(accepting: true)
        let sandbox = try Sandbox()
        let started = Date()
        let outcome = try sandbox.run(["budget", "list", "--db", "postgresql://me:hunter2@127.0.0.1:\(listener.port)/ledger"], useDB: false)
        #expect(Date().timeIntervalSince(started) < 3)
        expectConnectionFailure(outcome, naming: "127.0.0.1:\(listener.port)")
    }

    /// A connection that failed: exit 1, one line that holds `text` (the server, and why) and
    /// never the URL's password.
    private func expectConnectionFailure(_ outcome: Outcome, naming text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 1, sourceLocation: sourceLocation)
        #expect(outcome.isOneLineFailure, "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains(text), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(!outcome.stderr.contains("hunter2"), sourceLocation: sourceLocation)
    }

    /// A wrong password fails in one line that never shows it; the right one from PGPASSWORD,
    /// or from a ~/.pgpass only its owner may read, is used.
    @Test func passwordsComeFromTheEnvironmentOrPGPassAndAreNeverShown() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "pw")
        try server.psql("GRANT ALL ON SCHEMA public TO \(server.passwordUser)", database: database.name)
        let url = server.url(database: database.name, user: server.passwordUser)
        let sandbox = try Sandbox()

        let wrong = try sandbox.run(["budget", "list", "--db", url], useDB: false, environment: ["PGPASSWORD": "wrong-guess-77"])
        #expect(wrong.status == 1)
        #expect(wrong.isOneLineFailure, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("password authentication failed"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("wrong-guess-77"))

        let right = try sandbox.run(["budget", "add", "Food", "--limit", "10", "--db", url], useDB: false, environment: ["PGPASSWORD": server.password])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(!(right.stdout + right.stderr).contains(server.password))

        let pgpass = sandbox.directory.appendingPathComponent("home/.pgpass").path
        try "# comment\n\(server.host):\(server.port):\(database.name):\(server.passwordUser):\(server.password)\n".write(
            toFile: pgpass, atomically: false, encoding: .utf8)
        chmod(pgpass, 0o600)
        let fromFile = try sandbox.run(["budget", "list", "--db", url], useDB: false)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout.contains("Food"))
        // libpq ignores a password file others may read, and so does Tally.
        chmod(pgpass, 0o644)
        let ignored = try sandbox.run(["budget", "list", "--db", url], useDB: false)
        #expect(ignored.status == 1)
        #expect(ignored.isOneLineFailure, "\(ignored.stderr)")
        #expect(!ignored.stderr.contains(server.password))
    }

    /// An unknown database is reported, not created; TLS the server does not offer is refused.
    @Test func anUnknownDatabaseIsNotCreatedAndMissingTLSIsRefused() throws {
        let server = try PostgresTestServer.get()
        let sandbox = try Sandbox()
        let missing = try sandbox.run(["budget", "list", "--db", server.url(database: "no_such_ledger")], useDB: false)
        #expect(missing.status == 1)
        #expect(missing.isOneLineFailure, "\(missing.stderr)")
        #expect(missing.stderr.contains("no_such_ledger"))
        #expect(try server.psql("SELECT count(*) FROM pg_database WHERE datname = 'no_such_ledger'") == "0\n")

        let database = try server.makeDatabase(prefix: "tls")
        let tls = "postgresql://\(server.user)@\(server.host):\(server.port)/\(database.name)?sslmode=require"
        let refused = try sandbox.run(["budget", "list", "--db", tls], useDB: false)
        #expect(refused.status == 1)
        #expect(refused.isOneLineFailure, "\(refused.stderr)")
        #expect(refused.stderr.contains("TLS"), "\(refused.stderr)")
    }

    /// Eight shells adding twenty-five expenses each to one server ledger at once: exactly 200.
    /// The eight loops run side by side from the first add to the last, so every add contends
    /// with seven writers for the ledger's writer lock, as with fifty each; each add is two
    /// launches of a debug build and a new connection.
    @Test func eightShellsAddingToOneServerLoseNothing() throws {
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "many").url
        let sandbox = try Sandbox()
        #expect(try sandbox.run(["budget", "add", "Food", "--limit", "1000000", "--db", url], useDB: false).status == 0)
        let script = """
            worker=$1; db=$2
            for i in $(seq 1 25); do
                "$TALLY" add "Item $worker-$i" 1.25 -b Food --date 2026-03-10 --db "$db" >/dev/null || echo "add $worker-$i exited $?" >&2
            done
            """
        let group = DispatchGroup()
        let outcomes = Locked<[Int: Outcome]>([:])
        for worker in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                if let outcome = try? Hardening.shell(script, arguments: ["\(worker)", url]) { outcomes.withLock { $0[worker] = outcome } }
            }
        }
        group.wait()
        for worker in 0..<8 {
            let outcome = outcomes.withLock { $0[worker] }
            #expect(outcome?.status == 0 && outcome?.stderr.isEmpty == true, "worker \(worker): \(outcome?.stderr ?? "did not run")")
        }
        let database = url.components(separatedBy: "/").last?.components(separatedBy: "?").first ?? ""
        #expect(try server.psql("SELECT count(*), count(DISTINCT name) FROM expense", database: database) == "200|200\n")
    }

    /// `db copy` moves a ledger from a file to a server and back, accounts and their entries with
    /// it; every list and report agrees (ids aside: a copy numbers rows afresh), and a destination that is not empty is
    /// refused without a change.
    @Test func dbCopyMovesALedgerBetweenAFileAndAServer() throws {
        let server = try PostgresTestServer.get()
        let url = try server.makeDatabase(prefix: "copy").url
        let sandbox = try Sandbox()
        try sandbox.ok(["settings", "set", "month-start", "25"])
        try sandbox.ok(["budget", "add", "Food", "--limit", "300", "--rollover", "both"])
        try sandbox.ok(["budget", "add", "Home", "--limit", "1200"])
        try sandbox.ok(["add", "Bread", "3.20", "-b", "Food", "--date", "2026-02-27", "--tag", "bakery"])
        try sandbox.ok(["add", "Cheese", "7.90", "-b", "Food", "--date", "2026-03-30", "--quantity", "2"])
        try sandbox.ok(["recurring", "add", "Rent", "950", "--budget", "Home", "--every", "month", "--day", "1", "--start", "2026-01-01"])
        try sandbox.ok(["recurring", "post", "--through", "2026-03-01"])
        // Accounts, added so that their ids are not in name order, with every kind of entry.
        try sandbox.ok(["account", "add", "Visa", "--kind", "credit", "--opening", "-5", "--date", "2026-01-01"])
        try sandbox.ok(["account", "add", "Checking", "--kind", "checking", "--opening", "1000", "--date", "2026-01-01"])
        try sandbox.ok(["account", "add", "Old", "--kind", "cash"])
        try sandbox.ok(["account", "archive", "Old"])
        try sandbox.ok(["income", "add", "Bonus", "50", "--account", "checking", "--date", "2026-03-20", "--tag", "job"])
        try sandbox.ok(["income", "add", "Salary", "2000", "--account", "checking", "--date", "2026-03-01", "--by", "Anna"])
        try sandbox.ok(["transfer", "120", "--from", "Checking", "--to", "Visa", "--date", "2026-03-05", "--name", "Card"])
        try sandbox.ok(["reconcile", "Checking", "--balance", "2880", "--as-of", "2026-03-10"])

        let copied = try sandbox.run(["db", "copy", sandbox.db, url], useDB: false)
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("2 budgets, 5 expenses, 1 recurring rules and 3 accounts"), "\(copied.stdout)")
        let views: [[String]] = [
            ["expense", "list", "--json"], ["budget", "list", "--month", "2026-03"], ["report", "--month", "2026-03", "--format", "json"],
            ["recurring", "list"], ["settings", "show"], ["account", "list", "--all", "--json"], ["income", "list", "--json"],
            ["transfer", "list", "--json"], ["reconcile", "--list", "--json"], ["account", "show", "Checking", "--month", "2026-03", "--json"],
        ]
        for view in views {
            #expect(try Self.withoutIDs(sandbox.run(view + ["--db", url], useDB: false).stdout) == Self.withoutSnapshots(Self.withoutIDs(sandbox.run(view).stdout)), "\(view)")
        }

        let again = try sandbox.run(["db", "copy", sandbox.db, url], useDB: false)
        #expect(again.status == 1)
        #expect(again.isOneLineFailure, "\(again.stderr)")
        #expect(again.stderr.contains("not empty"))
        #expect(try sandbox.run(["expense", "list", "--json", "--db", url], useDB: false).jsonArray.count == 5)

        let backup = sandbox.directory.appendingPathComponent("backup.sqlite").path
        let back = try sandbox.run(["db", "copy", url, backup], useDB: false)
        #expect(back.status == 0, "\(back.stderr)")
        for view in views {
            #expect(try Self.withoutIDs(sandbox.run(view + ["--db", backup], useDB: false).stdout) == Self.withoutIDs(sandbox.run(view).stdout), "\(view)")
        }
    }

    /// A copy numbers expenses afresh, in date order, as restoring a JSON backup does: JSON is
    /// compared without its `id` keys, and must otherwise be the same.
    static func withoutIDs(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("\"id\" :") }.joined(separator: "\n")    }

    /// A server keeps no snapshots (pg_dump backs it up), so its `settings show` has no such line.
    static func withoutSnapshots(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.hasPrefix("snapshots ") }.joined(separator: "\n")
    }

    /// `db info` names the server without the password, its version, the schema and the counts.
    @Test func dbInfoDescribesTheServerLedgerWithoutThePassword() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "info")
        try server.psql("GRANT ALL ON SCHEMA public TO \(server.passwordUser)", database: database.name)
        let url = "postgresql://\(server.passwordUser):\(server.password)@\(server.host):\(server.port)/\(database.name)?sslmode=disable"
        let sandbox = try Sandbox()
        for command in [["budget", "add", "Food", "--limit", "300"], ["add", "Bread", "3.20", "-b", "Food", "--date", "2026-02-27"]] {
            let outcome = try sandbox.run(command + ["--db", url], useDB: false)
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        }
        let text = try sandbox.run(["db", "info", "--db", url], useDB: false)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!(text.stdout + text.stderr).contains(server.password))
        #expect(text.stdout.contains("location postgresql://\(server.passwordUser)@\(server.host):\(server.port)/\(database.name)?sslmode=disable\n"), "\(text.stdout)")
        #expect(text.stdout.contains("engine PostgreSQL "))
        #expect(text.stdout.contains("schema v19-foreign-incomes\nbudgets 1\nexpenses 1\nrecurring-rules 0\nchange-sets 2\n"), "\(text.stdout)")
        let json = try sandbox.run(["db", "info", "--json", "--db", url], useDB: false).jsonObject
        #expect(json["expenses"] as? Int == 1)
        #expect(json["changeSets"] as? Int == 2)
        #expect(json["schema"] as? String == "v19-foreign-incomes")
        #expect((json["location"] as? String)?.contains(server.password) == false)
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel picks. Unless `accepting`, no one
/// ever accepts: the kernel completes the handshake and nobody answers. Accepting, it closes
/// each connection at once.
private final class Listener {
    let port: Int
    private let socket: Int32
    private let accepting: Bool

    init(accepting: Bool) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard socket >= 0, listening else {
            let code = errno
            close(socket)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        self.socket = socket
        self.accepting = accepting
        port = Int(UInt16(bigEndian: address.sin_port))
        if accepting {
            // Ends when `deinit` shuts the socket down and accept fails; only then is it closed,
            // so that the loop never accepts on a number the process has given to another file.
            Thread.detachNewThread {
                while true {
                    let connection = accept(socket, nil, nil)
                    if connection >= 0 { close(connection) } else if errno != EINTR && errno != ECONNABORTED { break }
                }
                close(socket)
            }
        }
    }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        if !accepting { close(socket) }
    }
}
