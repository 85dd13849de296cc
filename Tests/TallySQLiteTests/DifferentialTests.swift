import Foundation
import Testing
import TallyCore
import TallyStoreContract
@testable import TallySQLite

/// The differential test (`Tests/TallyStoreContract/Differential.swift`) on `SQLiteStore` with
/// a real file, and after every step its month cache checked against its rows.
@Suite struct DifferentialTests {
    @Test(arguments: Differential.seeds)
    func bothStoresAgreeStepByStep(seed: UInt64) throws {
        try Differential.run(seed: seed, makeStore: makeStore) { store, step in
            let sqlite = try #require(store as? SQLiteStore)
            #expect(try sqlite.cacheMismatches() == [], "\(step)")
        }
    }
}
