import Foundation
import TallyTestSupport
import Testing

/// A command that fails on a database that does not exist yet leaves none behind: use cases
/// validate their whole input before anything opens, and so creates, the database.
@Suite(.ownThreads) struct NoDatabaseLeftBehindTests {
    static let failures: [(what: String, arguments: [String], file: (name: String, text: String)?, exit: Int32)] = [
        ("blank budget name", ["budget", "add", "   ", "--limit", "10"], nil, 64),
        ("budget name with a control character", ["budget", "add", "a\u{7}b", "--limit", "10"], nil, 64),
        ("blank expense name", ["add", " ", "2", "-b", "Food"], nil, 64),
        ("import naming unknown budgets", ["import", "in.csv"], ("in.csv", "date,budget,name,amount\n2026-03-01,Food,Bread,2.50\n"), 1),
        ("import of malformed JSON", ["import", "in.json"], ("in.json", "{\"budgets\": [}"), 1),
        ("dry run of an import", ["import", "in.csv", "--dry-run", "--create-budgets", "--limit", "100"],
            ("in.csv", "date,budget,name,amount\n2026-03-01,Food,Bread,2.50\n"), 0),
    ]

    @Test(arguments: failures.indices)
    func aFailingCommandCreatesNoDatabase(index: Int) throws {
        let failure = Self.failures[index]
        let sandbox = try Sandbox()
        var arguments = failure.arguments
        if let file = failure.file {
            let path = sandbox.directory.appendingPathComponent(file.name).path
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: path))
            arguments = arguments.map { $0 == file.name ? path : $0 }
        }
        let outcome = try sandbox.run(arguments)
        #expect(outcome.status == failure.exit, "\(failure.what): \(outcome.stderr)")
        if failure.exit != 0 { #expect(outcome.isOneLineFailure, "\(failure.what)") }
        #expect(!FileManager.default.fileExists(atPath: sandbox.db), "\(failure.what) left a database behind")
    }

    @Test func theSameImportSucceedsOnceItsBudgetExists() throws {
        let sandbox = try Sandbox()
        let path = sandbox.directory.appendingPathComponent("in.csv").path
        try Data("date,budget,name,amount\n2026-03-01,Food,Bread,2.50\n".utf8).write(to: URL(fileURLWithPath: path))
        _ = try sandbox.ok(["import", path, "--create-budgets", "--limit", "100"])
        #expect(FileManager.default.fileExists(atPath: sandbox.db))
        #expect(try sandbox.ok(["budget", "list", "--month", "2026-03", "--json"]).jsonArray.first?["spent"] as? String == "2.50")
    }
}
