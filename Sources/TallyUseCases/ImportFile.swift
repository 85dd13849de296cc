import TallyCore
import TallyImportExport

/// `import`: a CSV or JSON file into the ledger as one transaction, or a dry run of it.
public struct ImportFile: Sendable {
    public var path: String
    public var format: ImportFormat
    public var options: CSVImportOptions
    /// Import a file that was imported before.
    public var force: Bool
    /// Rows naming a budget that does not exist create it with this monthly limit; `nil` fails
    /// the import listing every such name.
    public var missingBudgetLimit: Money?

    public init(
        path: String, format: ImportFormat, options: CSVImportOptions = CSVImportOptions(), force: Bool = false,
        missingBudgetLimit: Money? = nil
    ) {
        self.path = path
        self.format = format
        self.options = options
        self.force = force
        self.missingBudgetLimit = missingBudgetLimit
    }

    /// What an import wrote, the rows it skipped by reason, and how rows found their budgets.
    public struct Result: Sendable {
        public var outcome: ImportOutcome
        public var skipped: [SkipReason: Int]
        public var assignments: ImportAssignments
    }

    /// What an import would write: the file's counts and the budgets it would create.
    public struct Preview: Sendable {
        public var summary: ImportSummary
        public var createdBudgets: [String]
    }

    /// Imports the file; `progress` is called once per row written.
    public func run(in ledger: Ledger, progress: () -> Void = {}) throws(TallyError) -> Result {
        // An unreadable file fails before the database is opened, or even created.
        _ = try FileSource(path: path)
        let input = ImportInput.file(path)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var request = ImportRequest(source: path, force: force, missingBudgetLimit: missingBudgetLimit)
            switch format {
            case .csv:
                var options = options
                options.rules = try store.rules()
                // One pass inside the transaction: rows are validated as they are written, and any
                // error rolls the whole file back.
                var plan: ImportPlan?
                let outcome = try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                    let done = try ImportPlanner.importInOnePass(input, format: .csv, options: options) {
                        (row: ImportedExpense) throws(TallyError) in
                        try insert(row.expense, row.budgetName)
                        progress()
                    }
                    plan = done
                    return done.summary.fingerprint
                }
                return Result(outcome: outcome, skipped: plan?.summary.skipped ?? [:], assignments: plan?.summary.assignments ?? ImportAssignments())
            case .json:
                let validated = try ImportPlanner.plan(input, format: .json)
                request.declare(validated.summary)
                let outcome = try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                    try ImportPlanner.forEachExpense(in: validated) { (row: ImportedExpense) throws(TallyError) in
                        try insert(row.expense, row.budgetName)
                        progress()
                    }
                    return validated.summary.fingerprint
                }
                return Result(outcome: outcome, skipped: validated.summary.skipped, assignments: validated.summary.assignments)
            }
        }
    }

    /// Reads the file once and says what an import would do, failing exactly where it would.
    /// A ledger that does not exist yet stays that way: it would be empty.
    public func dryRun(in ledger: Ledger) throws(TallyError) -> Preview {
        _ = try FileSource(path: path)
        guard ledger.exists else { return try preview(.file(path), store: nil) }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try preview(.file(path), store: store) }
    }

    private func preview(_ input: ImportInput, store: (any DataAccess)?) throws(TallyError) -> Preview {
        var options = options
        if format == .csv { options.rules = try store?.rules() ?? [] }
        let plan = try ImportPlanner.plan(input, format: format, options: options)
        let summary = plan.summary
        var request = ImportRequest(source: path, force: force, missingBudgetLimit: missingBudgetLimit)
        request.declare(summary)
        var resolution = ImportResolution(request: request, existing: try store?.budgets() ?? [])
        // Nothing is saved: a budget the import would create gets a stand-in id.
        var standIn: Int64 = 0
        let pretend = { (budget: Budget) throws(TallyError) -> Budget in
            var created = budget
            standIn -= 1
            created.id = standIn
            return created
        }
        try resolution.createDeclaredBudgets(pretend)
        // Row by row, as the import resolves them: a once budget refuses a row outside its range.
        // A dry run reads the file a second time for it; the import itself reads it once.
        try ImportPlanner.forEachExpense(in: plan) { (row: ImportedExpense) throws(TallyError) in
            _ = try resolution.budgetID(for: row.budgetName, on: row.expense.date, create: pretend)
        }
        try resolution.finish(earlier: try store?.importRecord(fingerprint: summary.fingerprint))
        return Preview(summary: summary, createdBudgets: resolution.createdBudgets)
    }
}

extension ImportRequest {
    /// What a JSON backup declares besides its rows: its budgets with every field (and their
    /// creation times, when it has them) and the settings an empty ledger takes from it.
    fileprivate mutating func declare(_ summary: ImportSummary) {
        newBudgets = summary.declaredBudgets
        settings = summary.declaredSettings
        keepsCreationDates = summary.keepsCreationDates
    }
}
