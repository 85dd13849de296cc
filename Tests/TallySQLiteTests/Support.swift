import Foundation
import TallyTestSupport
import Testing
import TallyCore
import TallyInMemory
@testable import TallySQLite

/// The two `DataAccess` implementations the contract suite runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory, sqlite

    var testDescription: String { rawValue }

    /// A fresh, empty store; the SQLite one is a real file in its own temporary folder.
    func make(clock: TestClock = TestClock()) throws -> any DataAccess {
        switch self {
        case .inMemory: InMemoryStore(clock: { clock() })
        case .sqlite: try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path, clock: { clock() })
        }
    }
}

func day(_ text: String) throws(TallyError) -> Day { try Day(parsing: text) }

func month(_ text: String) throws(TallyError) -> Month { try Month(parsing: text) }

func money(_ text: String) throws(TallyError) -> Money { try Money(parsing: text) }

/// Asserts that `body` throws exactly `expected`.
func expectError<T>(
    _ expected: TallyError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(TallyError) -> T
) {
    do {
        _ = try body()
        Issue.record("expected \(expected), nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, sourceLocation: sourceLocation)
    }
}

/// Everything a store holds, to prove a refused change left it untouched.
struct Snapshot: Equatable {
    var budgets: [Budget]
    var expenses: [Expense]

    init(_ store: any DataAccess) throws {
        budgets = try store.budgets()
        expenses = try store.expenses(ExpenseQuery(sort: .date))
    }
}
