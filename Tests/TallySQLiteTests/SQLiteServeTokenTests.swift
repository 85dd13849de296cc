import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

/// `tally serve`'s tokens on this store (see `ServeTokenChecks`).
@Suite(.ownThreads) struct SQLiteServeTokenTests {
    @Test func keepsTokensOutsideTheHistory() throws {
        let store = try makeStore(clock: { Date() })
        defer { try? store.close() }
        try ServeTokenChecks.run(store)
    }
}
