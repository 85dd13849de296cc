import Foundation
import TallyStoreContract
import Testing

/// The differential test (`Tests/TallyStoreContract/Differential.swift`) on `PostgresStore`
/// with a real server: the same seeds as SQLite's, each on a fresh database.
@Suite struct PostgresDifferentialTests {
    @Test(arguments: Differential.seeds)
    func agreesWithTheInMemoryStoreStepByStep(seed: UInt64) throws {
        try Differential.run(seed: seed, makeStore: makeStore)
    }
}
