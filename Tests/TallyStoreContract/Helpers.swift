import Foundation
import TallyCore
import Testing

public func day(_ text: String) throws(TallyError) -> Day { try Day(parsing: text) }

public func month(_ text: String) throws(TallyError) -> Month { try Month(parsing: text) }

public func money(_ text: String) throws(TallyError) -> Money { try Money(parsing: text) }

/// Asserts that `body` throws exactly `expected`.
public func expectError<T>(
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
public struct Snapshot: Equatable {
    public var budgets: [Budget]
    public var expenses: [Expense]

    public init(_ store: any DataAccess) throws {
        budgets = try store.budgets()
        expenses = try store.expenses(ExpenseQuery(sort: .date))
    }
}
