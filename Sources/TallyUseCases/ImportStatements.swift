import Foundation
import TallyCore
import TallyImportExport

/// `import` of a bank statement file (OFX, camt.053, MT940, QIF): each statement's entries onto
/// its account, as one transaction: debits become expenses, credits incomes, and entries between
/// the ledger's own accounts transfers. Entries imported before are left out by the bank's own id
/// (by row key where the file has none). A closing balance that matches is recorded as a balance
/// assertion; one that does not is reported with the difference, and the import still commits.
public struct ImportStatements: Sendable {
    public var path: String
    public var format: StatementFormat
    public var readOptions = StatementReadOptions()
    /// `--account`: see ``StatementPlanner/chosenAccount``.
    public var account: String?
    /// The budget of a debit no rule matches.
    public var defaultBudget: String?
    public var tagsUncategorized = false
    /// Who spent the expenses and received the incomes.
    public var by = ""
    /// Import entries imported before too.
    public var force = false
    /// Budgets that rules or `defaultBudget` name and the ledger lacks are created with this
    /// monthly limit; `nil` fails the import listing them.
    public var missingBudgetLimit: Money?

    public init(path: String, format: StatementFormat) {
        self.path = path
        self.format = format
    }

    /// What an import wrote, or a dry run would.
    public struct Result: Sendable {
        public var plan: StatementPlan
        public var outcome: ImportOutcome
    }

    /// Reads the file, then imports it in one transaction; `progress` is called once per expense.
    public func run(in ledger: Ledger, progress: () -> Void = {}) throws(TallyError) -> Result {
        // A file that does not read fails before the database is opened, or even created.
        let file = try StatementFile.read(.file(path), as: format, options: readOptions)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let (plan, keys) = try self.plan(file, store: store)
            var request = ImportRequest(source: path, force: force, missingBudgetLimit: missingBudgetLimit)
            request.rowKeys = keys
            request.accounts = plan.entries
            let outcome = try store.afterSnapshot(.import) { () throws(TallyError) in
                try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                    for row in plan.expenses {
                        try insert(row.expense, row.budgetName)
                        progress()
                    }
                    // No fingerprint: the bank's ids decide what is new, file by file.
                    return nil
                }
            }
            return Result(plan: plan, outcome: outcome)
        }
    }

    /// Reads the file and says what an import would do, failing exactly where it would. A ledger
    /// that does not exist yet stays that way.
    public func dryRun(in ledger: Ledger) throws(TallyError) -> Result {
        let file = try StatementFile.read(.file(path), as: format, options: readOptions)
        guard ledger.exists else {
            // An empty ledger has no account for the statements to go to.
            throw .accountNotFound(account ?? file.statements[0].account.label ?? "")
        }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let (plan, _) = try self.plan(file, store: store)
            var resolution = ImportResolution(
                request: ImportRequest(source: path, missingBudgetLimit: missingBudgetLimit), existing: try store.budgets())
            var standIn: Int64 = 0
            let pretend = { (budget: Budget) throws(TallyError) -> Budget in
                var created = budget
                standIn -= 1
                created.id = standIn
                return created
            }
            for row in plan.expenses { _ = try resolution.budgetID(for: row.budgetName, on: row.expense.date, create: pretend) }
            try resolution.finish(earlier: nil)
            return Result(plan: plan, outcome: ImportOutcome(importedCount: plan.expenses.count, createdBudgets: resolution.createdBudgets))
        }
    }

    /// The plan over what the ledger holds now, and the row keys it admitted.
    private func plan(_ file: StatementFile, store: any DataAccess) throws(TallyError) -> (StatementPlan, ImportRowKeys) {
        let keys = ImportRowKeys(admitsDuplicates: force)
        keys.known = try store.importedRowKeys()
        let rules = try store.rules()
        let plan = try store.reading { (rows: any LedgerRows) throws(TallyError) -> StatementPlan in
            let settings = try rows.settings()
            var book = try rows.accountBook(withEntries: false)
            // The transfers are read only when an entry may be one: they mean reading every entry.
            let numbers = book.accounts.compactMap(\.number)
            let mayTransfer = !numbers.isEmpty && file.statements.contains { statement in
                statement.entries.contains { entry in entry.counterparty.map { c in book.accounts.contains { $0.isNamed(byNumber: c) } } ?? false }
            }
            var transfers: [Transfer] = []
            if mayTransfer {
                book = try rows.accountBook(withEntries: true)
                transfers = book.transfers
            }
            var planner = StatementPlanner(book: book, rowKeys: keys)
            planner.transfers = transfers
            planner.chosenAccount = try account.map { (name: String) throws(TallyError) in try book.account(named: name) }
            planner.defaultAccount = try settings.defaultAccountID.map { (id: Int64) throws(TallyError) in try book.account(id: id) }
            planner.ledgerCurrency = settings.currency?.code
            planner.rules = rules
            planner.defaultBudget = defaultBudget
            planner.tagsUncategorized = tagsUncategorized
            planner.by = by
            return try planner.plan(file)
        }
        return (plan, keys)
    }
}
