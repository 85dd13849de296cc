import Foundation
import TallyCore
import TallyImportExport

/// `import` of a bank statement file (OFX, camt.053, MT940, QIF): each statement's entries onto
/// its account, as one transaction: debits become expenses (split by a split rule), credits
/// incomes (or refunds, by a refund rule), and entries between
/// the ledger's own accounts transfers. Entries imported before are left out by the bank's own id
/// (by row key where the file has none). A closing balance that matches is recorded as a balance
/// assertion; one that does not is reported with the difference, and the import still commits.
/// A statement in another currency than the ledger's is converted at the rate table's rates
/// (its balances are not compared); an entry the bank booked from another currency keeps its
/// original as an expense's ``TallyCore/Expense/foreign``.
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

    /// Imports the file in one transaction, each expense written as it is read (the rows of a
    /// file that fails are rolled back, and a ledger it would have created is not); `progress`
    /// is called once per expense.
    public func run(in ledger: Ledger, progress: () -> Void = {}) throws(TallyError) -> Result {
        // An unreadable file fails before the database is opened, or even created.
        _ = try FileSource(path: path)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let keys = ImportRowKeys(admitsDuplicates: force)
            var planner = try self.planner(store, keys: keys)
            try convert(&planner, store)
            let late = LateDeclaredAccounts()
            var request = ImportRequest(source: path, force: force, missingBudgetLimit: missingBudgetLimit)
            // The store fills in the known keys before the rows, and saves the new ones after.
            request.rowKeys = keys
            request.lateAccounts = late
            var plan = StatementPlan()
            let outcome = try store.afterSnapshot(.import) { () throws(TallyError) in
                try store.importExpenses(request) { (insert: ImportInsert) throws(TallyError) -> String? in
                    let order = try StatementFile.stream(.file(path), as: format, options: readOptions) { (event: StatementEvent) throws(TallyError) in
                        guard let row = try planner.handle(event) else { return }
                        try insert(row.expense, row.budgetName)
                        progress()
                    }
                    plan = try planner.finish()
                    plan.dateOrder = order
                    // Incomes, transfers and the assertions of matching balances go in after the rows.
                    late.declared = plan.entries
                    // No fingerprint: the bank's ids decide what is new, entry by entry.
                    return nil
                }
            }
            return Result(plan: plan, outcome: outcome)
        }
    }

    /// Reads the file and says what an import would do, failing exactly where it would. A ledger
    /// that does not exist yet stays that way.
    public func dryRun(in ledger: Ledger) throws(TallyError) -> Result {
        _ = try FileSource(path: path)
        guard ledger.exists else { return try preview(nil) }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try preview(store) }
    }

    /// The dry run over `store`, or over an empty ledger (no account, no budget) when `nil`: it
    /// fails where the import into that ledger would.
    private func preview(_ store: (any DataAccess)?) throws(TallyError) -> Result {
        let keys = ImportRowKeys(admitsDuplicates: force)
        keys.known = try store?.importedRowKeys() ?? []
        var planner: StatementPlanner
        if let store {
            planner = try self.planner(store, keys: keys)
            try convert(&planner, store)
        } else {
            let empty = StatementPlanner(book: AccountBook(accounts: [], assertions: [], days: []), rowKeys: keys)
            planner = try configured(empty, settings: LedgerSettings(), rules: [])
        }
        var resolution = ImportResolution(
            request: ImportRequest(source: path, missingBudgetLimit: missingBudgetLimit), existing: try store?.budgets() ?? [])
        let pretend = StandInBudgets().create
        let order = try StatementFile.stream(.file(path), as: format, options: readOptions) { (event: StatementEvent) throws(TallyError) in
            guard let row = try planner.handle(event) else { return }
            for name in row.budgetNames { _ = try resolution.budgetID(for: name, on: row.expense.date, create: pretend) }
        }
        var plan = try planner.finish()
        plan.dateOrder = order
        try resolution.finish(earlier: nil)
        return Result(plan: plan, outcome: ImportOutcome(importedCount: plan.expenseCount, createdBudgets: resolution.createdBudgets))
    }

    /// A planner over what the ledger holds now, admitting new keys into `keys`.
    private func planner(_ store: any DataAccess, keys: ImportRowKeys) throws(TallyError) -> StatementPlanner {
        let rules = try store.rules()
        return try store.reading { (rows: any LedgerRows) throws(TallyError) -> StatementPlanner in
            let settings = try rows.settings()
            var book = try rows.accountBook(withEntries: false)
            // The ledger's transfers, to know the other side of one, mean reading every entry:
            // only once an account has a number a statement can name, or a rule sends to one.
            let mayTransfer = book.accounts.contains { $0.number != nil } || rules.contains { $0.transferTo != nil }
            var transfers: [Transfer] = []
            if mayTransfer {
                book = try rows.accountBook(withEntries: true)
                transfers = book.transfers
            }
            var planner = StatementPlanner(book: book, rowKeys: keys)
            planner.transfers = transfers
            return try configured(planner, settings: settings, rules: rules)
        }
    }

    /// Gives `planner` the table rates its statements in other currencies than the ledger's
    /// need: the file read once to find their days, then the rate table once, before the
    /// import's transaction opens (a store cannot be read inside its own write). A missing rate
    /// fails here, listing every pair, and nothing is written. A ledger without a currency
    /// converts nothing, and pays nothing.
    private func convert(_ planner: inout StatementPlanner, _ store: any DataAccess) throws(TallyError) {
        guard let ledger = planner.ledgerCurrency else { return }
        var needed = StatementRateDays(ledger: ledger)
        _ = try StatementFile.stream(.file(path), as: format, options: readOptions) { (event: StatementEvent) throws(TallyError) in needed.add(event) }
        guard !needed.days.isEmpty else { return }
        let conversion = try ImportConversion(needed.days, into: ledger, store: store)
        planner.tableRate = { (currency: Currency, day: Day) throws(TallyError) -> ExchangeRate in try conversion.rate(currency, on: day) }
    }

    /// `planner` with this import's options and the ledger's `settings` and `rules`.
    private func configured(_ planner: StatementPlanner, settings: LedgerSettings, rules: [ImportRule]) throws(TallyError) -> StatementPlanner {
        var planner = planner
        let book = planner.book
        planner.chosenAccount = try account.map { (name: String) throws(TallyError) in try book.account(named: name) }
        planner.defaultAccount = try settings.defaultAccountID.map { (id: Int64) throws(TallyError) in try book.account(id: id) }
        planner.ledgerCurrency = settings.currency
        planner.rules = rules
        planner.defaultBudget = defaultBudget
        planner.tagsUncategorized = tagsUncategorized
        planner.by = by
        return planner
    }
}
