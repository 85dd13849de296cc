import Foundation
import TallyCore
import TallyPostgres
import TallyStores
import TallyTestSupport
import TallyUseCases
import Testing

/// `tally serve` over a ledger on a real PostgreSQL server (`PostgresTestServer`): the API answers
/// what the CLI prints for the same database, a quick add shows up, the CLI's writes show up in
/// the next read (the report cache's revision is the server's snapshot), and undo reverts.
@Suite struct ServePostgresTests {
    @Test func servesAPostgresLedgerEndToEnd() async throws {
        StoreLocation.serverStores = { (location: ServerLocation) throws(TallyError) -> any DataAccess in try PostgresStore(location: location) }
        let server = try PostgresTestServer.get()
        let harness = try Harness(db: try server.makeDatabase(prefix: "serve").url)
        try harness.seed()
        try await harness.start()
        let month = Day.today().monthValue.isoString
        let report = ["report", "--month", month, "--format", "json"]
        let first = try await harness.request("GET", "/api/report?month=\(month)")
        #expect(first.status == 200)
        #expect(first.body == (try harness.cli(report)))
        #expect(first.body.contains("Food"))

        let added = try await harness.request(
            "POST", "/api/expenses", headers: ["Content-Type": "application/json"], body: #"{"name": "Oat milk", "amount": "2.40", "budget": "Food"}"#)
        #expect(added.status == 201)
        #expect(added.body.contains("\"remaining\":\"282.10\"") || added.body.contains("\"remaining\" : \"282.10\""))
        let listed = try await harness.request("GET", "/api/expenses?month=\(month)&search=oat")
        #expect(listed.body.contains("Oat milk"))
        #expect(listed.body == (try harness.cli(["expense", "list", "--month", month, "--search", "oat", "--json"])))
        let afterAdd = try await harness.request("GET", "/api/report?month=\(month)").body
        let cliAfterAdd = try harness.cli(report)
        #expect(afterAdd != first.body)
        #expect(afterAdd == cliAfterAdd)

        // The CLI writes to the same database between two reads.
        _ = try harness.cli(["add", "Cake", "7.25", "-b", "Food"])
        let afterCLI = try await harness.request("GET", "/api/report?month=\(month)").body
        let cliAfterCLI = try harness.cli(report)
        #expect(afterCLI != afterAdd)
        #expect(afterCLI == cliAfterCLI)

        // Undo through the form: the CLI's add goes, then the quick add.
        for _ in 0..<2 {
            let undone = try await harness.post("/undo", form: ["csrf": try await harness.csrf()])
            #expect(undone.status == 303)
        }
        let afterUndo = try await harness.request("GET", "/api/report?month=\(month)").body
        #expect(afterUndo == first.body)
        #expect(!(try await harness.request("GET", "/api/expenses?month=\(month)&search=oat").body.contains("Oat milk")))
        await harness.stop()
    }
}
