import Foundation
import TallyCore
import TallyPostgres
import TallyStoreContract
import TallyTestSupport
import Testing

/// A fresh, empty ledger: a new database on the tests' own server.
func makeStore(clock: @escaping @Sendable () -> Date) throws -> any DataAccess {
    let server = try PostgresTestServer.get()
    let database = try server.makeDatabase()
    return try PostgresStore(location: ServerLocation(url: database.url), clock: clock)
}

/// The store contract (`Tests/TallyStoreContract`), proved on `PostgresStore` with a real server.
@Suite struct PostgresContractTests {
    @Test(arguments: StoreContract.checks) func contract(_ check: StoreContract.Check) throws { try check.run(makeStore) }
}
