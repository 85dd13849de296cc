import Foundation

/// How a store should write one imported file; see ``DataAccess/importExpenses(_:rows:)``.
public struct ImportRequest: Hashable, Sendable {
    /// The file's name, for messages.
    public var source: String
    /// Import a file whose fingerprint is already recorded.
    public var force: Bool
    /// Budgets to create before the rows, such as those a JSON backup declares; one that already
    /// exists under the same name key is kept as it is.
    public var newBudgets: [Budget]
    /// Rows naming a budget that does not exist create it with this monthly limit; `nil` fails
    /// the import with ``TallyError/unknownBudgets(_:)`` listing every such name.
    public var missingBudgetLimit: Money?

    public init(source: String, force: Bool = false, newBudgets: [Budget] = [], missingBudgetLimit: Money? = nil) {
        self.source = source
        self.force = force
        self.newBudgets = newBudgets
        self.missingBudgetLimit = missingBudgetLimit
    }
}

/// What an import wrote.
public struct ImportOutcome: Hashable, Sendable {
    public var importedCount: Int
    /// Names of the budgets the import created, in the order it created them.
    public var createdBudgets: [String]

    public init(importedCount: Int, createdBudgets: [String]) {
        self.importedCount = importedCount
        self.createdBudgets = createdBudgets
    }
}

/// A file the store remembers having imported.
public struct ImportRecord: Hashable, Sendable {
    /// SHA-256 of the file's bytes, as hex.
    public var fingerprint: String
    public var importedAt: Date
    public var expenseCount: Int

    public init(fingerprint: String, importedAt: Date, expenseCount: Int) {
        self.fingerprint = fingerprint
        self.importedAt = importedAt
        self.expenseCount = expenseCount
    }
}

/// Hands one imported row to the store: a validated expense and the name of its budget.
public typealias ImportInsert = (_ expense: Expense, _ budgetName: String) throws(TallyError) -> Void

/// Resolves budget names of imported rows the way both stores must: by name key, folding
/// each distinct spelling only once.
public struct ImportBudgetResolver {
    private var idsByKey: [String: Int64] = [:]
    private var idsBySpelling: [String: Int64] = [:]
    /// Missing budgets by name key, with the first spelling met.
    private var missing: [String: String] = [:]
    private var missingSpellings: Set<String> = []

    public init(existing budgets: [Budget]) {
        for budget in budgets { register(budget) }
    }

    public func contains(_ budget: Budget) -> Bool { idsByKey[budget.nameKey] != nil }

    public mutating func register(_ budget: Budget, spelling: String? = nil) {
        idsByKey[budget.nameKey] = budget.id ?? 0
        if let spelling { idsBySpelling[spelling] = budget.id ?? 0 }
    }

    /// The id of the budget `name` names; `nil` when no such budget exists yet.
    public mutating func id(for name: String) -> Int64? {
        if let known = idsBySpelling[name] { return known }
        if missingSpellings.contains(name) { return nil }
        let key = NameKey.lookup(name)
        guard let existing = idsByKey[key] else { return nil }
        idsBySpelling[name] = existing
        return existing
    }

    /// Remembers that `name` names no budget, to list it in the error.
    public mutating func markMissing(_ name: String) {
        guard missingSpellings.insert(name).inserted else { return }
        let key = NameKey.lookup(name)
        if missing[key] == nil { missing[key] = name }
    }

    /// The missing budget names, ordered by name key.
    public var missingNames: [String] { missing.sorted { $0.key < $1.key }.map(\.value) }
}
