import Foundation
import TallyTestSupport
import Testing

/// What one run of the built `tally` produced.
struct Outcome {
    let status: Int32
    let stdout: String
    let stderr: String

    var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    /// stdout decoded as JSON; `nil` when it is not a JSON document.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    var jsonArray: [[String: Any]] { json as? [[String: Any]] ?? [] }
    var jsonObject: [String: Any] { json as? [String: Any] ?? [:] }

    /// The error contract: one line on stderr, nothing on stdout.
    var isOneLineFailure: Bool {
        status != 0 && stdout.isEmpty && stderrLines.count == 1 && stderr.hasPrefix("tally: error: ")
    }
}

/// A temporary folder holding the database, HOME and XDG_DATA_HOME of the runs, so that tests
/// never touch the user's data and never depend on the machine's environment.
final class Sandbox: Sendable {
    let directory: URL
    var db: String { directory.appendingPathComponent("db/tally.sqlite").path }

    init() throws {
        directory = temporaryRoot
            .appendingPathComponent("tally-cli-tests-\(UUID().uuidString)")
        for folder in ["db", "home", "data"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A sandbox whose database, home and data folders are copies of those `setup` left in a
    /// sandbox of its own (empty, or from `base`). `setup` runs once per `key` in the whole test
    /// run, through the real `tally`: the ledgers many tests start from cost one launch per
    /// command, and a copy none.
    static func seeded(_ key: String, from base: () throws -> Sandbox = { try Sandbox() }, _ setup: (Sandbox) throws -> Void) throws -> Sandbox {
        let template = try Fixture.template(key, base, setup)
        let sandbox = try Sandbox()
        for folder in ["db", "home", "data"] {
            let target = sandbox.directory.appendingPathComponent(folder)
            try FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: template.directory.appendingPathComponent(folder), to: target)
        }
        return sandbox
    }

    /// The sandboxes ``seeded(_:_:)`` copies, kept to the end of the test process. The lock is
    /// recursive: one fixture's setup may start from another's.
    private enum Fixture {
        nonisolated(unsafe) static var built: [String: Result<Sandbox, any Error>] = [:]
        static let lock = NSRecursiveLock()

        static func template(_ key: String, _ base: () throws -> Sandbox, _ setup: (Sandbox) throws -> Void) throws -> Sandbox {
            lock.lock()
            defer { lock.unlock() }
            if let template = built[key] { return try template.get() }
            if built.isEmpty {
                atexit {
                    for case .success(let template) in Fixture.built.values { try? FileManager.default.removeItem(at: template.directory) }
                }
            }
            let template = Result { () throws -> Sandbox in
                let sandbox = try base()
                try setup(sandbox)
                return sandbox
            }
            built[key] = template
            return try template.get()
        }
    }

    /// Runs `tally` (or `executable`) with `--db` pointing into the sandbox appended, unless `useDB` is false.
    @discardableResult
    func run(
        _ arguments: [String], useDB: Bool = true, stdin: String = "", environment: [String: String] = [:],
        executable: URL = Sandbox.tallyURL, currentDirectory: URL? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.arguments = arguments + (useDB ? ["--db", db] : [])
        var env = [
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
            "PATH": "/usr/bin:/bin",
            "COLUMNS": "80",
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
            // Set and empty: expenses record no one, whoever runs the tests. Tests of `by` set it.
            "TALLY_USER": "",
        ]
        env.merge(environment) { $1 }
        process.environment = env
        let id = UUID().uuidString
        let files = ["in", "out", "err"].map { directory.appendingPathComponent("\($0)-\(id)") }
        try Data(stdin.utf8).write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handles = try [
            FileHandle(forReadingFrom: files[0]), FileHandle(forWritingTo: files[1]), FileHandle(forWritingTo: files[2]),
        ]
        process.standardInput = handles[0]
        process.standardOutput = handles[1]
        process.standardError = handles[2]
        try process.run()
        process.waitUntilExit()
        for handle in handles { try handle.close() }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: files[2]), as: UTF8.self)
        )
    }

    /// ``run(_:useDB:stdin:environment:executable:currentDirectory:)`` for a command that mostly
    /// waits (a timeout, a lock another process holds): the test's thread is free meanwhile.
    func runWaiting(_ arguments: [String], useDB: Bool = true) async throws -> Outcome {
        try await offThread { try self.run(arguments, useDB: useDB) }
    }

    /// Runs a fixture's command and throws when it fails, so that every test it serves fails.
    func prepare(_ arguments: [String], useDB: Bool = true) throws {
        let outcome = try run(arguments, useDB: useDB)
        guard outcome.status == 0 else { throw Hardening.Failure("setup: tally \(arguments.joined(separator: " ")) failed: \(outcome.stderr)") }
    }

    /// Runs and expects success, returning the outcome for further checks.
    @discardableResult
    func ok(_ arguments: [String], useDB: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let outcome = try run(arguments, useDB: useDB)
        #expect(outcome.status == 0, "tally \(arguments.joined(separator: " ")) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
        return outcome
    }

    /// Every file in the database folder with its bytes (the snapshot folder's too), to prove a
    /// command changed nothing.
    func databaseSnapshot() throws -> [String: Data] {
        let folder = directory.appendingPathComponent("db")
        var snapshot: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            snapshot[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return snapshot
    }

    /// Budgets and expenses as the CLI reports them, for before/after comparisons.
    func dump(month: String) throws -> String {
        try run(["budget", "list", "--json", "--month", month]).stdout
            + (try run(["expense", "list", "--json", "--page-size", "1000"]).stdout)
    }

    /// The built executable: next to the test bundle, where `swift build` puts products.
    static let tallyURL: URL = {
        let besideBundle = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("tally")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        return packageRoot.appendingPathComponent(".build/debug/tally")
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// `body` on a thread of its own, awaited. Swift Testing runs tests on as many threads as there
/// are cores: a test blocked in a wait there keeps the others from using the idle core.
func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// Compares `actual` with a file under `Golden/`; `TALLY_UPDATE_GOLDEN=1` rewrites the file
/// in the source tree instead.
func expectGolden(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if ProcessInfo.processInfo.environment["TALLY_UPDATE_GOLDEN"] == "1" {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden/\(name)")
        try Data(actual.utf8).write(to: source)
        return
    }
    guard let url = Bundle.module.url(forResource: "Golden/\(name)", withExtension: nil) else {
        Issue.record("missing golden file Golden/\(name); run with TALLY_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
        return
    }
    let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(actual == expected, "differs from Golden/\(name); run with TALLY_UPDATE_GOLDEN=1 if the change is intended", sourceLocation: sourceLocation)
}
