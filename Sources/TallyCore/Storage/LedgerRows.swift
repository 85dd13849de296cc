import Foundation

/// A ledger's rows inside one transaction of its store: the primitives that the algorithms
/// written once above the stores read and write (``DataAccess/postRecurring(through:dryRun:)``,
/// ``DataAccess/undo(_:dryRun:)``, `DataAccess+Rows.swift`, `DataAccess+Rules.swift`). Every write is part of the transaction's
/// change set, keeps the store's cached figures, and rolls back with it; in a read transaction
/// the writes throw.
public protocol LedgerRows {
    /// The transaction's time: what its writes are stamped with.
    var timestamp: Date { get }
    /// Hands every expense matching `query` to `body` in its order, sorted and paged as it asks,
    /// one at a time: a read of any size holds one page.
    func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError)
    /// How many expenses match `query`, ignoring its sort and paging.
    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int
    /// The rows of `kinds`, as the history keeps them (``RowImage``): the settings, budgets with
    /// their later limits, recurring rules with their skips, paid occurrences, import rules (by
    /// budget id, the name left empty), profiles, import records, accounts, incomes, transfers
    /// and balance assertions. All but the incomes and transfers are a few hundred rows.
    func rowImages(_ kinds: RowKinds) throws(TallyError) -> [RowImage]

    /// Saves validated expenses of existing budgets and returns them as saved: one without an id
    /// under a new id, stamped with the transaction's time; one with an id under that id, as it
    /// is, over the saved expense of that id or, when undo puts a removed one back, in its place.
    func save(_ expenses: [Expense]) throws(TallyError) -> [Expense]
    /// Removes saved expenses; the occurrences they paid stay paid.
    func delete(_ expenses: [Expense]) throws(TallyError)
    /// Saves the validated expenses of existing budgets that `body` adds to the writer it is
    /// handed, stamped with the transaction's time, under consecutive new ids in the order added,
    /// with their cached figures; returns their ids (`nil` when none). An import's rows, as many
    /// as a file holds, go through the store's fastest path for many rows. The change set does
    /// not note them: the caller records its own (``record(_:)``) with the range.
    func insertExpenses(_ body: (any NewExpenseWriter) throws(TallyError) -> Void) throws(TallyError) -> ExpenseIDRange?
    /// Saves a row as it is, under its key, inserting or replacing. A budget, recurring rule or
    /// import rule without an id gets the next one, never handed out before, and comes back
    /// with it. Changing the settings' month start moves the cached figures to the new periods.
    @discardableResult
    func save(_ row: RowImage) throws(TallyError) -> RowImage
    /// Removes a row. A recurring rule goes with its skips, a budget with its later limits and
    /// alert memory; the rows that name them (expenses, rules, paid occurrences) are rows of
    /// their own, removed first.
    func delete(_ row: RowImage) throws(TallyError)
    /// The figures of `budgets` (every budget when `nil`, ordered like ``budgets()``) in the view
    /// of period `month`, as ``Budget/status(viewing:in:of:)`` computes them from the expenses.
    /// A few budgets read only their own expenses.
    func budgetStatuses(for month: Month, of budgets: [Budget]?) throws(TallyError) -> [BudgetStatus]
    /// What the expenses within `days` spent per day, budget, tag set and person
    /// (``DaySpending/grouping(_:in:)``), in no particular order: a few hundred groups for a
    /// month, from a store's day cache; and beside them what they spent in each other currency
    /// (``CurrencySpending/totals(_:)``), summed by the store in the same read
    /// (``PeriodSpending/of(_:in:)`` is the rule). Throws ``TallyError/arithmeticOverflow`` when a
    /// sum would overflow.
    func daySpending(in days: DayInterval) throws(TallyError) -> PeriodSpending
    /// What each day's entries did to each account (``AccountDay/sums(incomes:transfers:expenses:)``),
    /// ordered by account then day: a few thousand rows, from a store's account cache.
    func accountDays() throws(TallyError) -> [AccountDay]
    /// The rate table's rows matching `query`, ordered by day, then from and to currency.
    func rates(_ query: RateQuery) throws(TallyError) -> [DayRate]
    /// Removes the rate rows of `removed`'s days and pairs, then saves `saved`, each replacing the
    /// row of its day and pair; returns what changed (``RateImages``), which the change set records.
    @discardableResult
    func writeRates(removing removed: [DayRate], saving saved: [DayRate]) throws(TallyError) -> RateImages

    // MARK: History: what undo reads and writes (`DataAccess+Undo.swift`)

    /// The ledger's history: every change set's header, oldest first, with its content from
    /// change set `id` on (none when `nil`), and the id the next change set gets.
    func history(contentFrom id: Int64?) throws(TallyError) -> History
    /// Records `changeSet` under its own id as this transaction's change set, pruning as every
    /// write does; the transaction then records nothing of its own.
    func record(_ changeSet: ChangeSet) throws(TallyError)
    /// Moves an import's bulk rows out of the ledger and keeps them beside change set `id`: the
    /// expenses of `expenses`, with their cached figures, and the imported-row keys of `batch`.
    func setAside(_ expenses: ExpenseIDRange?, rowKeysOf batch: Int64?, under id: Int64) throws(TallyError)
    /// Moves every expense and row key kept beside change set `id` back into the ledger.
    func bringBack(setAsideUnder id: Int64) throws(TallyError)
}

/// A store's writer of many new expenses, which ``LedgerRows/insertExpenses(_:)`` hands its caller.
public protocol NewExpenseWriter: AnyObject {
    /// The id the first expense added gets; the others follow in the order added.
    var firstID: Int64 { get }
    /// Adds a validated expense of an existing budget; `nameKey` is its ``Expense/nameKey``,
    /// which the caller folds once per name.
    func add(_ expense: Expense, nameKey: String) throws(TallyError)
}

/// Which kinds of row ``LedgerRows/rowImages(_:)`` reads: a command that needs the accounts
/// need not read every income, nor a transaction that writes a budget keep them for its change set.
public struct RowKinds: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let settings = RowKinds(rawValue: 1 << 0)
    public static let budgets = RowKinds(rawValue: 1 << 1)
    /// Recurring rules and their paid occurrences.
    public static let recurring = RowKinds(rawValue: 1 << 2)
    public static let importRules = RowKinds(rawValue: 1 << 3)
    public static let profiles = RowKinds(rawValue: 1 << 4)
    public static let importRecords = RowKinds(rawValue: 1 << 5)
    public static let accounts = RowKinds(rawValue: 1 << 6)
    /// Incomes and transfers.
    public static let entries = RowKinds(rawValue: 1 << 7)
    public static let assertions = RowKinds(rawValue: 1 << 8)
    /// `tally serve`'s tokens: access control kept beside the ledger, so in none of ``all``, a
    /// change set, an export or a copy.
    public static let serveTokens = RowKinds(rawValue: 1 << 9)
    /// What `check --new-only` last saw of each budget (``RowImage/alertLevel(budgetID:period:level:)``):
    /// a memory of the command's, so in none of ``all`` or a change set.
    public static let alertLevels = RowKinds(rawValue: 1 << 10)
    /// The keys of the rows imported from CSV files, by import (``RowImage/importedRows(batch:keys:)``):
    /// a million for a million-row file, so in none of ``all``; a change set keeps its own
    /// (``RowKeyChange``).
    public static let importedRows = RowKinds(rawValue: 1 << 11)
    /// Every tag an expense has or has had (``RowImage/tags(_:)``): what completion offers, so in
    /// none of ``all`` or a change set.
    public static let tags = RowKinds(rawValue: 1 << 12)
    public static let all: RowKinds = [.settings, .budgets, .recurring, .importRules, .profiles, .importRecords, .accounts, .entries, .assertions]
}

extension LedgerRows {
    /// Every row but the expenses (``rowImages(_:)``).
    public func rowImages() throws(TallyError) -> [RowImage] { try rowImages(.all) }

    /// The ledger's settings: how its periods run.
    public func settings() throws(TallyError) -> LedgerSettings {
        for case .settings(let settings) in try rowImages(.settings) { return settings }
        throw .storage("the ledger has no settings")
    }

    /// Every budget, ordered by name key then id (``Budget/ordered(_:)``).
    public func budgets() throws(TallyError) -> [Budget] {
        Budget.ordered(try rowImages(.budgets).compactMap { row in
            guard case .budget(let budget) = row else { return nil }
            return budget
        })
    }

    /// The expenses matching `query`, sorted and paged as it asks.
    public func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        var expenses: [Expense] = []
        try forEachExpense(query) { expenses.append($0) }
        return expenses
    }

    /// Every recurring rule, by id, with its skips, and every paid occurrence, by rule id then
    /// date, from one read of the rows.
    public func recurring() throws(TallyError) -> (rules: [RecurringRule], payments: [RecurringPayment]) {
        var rules: [RecurringRule] = []
        var payments: [RecurringPayment] = []
        for row in try rowImages() {
            switch row {
            case .recurringRule(let rule): rules.append(rule)
            case .recurringPayment(let payment): payments.append(payment)
            default: continue
            }
        }
        return (rules.sorted { ($0.id ?? 0) < ($1.id ?? 0) }, payments.sorted { ($0.ruleID, $0.date) < ($1.ruleID, $1.date) })
    }

    /// Every recurring rule, by id, with its skips.
    public func recurringRules() throws(TallyError) -> [RecurringRule] { try recurring().rules }

    /// Every paid occurrence, by rule id then date.
    public func recurringPayments() throws(TallyError) -> [RecurringPayment] { try recurring().payments }

    /// Every import rule, answered with its budget's (or a transfer rule's account's) current
    /// name, in the order an import tries them (``ImportRule/ordered(_:)``).
    public func importRules() throws(TallyError) -> [ImportRule] {
        let rows = try rowImages([.budgets, .importRules, .accounts])
        var names: [Int64: String] = [:]
        var accounts: [Int64: String] = [:]
        for row in rows {
            switch row {
            case .budget(let budget): names[budget.id ?? 0] = budget.name
            case .account(let account): accounts[account.id ?? 0] = account.name
            default: continue
            }
        }
        return ImportRule.ordered(rows.compactMap { row in
            guard case .importRule(var rule, let budgetID) = row else { return nil }
            if let account = rule.transferAccountID {
                guard let name = accounts[account] else { return nil }
                rule.transferTo = name
                rule.budget = ""
            } else {
                guard let name = names[budgetID] else { return nil }
                rule.budget = name
                for (index, id) in rule.splitBudgetIDs.enumerated() where rule.split.indices.contains(index) {
                    guard let line = names[id] else { return nil }
                    rule.split[index].budget = line
                }
            }
            return rule
        })
    }

    /// Every import profile, ordered by name key.
    public func profiles() throws(TallyError) -> [ImportProfile] {
        try rowImages().compactMap { row in
            guard case .profile(let profile) = row else { return nil }
            return profile
        }.sorted { $0.nameKey < $1.nameKey }
    }

    /// Every file imported so far, by fingerprint.
    public func importRecords() throws(TallyError) -> [String: ImportRecord] {
        var records: [String: ImportRecord] = [:]
        for case .importRecord(let record) in try rowImages(.importRecords) { records[record.fingerprint] = record }
        return records
    }

    /// `tally serve`'s tokens, by name.
    public func serveTokens() throws(TallyError) -> [ServeToken] {
        try rowImages(.serveTokens).compactMap { row in
            guard case .serveToken(let token) = row else { return nil }
            return token
        }.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// The keys of every row imported from a CSV file so far (``ImportRowKey``).
    public func importedRowKeys() throws(TallyError) -> Set<Int64> {
        let batches = try rowImages(.importedRows)
        var count = 0
        for case .importedRows(_, let batch) in batches { count += batch.count }
        var keys = Set<Int64>(minimumCapacity: count)
        for case .importedRows(_, let batch) in batches { keys.formUnion(batch) }
        return keys
    }

    /// The budget named `name`, ignoring case and diacritics (``Budget/named(_:found:)``).
    public func budget(named name: String) throws(TallyError) -> Budget {
        let key = NameKey.lookup(name)
        return try Budget.named(name, found: try budgets().first { $0.nameKey == key })
    }
}
