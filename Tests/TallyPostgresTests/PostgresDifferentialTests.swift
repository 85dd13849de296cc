import Foundation
import TallyStoreContract
import Testing

@testable import TallyPostgres

/// The differential test (`Tests/TallyStoreContract/Differential.swift`) on `PostgresStore`
/// with a real server: the same seeds as SQLite's, each on a fresh database, and after every
/// step its cache of each budget's spending per period checked against its rows.
@Suite struct PostgresDifferentialTests {
    /// Fewer steps than SQLite's 250, which took 132 s a seed here (debug build, 2 cores; 120
    /// take 44 s): every step reads the whole state back, and the state grows with the steps.
    static let steps = 120

    @Test(arguments: Differential.seeds)
    func agreesWithTheInMemoryStoreStepByStep(seed: UInt64) throws {
        try Differential.run(seed: seed, steps: Self.steps, makeStore: makeStore) { store, step in
            let postgres = try #require(store as? PostgresStore)
            #expect(try postgres.cacheMismatches() == [], "\(step)")
        }
    }
}
