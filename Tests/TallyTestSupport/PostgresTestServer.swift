import Foundation

/// A throwaway PostgreSQL server for the tests: its own data folder in a temporary folder,
/// listening on loopback and a socket there, trusting local users except ``passwordUser``, and
/// stopped when the test process exits. As root it runs as `nobody`, since `initdb` refuses root.
///
/// When it cannot start, ``shared`` holds the reason and every PostgreSQL test fails with it:
/// a developer without the server binaries sees why, rather than a suite that passed by
/// testing nothing.
public final class PostgresTestServer: Sendable {
    public static let shared: Result<PostgresTestServer, StartFailure> = {
        do {
            return .success(try PostgresTestServer())
        } catch {
            return .failure(error as? StartFailure ?? StartFailure(description: "\(error)"))
        }
    }()

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public let host = "127.0.0.1"
    public let port: Int
    /// A superuser every connection from loopback may use without a password.
    public let user = "tally"
    /// A user that must give ``password`` (scram-sha-256).
    public let passwordUser = "tally_pw"
    public let password = "s3cret-Pa55"
    public let folder: String
    public let binaries: String
    private let counter = Locked(0)

    /// The server, for a test: fails the test with the reason it could not start.
    public static func get() throws -> PostgresTestServer { try shared.get() }

    /// A server of the test's own, for a test that stops it: the shared one serves other tests
    /// at the same time. Stopped when the test process exits, like the shared one.
    public static func makePrivate() throws -> PostgresTestServer { try PostgresTestServer() }

    private init() throws(StartFailure) {
        guard let binaries = Self.findBinaries() else {
            throw StartFailure(
                description: "no PostgreSQL server binaries (initdb, pg_ctl) in TALLY_PG_BIN, /usr/lib/postgresql/*/bin or /usr/local/bin: run scripts/install-deps")
        }
        self.binaries = binaries
        // Each database is a few hundred files: on ext4 making them cost more than the server's work.
        let template = temporaryRoot.path + "/tally-pg-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw StartFailure(description: "cannot make a temporary folder for PostgreSQL") }
        folder = String(cString: made)
        port = Self.freePort()
        if getuid() == 0 {
            // initdb refuses root: the server's folder belongs to `nobody`, who runs it.
            chmod(folder, 0o755)
            chown(folder, 65_534, 65_534)
        }
        let data = folder + "/data"
        try run([binaries + "/initdb", "-D", data, "-U", user, "--auth=trust", "-E", "UTF8", "--no-locale", "-N"])
        let hba = """
            local all all trust
            host all \(passwordUser) 127.0.0.1/32 scram-sha-256
            host all all 127.0.0.1/32 trust
            host all all ::1/128 trust

            """
        do {
            try hba.write(toFile: data + "/pg_hba.conf", atomically: false, encoding: .utf8)
        } catch {
            throw StartFailure(description: "cannot write pg_hba.conf: \(error)")
        }
        let options = "-p \(port) -k \(folder) -c listen_addresses=\(host) -c max_connections=300 -c fsync=off -c shared_buffers=32MB"
        try run([binaries + "/pg_ctl", "-D", data, "-l", folder + "/server.log", "-w", "-t", "60", "-o", options, "start"])
        let first = Self.running.withLock { running -> Bool in
            running.append((binaries, data, folder))
            return running.count == 1
        }
        if first { atexit { PostgresTestServer.stopRunning() } }
        try psql("CREATE ROLE \(passwordUser) LOGIN PASSWORD '\(password)'")
    }

    /// A new database, and the URL of it for ``user``: empty, or a copy of `template`, which
    /// no one may be connected to.
    public func makeDatabase(prefix: String = "t", template: String? = nil) throws -> (name: String, url: String) {
        let number = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let name = "\(prefix)_\(getpid())_\(number)"
        // FILE_COPY copies the template's files; PostgreSQL 15's default writes every page through
        // the WAL, which the tests' many databases paid for in server time.
        try psql("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0) STRATEGY = FILE_COPY" } ?? ""))
        return (name, url(database: name))
    }

    public func url(database: String, user: String? = nil) -> String {
        "postgresql://\(user ?? self.user)@\(host):\(port)/\(database)?sslmode=disable"
    }

    /// Runs SQL with psql as ``user`` on `database`; returns what it printed, unaligned.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws(StartFailure) -> String {
        let client = FileManager.default.isExecutableFile(atPath: binaries + "/psql") ? binaries + "/psql" : "/usr/bin/psql"
        return try run([client, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", String(port), "-U", user, "-d", database, "-c", sql], asServer: false)
    }

    /// Stops the server (`pg_ctl stop -m fast`, or `immediate`: no goodbye to the clients) or
    /// starts it again, for the faults tests.
    public func stop(mode: String = "fast") throws { try run([binaries + "/pg_ctl", "-D", folder + "/data", "-m", mode, "-w", "stop"]) }
    public func start() throws {
        let options = "-p \(port) -k \(folder) -c listen_addresses=\(host) -c max_connections=300 -c fsync=off -c shared_buffers=32MB"
        try run([binaries + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60", "-o", options, "start"])
    }

    private static let running = Locked<[(binaries: String, data: String, folder: String)]>([])

    private static func stopRunning() {
        for (binaries, data, folder) in running.withLock({ $0 }) {
            _ = try? runProcess(asServer: true, [binaries + "/pg_ctl", "-D", data, "-m", "immediate", "-w", "-t", "10", "stop"])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @discardableResult
    private func run(_ arguments: [String], asServer: Bool = true) throws(StartFailure) -> String {
        try Self.runProcess(asServer: asServer, arguments)
    }

    /// Runs a program to its end with posix_spawn and waitpid: Foundation's `Process` waited
    /// forever here for a `pg_ctl` that had already exited.
    private static func runProcess(asServer: Bool, _ arguments: [String]) throws(StartFailure) -> String {
        var command = arguments
        if asServer && getuid() == 0 {
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + arguments
        }
        // Output goes to a file, not a pipe: the server pg_ctl starts would hold a pipe open.
        let outputPath = temporaryRoot.path + "/tally-pg-output-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else the test process has open reaches the child. posix_spawn passes on every
        // descriptor without close-on-exec, and the server pg_ctl starts lives to the end of the
        // run: holding the write end of another test's pipe to a `tally` it runs, it kept that
        // test waiting for the end of its output, and the run never ended (CI's 90 minutes ran out).
        guard Self.closeFrom(&actions, 3) == 0 else { throw StartFailure(description: "cannot close inherited descriptors for \(command[0])") }
        var environment = ProcessInfo.processInfo.environment
        for name in ["PGPASSWORD", "PGPASSFILE", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGSSLMODE"] { environment[name] = nil }
        environment["LC_ALL"] = "C"
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw StartFailure(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw StartFailure(description: "\(arguments.map { ($0 as NSString).lastPathComponent }.prefix(2).joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not import: looked up once by name.
    private static let closeFrom: @Sendable (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
            return { _, _ in ENOSYS }
        }
        let function = unsafeBitCast(symbol, to: Function.self)
        return { function($0, $1) }
    }()

    private static func findBinaries() -> String? {
        var candidates: [String] = []
        if let configured = ProcessInfo.processInfo.environment["TALLY_PG_BIN"] { candidates.append(configured) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        candidates.append("/usr/local/bin")
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }

    /// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { return 54_321 }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
