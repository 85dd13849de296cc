import Foundation
import TallyCore
import TallyPostgres
import TallyStoreContract
import TallyTestSupport
import Testing

/// A fresh, empty ledger: a new database on the tests' own server, copied from one the store
/// has migrated (``migratedTemplate``). Migrating each of the contract's sixty-odd databases
/// cost more than its check; opening a copy still runs the store's migration check.
func makeStore(clock: @escaping @Sendable () -> Date) throws -> any DataAccess {
    let server = try PostgresTestServer.get()
    let database = try server.makeDatabase(template: try migratedTemplate.get())
    return try PostgresStore(location: ServerLocation(url: database.url), clock: clock)
}

/// A database `PostgresStore` made from empty and closed, made once for the whole run.
let migratedTemplate: Result<String, any Error> = Result {
    let database = try PostgresTestServer.get().makeDatabase(prefix: "template")
    try PostgresStore(location: ServerLocation(url: database.url)).close()
    return database.name
}

/// The store contract (`Tests/TallyStoreContract`), proved on `PostgresStore` with a real server.
@Suite(.ownThreads) struct PostgresContractTests {
    @Test(arguments: StoreContract.checks) func contract(_ check: StoreContract.Check) throws { try check.run(makeStore) }
}
