import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing

/// The store contract (`Tests/TallyStoreContract`), proved on `SQLiteStore` with a real file.
@Suite(.ownThreads) struct SQLiteContractTests {
    @Test(arguments: StoreContract.checks) func contract(_ check: StoreContract.Check) throws { try check.run(makeStore) }
}
