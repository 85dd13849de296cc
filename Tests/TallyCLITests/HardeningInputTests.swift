import Foundation
import TallyTestSupport
import Testing

/// Whatever a user types, a refused command says why in one line and leaves the database as
/// it was; text that only looks dangerous is kept literally and escaped where it is shown.
@Suite(.ownThreads) struct HardeningInputTests {
    /// A database with two budgets and two expenses, made once and copied into each case.
    static let template: Result<Data, any Error> = Result {
        let sandbox = try Sandbox()
        for arguments in [
            ["budget", "add", "Food", "--limit", "100"], ["budget", "add", "Café", "--limit", "10"],
            ["add", "Bread", "2.50", "-b", "Food", "--date", "2026-03-10", "--tag", "daily"],
            ["add", "Tea", "3", "-b", "café", "--date", "2026-03-11"],
        ] {
            let outcome = try sandbox.run(arguments)
            guard outcome.status == 0 else { throw Hardening.Failure("setup \(arguments) failed: \(outcome.stderr)") }
        }
        // Every run closes its connection, which checkpoints the WAL into the file.
        guard !FileManager.default.fileExists(atPath: sandbox.db + "-wal") else {
            throw Hardening.Failure("the setup left a WAL behind")
        }
        return try Data(contentsOf: URL(fileURLWithPath: sandbox.db))
    }

    /// The template's dump, taken once: every case starts from the same bytes, so each case
    /// dumped the same text before its run (a shell and an sqlite3 launch a case).
    static let templateDump: Result<String, any Error> = Result {
        let sandbox = try Sandbox()
        try template.get().write(to: URL(fileURLWithPath: sandbox.db))
        return try Hardening.dump(sandbox.db)
    }

    @Test func theTableCoversAtLeastSixtyCommandLines() throws {
        let table = try HostileInput.all()
        #expect(table.count >= 60)
        #expect(Set(table.map(\.what)).count == table.count, "each row has its own description")
    }

    /// The dump is the judge of content, since SQLite may keep changes in the WAL; the bytes
    /// of every file in the folder are compared too, as each run closes its connection and a
    /// refused command must not even leave a stray `-wal` or `-shm` behind.
    @Test(arguments: try HostileInput.all())
    func aHostileCommandLineIsRefusedInOneLineAndChangesNothing(input: HostileInput) throws {
        let sandbox = try Sandbox()
        try Self.template.get().write(to: URL(fileURLWithPath: sandbox.db))
        let folder = (sandbox.db as NSString).deletingLastPathComponent
        let dump = try Self.templateDump.get()
        let files = try Hardening.files(in: folder)

        let outcome = try sandbox.run(input.arguments)

        #expect(outcome.status == input.exit, "\(outcome.stderr)")
        #expect(outcome.isOneLineFailure, "stdout: \(outcome.stdout.prefix(200)) stderr: \(outcome.stderr.prefix(300))")
        #expect(outcome.stderr.contains(input.message), "\(outcome.stderr.prefix(300))")
        #expect(outcome.stderr.count < 400, "long values are shortened in messages")
        #expect(try Hardening.files(in: folder) == files)
        #expect(try Hardening.dump(sandbox.db) == dump)
    }

    static let literalBudgets = [
        "'; DROP TABLE budget; --", "<b>x</b>", "שלום עולם", "مصروفات البيت", "🍕 Pizza 👩‍👩‍👧‍👦", "\u{202E}gpj.exe",
        "Robert'); DROP TABLE expense;--", "%_*?[", "{{name}}",
    ]
    static let literalExpenses = [
        "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "O'Brien \"quoted\" & co", "{{{raw}}}",
        "NULL", "SELECT * FROM expense -- /* */", "עברית 123 ‏mixed‏", "🧾🧾🧾",
    ]

    @Test func namesThatLookLikeCodeAreStoredLiterallyAndEscapedInTheHTMLReport() throws {
        let sandbox = try Sandbox()
        for name in Self.literalBudgets {
            try sandbox.ok(["budget", "add", name, "--limit", "1000"])
        }
        for (index, name) in Self.literalExpenses.enumerated() {
            let budget = Self.literalBudgets[index % Self.literalBudgets.count]
            // Descending amounts put the first, most hostile names at the top of the report.
            try sandbox.ok([
                "add", name, "\(90 - index)", "-b", budget, "--date", "2026-03-1\(index % 10)", "--tag", "<i>",
            ])
        }

        let budgets = try sandbox.ok(["budget", "list", "--json", "--month", "2026-03"]).jsonArray
        #expect(Set(budgets.compactMap { $0["name"] as? String }) == Set(Self.literalBudgets))
        let expenses = try sandbox.ok(["expense", "list", "--json", "--sort", "amount", "--desc"]).jsonArray
        #expect(expenses.compactMap { $0["name"] as? String } == Self.literalExpenses)
        #expect(expenses.allSatisfy { ($0["tags"] as? [String]) == ["<i>"] })

        let report = sandbox.directory.appendingPathComponent("report.html")
        try sandbox.ok(["report", "--format", "html", "--month", "2026-03", "--output", report.path])
        let html = String(decoding: try Data(contentsOf: report), as: UTF8.self)
        for name in Self.literalBudgets + Self.literalExpenses.prefix(3) where name.contains(where: "<>&\"'".contains) {
            #expect(!html.contains(name), "\(name) appears unescaped")
            #expect(html.contains(Self.escaped(name)), "\(name) is missing or escaped differently")
        }
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<i>"))
        #expect(html.contains("{{name}}"), "Mustache in a value is shown, not expanded")
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
