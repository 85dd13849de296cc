import Foundation
import TallyTestSupport
import Testing
import TallyCore
import TallyStoreContract
@testable import TallySQLite

/// The differential test (`Tests/TallyStoreContract/Differential.swift`) on `SQLiteStore` with
/// a real file, and after every step its month cache checked against its rows.
@Suite(.ownThreads) struct DifferentialTests {
    /// A full comparison is some 250 reads, each an SQL statement prepared anew through a debug
    /// build of GRDB: most of the suite's time. Every step still compares the answers, budgets,
    /// rules, expense count and caches; a wrong write persists to the next full comparison.
    static let fullStateEvery = 8

    @Test(arguments: Differential.seeds)
    func bothStoresAgreeStepByStep(seed: UInt64) throws {
        try Differential.run(seed: seed, fullStateEvery: Self.fullStateEvery, makeStore: makeStore) { store, step in
            let sqlite = try #require(store as? SQLiteStore)
            let mismatches = try sqlite.cacheMismatches()
            #expect(mismatches.isEmpty, "\(step): \(mismatches)")
        }
    }
}
