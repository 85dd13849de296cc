import Foundation
import TallyTestSupport
import Testing
import TallyCore
import TallyInMemory
@testable import TallySQLite

/// A fresh, empty SQLite store: a real file in its own temporary folder.
func makeStore(clock: @escaping @Sendable () -> Date) throws -> any DataAccess {
    try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path, clock: clock)
}

/// The two `DataAccess` implementations the tests that compare stores run side by side.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory, sqlite

    var testDescription: String { rawValue }

    /// A fresh, empty store; the SQLite one is a real file in its own temporary folder.
    func make(clock: TestClock = TestClock()) throws -> any DataAccess {
        switch self {
        case .inMemory: InMemoryStore(clock: { clock() })
        case .sqlite: try makeStore(clock: { clock() })
        }
    }
}
