import Foundation
import TallyTestSupport
import Testing

/// What the hardening tests need beyond `Sandbox`: SQLite's own view of a database, exact
/// file states, and runs of `tally` through a shell (for umask, ulimit and a dropped user).
enum Hardening {
    /// `sqlite3 PATH .dump`: the database's logical content, whatever sits in its WAL.
    static func dump(_ path: String) throws -> String {
        try sqlite3([path, ".dump"])
    }

    @discardableResult
    static func sqlite3(_ arguments: [String]) throws -> String {
        let outcome = try shell(#""$@""#, arguments: ["/usr/bin/sqlite3"] + arguments)
        guard outcome.status == 0 else { throw Failure("sqlite3 \(arguments) failed: \(outcome.stderr)") }
        return outcome.stdout
    }

    /// Every file under `folder` with its bytes (a folder as an empty value), so a test can
    /// prove that a command added, removed or changed nothing there.
    static func files(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return files }
        while let name = enumerator.nextObject() as? String {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory ?? false
            files[name] = isFolder ? Data() : try Data(contentsOf: url)
        }
        return files
    }

    static func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    /// Runs `script` with `sh -c`, `$TALLY` naming the built executable and `arguments` as `$1…`.
    static func shell(_ script: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> Outcome {
        let folder = temporaryRoot.appendingPathComponent("tally-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh"] + arguments
        var env = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC", "TALLY": Sandbox.tallyURL.path]
        env.merge(environment) { $1 }
        process.environment = env
        let handles = try [FileHandle(forWritingTo: out), FileHandle(forWritingTo: err)]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        try process.run()
        process.waitUntilExit()
        for handle in handles { try handle.close() }
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self)
        )
    }

    /// Whether this process is root, for whom file permissions do not bind.
    static var isRoot: Bool { geteuid() == 0 }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// One row of `Fixtures/hostile-inputs.json`: a command line that must be refused.
///
/// An argument written `@repeat:COUNT:TEXT` stands for TEXT repeated COUNT times, so the
/// table stays readable with 10,000-character values in it.
struct HostileInput: Decodable, CustomTestStringConvertible, Sendable {
    let what: String
    let args: [String]
    let exit: Int32
    let message: String

    var testDescription: String { what }

    var arguments: [String] {
        args.map { argument in
            let parts = argument.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "@repeat", let count = Int(parts[1]) else { return argument }
            return String(repeating: String(parts[2]), count: count)
        }
    }

    static func all() throws -> [HostileInput] {
        guard let url = Bundle.module.url(forResource: "Fixtures/hostile-inputs", withExtension: "json") else {
            throw Hardening.Failure("Fixtures/hostile-inputs.json is missing from the test bundle")
        }
        return try JSONDecoder().decode([HostileInput].self, from: Data(contentsOf: url))
    }
}
