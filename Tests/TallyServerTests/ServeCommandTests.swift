import Foundation
import TallyCore
import TallyServer
import TallyUseCases
import Testing

/// `tally serve` as a person runs it: handed over from `tally` to `tally-serve`, tokens made
/// and revoked from the command line, and a SIGTERM that lets the server finish.
@Suite struct ServeCommandTests {
    @Test func tokensAreShownOnceAndStoredHashed() async throws {
        let harness = try Harness()
        try harness.seed()
        let created = try harness.cli(["serve", "token", "create", "phone", "--can", "add"])
        let token = try #require(created.split(whereSeparator: \.isWhitespace).first { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }.map(String.init), "\(created)")
        #expect(created.contains("/login?token=\(token)"))
        let listed = try harness.cli(["serve", "token", "list"])
        #expect(listed.hasPrefix("phone\tadd\t") && !listed.contains(token))
        let ledger = harness.ledger
        let stored = try ServeTokens.list(in: ledger)
        ledger.close()
        #expect(stored.map(\.hash) == [TokenHash.hash(token)])
        // Tokens are access control, not ledger data: the export leaves them out.
        #expect(!(try harness.cli(["export", "--format", "json"])).contains(TokenHash.hash(token)))
        #expect(try harness.cli(["serve", "token", "revoke", "PHONE"]).contains("Revoked"))
        #expect(try harness.cli(["serve", "token", "list"]).hasPrefix("No tokens yet"))
    }

    @Test func aServerOffLoopbackNeedsATokenFirst() throws {
        let harness = try Harness()
        try harness.seed()
        let (status, _) = try Self.run(harness, ["serve", "--bind", "0.0.0.0", "--port", "0"], terminateAfterStart: false)
        #expect(status == 64)
    }

    @Test func aMissingLedgerIsRefusedAndNotCreated() throws {
        let harness = try Harness()
        let (status, _) = try Self.run(harness, ["serve", "--port", "0"], terminateAfterStart: false)
        #expect(status == 64)
        #expect(!FileManager.default.fileExists(atPath: harness.db))
    }

    @Test func sigtermStopsTheServerCleanly() async throws {
        let harness = try Harness()
        try harness.seed()
        let (status, output) = try await offPool { try Self.run(harness, ["serve", "--port", "0"], terminateAfterStart: true) }
        #expect(status == 0, "\(output)")
        #expect(output.contains("Serving \(harness.db) at http://127.0.0.1:"))
    }

    /// Runs the built `tally`; with `terminateAfterStart`, reads the address it prints, asks it
    /// for the budgets, then sends SIGTERM. Its exit status and stdout.
    static func run(_ harness: Harness, _ arguments: [String], terminateAfterStart: Bool) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.tally)
        process.arguments = arguments + ["--db", harness.db]
        process.environment = ["HOME": harness.folder.path, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        if terminateAfterStart {
            let handle = out.fileHandleForReading
            while !text.contains("\n") {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            if let range = text.range(of: "127.0.0.1:"), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) {
                let answer = try RawHTTP.exchange(port: port, Array("GET /api/budgets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                text += "status \(answer.status)\n"
            }
            process.terminate()
        }
        process.waitUntilExit()
        text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }
}
