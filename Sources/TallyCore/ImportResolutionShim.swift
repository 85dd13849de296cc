// TEMPORARY until the sqlite-split branch lands its ImportResolution.
public struct ImportResolution {
    private let request: ImportRequest
    private var resolver: ImportBudgetResolver
    public private(set) var createdBudgets: [String] = []

    public init(request: ImportRequest, existing: [Budget]) {
        self.request = request
        resolver = ImportBudgetResolver(existing: existing)
    }

    public mutating func createDeclaredBudgets(_ create: (Budget) throws(TallyError) -> Budget) throws(TallyError) {
        for budget in request.newBudgets {
            let budget = try budget.validated()
            guard !resolver.contains(budget) else { continue }
            let saved = try create(budget)
            resolver.register(saved)
            createdBudgets.append(saved.name)
        }
    }

    public mutating func budgetID(for name: String, create: (Budget) throws(TallyError) -> Budget) throws(TallyError) -> Int64? {
        if let id = resolver.id(for: name) { return id }
        guard let limit = request.missingBudgetLimit else {
            resolver.markMissing(name)
            return nil
        }
        let saved = try create(try Budget(name: name, limit: limit).validated())
        resolver.register(saved, spelling: name)
        createdBudgets.append(saved.name)
        return saved.id
    }

    public func finish(earlier: ImportRecord?) throws(TallyError) {
        let missing = resolver.missingNames
        guard missing.isEmpty else { throw .unknownBudgets(missing) }
        if let earlier, !request.force {
            throw .alreadyImported(file: request.source, importedAt: earlier.importedAt, expenseCount: earlier.expenseCount)
        }
    }
}
