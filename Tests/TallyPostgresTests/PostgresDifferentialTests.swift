import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallyPostgres

/// The differential test (`Tests/TallyStoreContract/Differential.swift`) on `PostgresStore`
/// with a real server: the same seeds as SQLite's, each on a fresh database, and after every
/// step its cache of each budget's spending per period checked against its rows.
@Suite(.ownThreads) struct PostgresDifferentialTests {
    /// Fewer steps than SQLite's 250: the state, which every full comparison reads back, grows
    /// with the steps.
    static let steps = 120
    /// A full comparison is some 200 reads, each three round trips through a debug build of
    /// postgres-nio: most of the suite's time. Between them every step compares a summary.
    static let fullStateEvery = 12

    @Test(arguments: Differential.seeds)
    func agreesWithTheInMemoryStoreStepByStep(seed: UInt64) throws {
        try Differential.run(seed: seed, steps: Self.steps, fullStateEvery: Self.fullStateEvery, makeStore: makeStore) { store, step in
            let postgres = try #require(store as? PostgresStore)
            #expect(try postgres.cacheMismatches() == [], "\(step)")
        }
    }
}
