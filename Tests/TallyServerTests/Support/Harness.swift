import Foundation
import Hummingbird
import TallyCore
import TallyServer
import TallyStores
import TallyUseCases
import Testing

/// A ledger in a temporary folder and `tally serve` over it, in this process, on a free
/// loopback port; `stop()` shuts it down as SIGTERM would.
final class Harness: @unchecked Sendable {
    let folder: URL
    let db: String
    private(set) var port = 0
    private var task: Task<Void, any Error>?
    private var server: Server?

    /// `db` is a ledger file in the harness's folder unless a location (a PostgreSQL URL) is given.
    init(db location: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-serve-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        db = location ?? folder.appendingPathComponent("tally.sqlite").path
    }

    deinit {
        task?.cancel()
        try? FileManager.default.removeItem(at: folder)
    }

    var ledger: Ledger { Ledger(location: StoreLocation(db)) }

    /// Budgets Food (300) and Rent (1000) with a few expenses in the current month, plus a
    /// budget whose name is markup, so every view shows it escaped.
    func seed() throws {
        let ledger = self.ledger
        defer { ledger.close() }
        _ = try AddBudget(name: "Food", limit: try Money(parsing: "300")).run(in: ledger)
        _ = try AddBudget(name: "Rent", limit: try Money(parsing: "1000")).run(in: ledger)
        _ = try AddBudget(name: Self.hostile, limit: try Money(parsing: "50")).run(in: ledger)
        let today = Day.today()
        for (name, amount, budget) in [("Bread", "3.50", "Food"), ("Cheese", "12.00", "Food"), ("Flat", "950", "Rent"), (Self.hostile, "5", Self.hostile)] {
            _ = try AddExpense(Expense(name: name, amount: try Money(parsing: amount), date: today, budgetID: 0, tags: ["home"]), budget: budget)
                .run(in: ledger)
        }
    }

    static let hostile = "<script>alert(1)</script>&\"'"

    func start(requireTokens: Bool = false, idleTimeout: Int = 10) async throws {
        let server = try Server(settings: ServeSettings(location: StoreLocation(db), port: 0, requireTokens: requireTokens, idleTimeout: idleTimeout))
        let ready = Locked<Int?>(nil)
        let app = try server.application { port in ready.withLock { $0 = port } }
        self.server = server
        task = Task { try await app.run() }
        for _ in 0..<500 {
            if let port = ready.withLock({ $0 }) {
                self.port = port
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the server did not start")
    }

    func stop() async {
        task?.cancel()
        _ = await task?.result
        server?.close()
    }

    /// One request over a fresh connection; the whole answer. The socket blocks, so it is
    /// used off Swift's cooperative pool, which the server's own tasks need.
    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String = "") async throws -> HTTPAnswer {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"]
        for (name, value) in headers { lines.append("\(name): \(value)") }
        if !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.utf8.count)") }
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
        let port = self.port
        return try await offPool { try RawHTTP.exchange(port: port, bytes) }
    }

    /// A form post as a browser of this site sends it.
    func post(_ path: String, form: [String: String], headers: [String: String] = [:]) async throws -> HTTPAnswer {
        let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await request("POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 }, body: body)
    }

    /// The anti-forgery token on a page.
    func csrf(_ headers: [String: String] = [:]) async throws -> String {
        let page = try await request("GET", "/add", headers: headers).body
        guard let range = page.range(of: "name=\"csrf\" value=\"") else { return "" }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    /// How many expenses the ledger holds.
    func expenseCount() throws -> Int {
        let ledger = self.ledger
        defer { ledger.close() }
        return try ListExpenses(page: 1, pageSize: 1).run(in: ledger).total
    }

    /// The built `tally` beside this test bundle.
    static let tally: String = {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: own).deletingLastPathComponent()
        if folder.lastPathComponent == "MacOS" || folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("tally").path
    }()

    /// Runs the built `tally` on this ledger; its stdout.
    func cli(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tally)
        process.arguments = arguments + ["--db", db]
        process.environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TALLY_USER": ""]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Runs blocking work on a thread of its own.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
