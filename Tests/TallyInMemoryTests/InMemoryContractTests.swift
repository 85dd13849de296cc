import Foundation
import TallyCore
import TallyInMemory
import TallyStoreContract
import Testing

/// A fresh, empty in-memory store.
func makeStore(clock: @escaping @Sendable () -> Date) throws -> any DataAccess {
    InMemoryStore(clock: clock)
}

/// The store contract (`Tests/TallyStoreContract`), proved on `InMemoryStore`.
@Suite struct InMemoryContractTests {
    @Test(arguments: StoreContract.checks) func contract(_ check: StoreContract.Check) throws { try check.run(makeStore) }
}
