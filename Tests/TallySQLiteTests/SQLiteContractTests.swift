import Foundation
import TallyStoreContract
import Testing

/// The store contract (`Tests/TallyStoreContract`), proved on `SQLiteStore` with a real file.
@Suite struct SQLiteContractTests {
    @Test(arguments: StoreContract.checks) func contract(_ check: StoreContract.Check) throws { try check.run(makeStore) }
}
