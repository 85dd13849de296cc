import Foundation
import TallyCore
import TallyServer
import TallyUseCases
import Testing

/// Each refusal answers its status and writes nothing.
@Suite struct ServeSecurityTests {
    /// A ledger served with tokens required, and one token of each level.
    static func served() async throws -> (Harness, view: String, add: String, manage: String) {
        let harness = try Harness()
        try harness.seed()
        var tokens: [String] = []
        for (name, level) in [("viewer", ServePermission.view), ("adder", .add), ("boss", .manage)] {
            let made = TokenHash.makeToken()
            let ledger = harness.ledger
            _ = try ServeTokens.create(name: name, permission: level, hash: made.hash, in: ledger)
            ledger.close()
            tokens.append(made.token)
        }
        try await harness.start(requireTokens: true, idleTimeout: 1)
        return (harness, tokens[0], tokens[1], tokens[2])
    }

    static let expense = #"{"name": "Milk", "amount": "1.25", "budget": "Food"}"#

    @Test func tokensDecideWhoMayReadAndWrite() async throws {
        let (harness, view, add, manage) = try await Self.served()
        let before = try harness.expenseCount()
        func post(_ token: String?) async throws -> Int {
            var headers = ["Content-Type": "application/json"]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            return try await harness.request("POST", "/api/expenses", headers: headers, body: Self.expense).status
        }
        #expect(try await harness.request("GET", "/api/budgets").status == 401)
        #expect(try await harness.request("GET", "/", headers: ["Authorization": "Bearer nope"]).status == 401)
        #expect(try await harness.request("GET", "/api/budgets", headers: ["Authorization": "Bearer \(view)"]).status == 200)
        #expect(try await post(nil) == 401)
        #expect(try await post(String(repeating: "0", count: 64)) == 401)
        #expect(try await post(view) == 403)
        #expect(try harness.expenseCount() == before)
        #expect(try await post(add) == 201)
        #expect(try harness.expenseCount() == before + 1)

        // Undo needs manage.
        let addCSRF = try await harness.csrf(["Authorization": "Bearer \(add)"])
        #expect(try await harness.post("/undo", form: ["csrf": addCSRF], headers: ["Authorization": "Bearer \(add)"]).status == 403)
        #expect(try harness.expenseCount() == before + 1)
        let bossCSRF = try await harness.csrf(["Authorization": "Bearer \(manage)"])
        #expect(try await harness.post("/undo", form: ["csrf": bossCSRF], headers: ["Authorization": "Bearer \(manage)"]).status == 303)
        #expect(try harness.expenseCount() == before)

        // A revoked token stops working at once.
        let ledger = harness.ledger
        try ServeTokens.revoke(name: "adder", in: ledger)
        ledger.close()
        #expect(try await post(add) == 401)
        #expect(try harness.expenseCount() == before)
        await harness.stop()
    }

    @Test func theSignInLinkSetsAStrictCookieOnce() async throws {
        let (harness, view, _, _) = try await Self.served()
        let first = try await harness.request("GET", "/login?token=\(view)")
        #expect(first.status == 303)
        let cookie = try #require(first.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let pair = String(cookie.prefix { $0 != ";" })
        #expect(try await harness.request("GET", "/budgets", headers: ["Cookie": pair]).status == 200)
        #expect(try await harness.request("GET", "/login?token=\(view)").status == 410)
        #expect(try await harness.request("GET", "/login?token=wrong").status == 401)
        await harness.stop()
    }

    @Test func formsNeedTheirTokenAndThisSite() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let before = try harness.expenseCount()
        let form = ["amount": "5", "name": "Forged", "budget": "Food"]
        #expect(try await harness.post("/add", form: form).status == 403)
        #expect(try await harness.post("/add", form: form.merging(["csrf": String(repeating: "a", count: 64)]) { $1 }).status == 403)
        let csrf = try await harness.csrf()
        let signed = form.merging(["csrf": csrf]) { $1 }
        #expect(try await harness.post("/add", form: signed, headers: ["Origin": "https://evil.example"]).status == 403)
        #expect(try await harness.post("/add", form: signed, headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        let json = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json", "Origin": "https://evil.example"], body: ServeSecurityTests.expense)
        #expect(json.status == 403)
        #expect(try harness.expenseCount() == before)
        #expect(try await harness.post("/add", form: signed, headers: ["Origin": "http://127.0.0.1:\(harness.port)"]).status == 303)
        #expect(try harness.expenseCount() == before + 1)
        await harness.stop()
    }

    @Test func oversizedBodiesSlowClientsAndTraversalAreRefused() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start(idleTimeout: 1)
        let before = try harness.expenseCount()
        let padding = String(repeating: "x", count: 70 * 1024)
        let big = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json"],
            body: #"{"name": "\#(padding)", "amount": "1", "budget": "Food"}"#)
        #expect(big.status == 413)
        #expect(try harness.expenseCount() == before)

        // A client that sends half a request and stops is cut off, and nothing is written.
        let port = harness.port
        let start = Date()
        try await offPool {
            let socket = try RawHTTP.connect(port: port)
            RawHTTP.send(socket, Array("POST /api/expenses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{\"name\":".utf8))
            _ = RawHTTP.readAll(socket)
            close(socket)
        }
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(try harness.expenseCount() == before)

        for path in ["/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2F..%2Fetc%2Fpasswd", "/static/style.css/../../Package.swift"] {
            let answer = try await harness.request("GET", path)
            #expect(answer.status == 404, "\(path)")
            #expect(!answer.body.contains("root:"))
        }
        #expect(try await harness.request("GET", "/static/style.css").status == 200)
        await harness.stop()
    }
}
