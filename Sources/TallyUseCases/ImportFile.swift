import Foundation
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
    /// A saved profile to read the file with; the settings in `given` win over its own.
    public var profile: String?
    /// Save the settings used (the profile's, with `given` over them) as a profile of this name,
    /// once the import succeeds; its imports keep their row keys under it.
    public var saveProfile: String?
    /// The settings given explicitly, as the user typed them (`name` unused); `options` holds
    /// them parsed.
    public var given = ImportProfile()
    /// The account a CSV file's expenses were paid from; the ledger's default account when
    /// `nil`. A JSON backup's expenses name their own.
    public var account: String?

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
        /// Rows that were already there (row-level dedupe), not imported again.
        public var duplicateCount: Int
        /// A CSV file's lines above its header and summary lines after its rows, left out.
        public var frame = CSVFrame()
    }

    /// What an import would write: the file's counts, the budgets it would create and what it
    /// would do with each row, in file order.
    public struct Preview: Sendable {
        public var summary: ImportSummary
        public var createdBudgets: [String]
        public var rows: [RowPreview]
        public var duplicateCount: Int
    }

    /// What an import would do with one row.
    public struct RowPreview: Hashable, Sendable {
        public enum Outcome: Hashable, Sendable {
            /// A new row with its own budget cell.
            case new
            /// Already imported (row-level dedupe): left out.
            case duplicate
            case rule(id: Int64, budget: String)
            case fallback(budget: String)
            case uncategorized(budget: String)
            case skipped(SkipReason)
        }

        public var line: Int
        /// `nil` for a skipped row, which is not read further than its amount.
        public var name: String?
        public var amount: Money?
        public var outcome: Outcome
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
                var (options, toSave) = try resolvedOptions(store)
                options.rules = try store.rules()
                options = try withLedgerCurrency(options, store)
                let account = try paidFrom(store)
                let conversion = try self.conversion(input, options, store)
                let rowKeys = ImportRowKeys(admitsDuplicates: force)
                request.rowKeys = rowKeys
                // One pass inside the transaction: rows are validated as they are written, and any
                // error rolls the whole file back.
                var plan: ImportPlan?
                // Counted for the rows imported, not those already there.
                var assignments = ImportAssignments()
                let outcome = try store.afterSnapshot(.import) { () throws(TallyError) in
                  try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                    let done = try ImportPlanner.importInOnePass(input, format: .csv, options: options) {
                        (row: ImportedExpense) throws(TallyError) in
                        if let key = row.rowKey, !rowKeys.admit(key) { return }
                        assignments.add(row)
                        var expense = try conversion?.expense(of: row) ?? row.expense
                        if let account {
                            try account.checkAccepts(expense.date)
                            expense.accountID = account.id
                        }
                        try insert(expense, row.budgetName)
                        progress()
                    }
                    plan = done
                    return done.summary.fingerprint
                  }
                }
                if let toSave { _ = try store.saveProfile(toSave) }
                return Result(
                    outcome: outcome, skipped: plan?.summary.skipped ?? [:], assignments: assignments,
                    duplicateCount: rowKeys.duplicateCount, frame: plan?.summary.frame ?? CSVFrame())
            case .json:
                let validated = try ImportPlanner.plan(input, format: .json, options: options)
                request.declare(validated.summary)
                let outcome = try store.afterSnapshot(.import) { () throws(TallyError) in
                  try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                    try ImportPlanner.forEachExpense(in: validated) { (row: ImportedExpense) throws(TallyError) in
                        try insert(row.expense, row.budgetName)
                        progress()
                    }
                    return validated.summary.fingerprint
                  }
                }
                return Result(
                    outcome: outcome, skipped: validated.summary.skipped, assignments: validated.summary.assignments, duplicateCount: 0)
            }
        }
    }

    /// The account a CSV file's expenses were paid from: ``account`` or the ledger's default.
    private func paidFrom(_ store: any DataAccess) throws(TallyError) -> Account? {
        try store.reading { (rows: any LedgerRows) throws(TallyError) in
            guard let id = try rows.accountID(named: account) else { return nil }
            return try rows.accountBook(withEntries: false).account(id: id)
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
        if format == .csv {
            options = try resolvedOptions(store).options
            options.rules = try store?.rules() ?? []
            options = try withLedgerCurrency(options, store)
            if let store { _ = try paidFrom(store) } else if let account { throw .accountNotFound(account) }
        }
        let plan = try ImportPlanner.plan(input, format: format, options: options)
        let summary = plan.summary
        let conversion = format == .csv ? try ImportConversion(summary, options: options, store: store) : nil
        var request = ImportRequest(source: path, force: force, missingBudgetLimit: missingBudgetLimit)
        request.declare(summary)
        let rowKeys = ImportRowKeys(admitsDuplicates: force)
        if format == .csv {
            rowKeys.known = try store?.importedRowKeys() ?? []
            request.rowKeys = rowKeys
        }
        var resolution = ImportResolution(request: request, existing: try store?.budgets() ?? [])
        // Nothing is saved: a budget the import would create gets a stand-in id.
        let pretend = StandInBudgets().create
        try resolution.createDeclaredBudgets(pretend)
        if !request.newRules.isEmpty { try resolution.createDeclaredRules(existing: try store?.rules() ?? []) { _, _ in } }
        // Row by row, as the import resolves them: a once budget refuses a row outside its range.
        // A dry run reads the file a second time for it; the import itself reads it once.
        var rows: [RowPreview] = []
        var newCount = 0
        try ImportPlanner.forEachRow(in: plan) { (outcome: RowOutcome) throws(TallyError) in
            switch outcome {
            case .skipped(let reason, let line):
                rows.append(RowPreview(line: line, outcome: .skipped(reason)))
            case .withoutBudget:
                break
            case .expense(let row):
                let amount = try conversion?.expense(of: row).amount ?? row.expense.amount
                var preview = RowPreview(line: row.line, name: row.expense.name, amount: amount, outcome: .new)
                if let key = row.rowKey, !rowKeys.admit(key) {
                    preview.outcome = .duplicate
                } else {
                    newCount += 1
                    // A split resolves each of its lines' budgets.
                    var expense = row.expense
                    _ = try resolution.resolveBudgets(of: &expense, named: row.budgetName, create: pretend)
                    switch row.source {
                    case .cell: break
                    case .rule(let id): preview.outcome = .rule(id: id, budget: row.budgetLabel)
                    case .fallback: preview.outcome = .fallback(budget: row.budgetLabel)
                    case .uncategorized: preview.outcome = .uncategorized(budget: row.budgetLabel)
                    }
                }
                rows.append(preview)
            }
        }
        // Accounts and their entries, as the import would write them after the rows.
        if !request.accounts.isEmpty {
            let book = try store?.accountBook() ?? AccountBook(accounts: [], assertions: [], days: [])
            var standInAccount: Int64 = 0
            try request.accounts.restore(into: book, at: Date()) { (row: RowImage) throws(TallyError) -> RowImage in
                guard case .account(var account) = row else { return row }
                standInAccount -= 1
                account.id = standInAccount
                return .account(account)
            }
        }
        try resolution.finish(earlier: try store?.importRecord(fingerprint: summary.fingerprint), importedCount: newCount)
        return Preview(summary: summary, createdBudgets: resolution.createdBudgets, rows: rows, duplicateCount: rowKeys.duplicateCount)
    }
}

extension ImportFile {
    /// The CSV options of this import: a saved profile's settings under the given ones, the
    /// delimiter read from the header line when none is set, and the profile to save, if any.
    func resolvedOptions(_ store: (any DataAccess)?) throws(TallyError) -> (options: CSVImportOptions, toSave: ImportProfile?) {
        var options = options
        var settings = given
        if let profile {
            let key = NameKey.lookup(profile)
            guard let saved = try store?.profiles().first(where: { $0.nameKey == key }) else { throw .profileNotFound(profile) }
            settings = saved.overridden(by: given)
            options = try CSVImportOptions(settings)
            // Who spent it is not a file's setting: the profile keeps the importer's.
            options.by = self.options.by
        }
        var toSave: ImportProfile?
        if let saveProfile {
            settings.name = saveProfile
            settings = try settings.validated()
            toSave = settings
            options.dedupeScope = settings.nameKey
        }
        if settings.delimiter == nil {
            options.delimiter = try CSVReader.Delimiter.detect(path: path, encoding: options.encoding, columns: options.columns, skip: options.skipLines)
        }
        return (options, toSave)
    }
}

extension ImportRequest {
    /// What a JSON backup declares besides its rows: its budgets with every field (and their
    /// creation times, when it has them), the settings an empty ledger takes from it, its
    /// rules, profiles, recurring rules and accounts with their entries.
    fileprivate mutating func declare(_ summary: ImportSummary) {
        newBudgets = summary.declaredBudgets
        newRules = summary.declaredRules
        newProfiles = summary.declaredProfiles
        settings = summary.declaredSettings
        keepsCreationDates = summary.keepsCreationDates
        recurringRules = summary.declaredRecurringRules
        accounts = summary.declaredAccounts
        rates = summary.declaredRates
    }
}

/// What a dry run does where an import would save a budget it creates: gives it a stand-in id
/// (-1, -2, …) so the rows that name it resolve, and saves nothing.
final class StandInBudgets {
    private var last: Int64 = 0

    func create(_ budget: Budget) -> Budget {
        var created = budget
        last -= 1
        created.id = last
        return created
    }
}
