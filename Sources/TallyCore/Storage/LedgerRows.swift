import Foundation

/// A ledger's rows inside one transaction of its store: the primitives that the algorithms
/// written once above the stores read and write (``DataAccess/postRecurring(through:dryRun:)``,
/// `DataAccess+Rows.swift`, `DataAccess+Rules.swift`). Every write is part of the transaction's
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
    /// under a new id, stamped with the transaction's time; one with an id over the saved
    /// expense of that id, as it is (``TallyError/expenseNotFound(_:)`` when there is none).
    func save(_ expenses: [Expense]) throws(TallyError) -> [Expense]
    /// Removes saved expenses; the occurrences they paid stay paid.
    func delete(_ expenses: [Expense]) throws(TallyError)
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
    /// What the expenses within `days` spent per day, per tag and per person, and in each other
    /// currency: ``PeriodSpending/totals()`` of ``daySpending(in:)``, which is the answer unless
    /// a store sums its day groups without their budgets (a split's lines in other budgets then
    /// add rows to step, not groups to build). Throws ``TallyError/arithmeticOverflow`` when a
    /// sum would overflow.
    func periodTotals(in days: DayInterval) throws(TallyError) -> PeriodTotals
    /// What each day's entries did to each account (``AccountDay/sums(incomes:transfers:expenses:)``),
    /// ordered by account then day: a few thousand rows, from a store's account cache.
    func accountDays() throws(TallyError) -> [AccountDay]
    /// The rate table's rows matching `query`, ordered by day, then from and to currency.
    func rates(_ query: RateQuery) throws(TallyError) -> [DayRate]
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
        for case .importRecord(let record) in try rowImages() { records[record.fingerprint] = record }
        return records
    }

    /// `tally serve`'s tokens, by name.
    public func serveTokens() throws(TallyError) -> [ServeToken] {
        try rowImages(.serveTokens).compactMap { row in
            guard case .serveToken(let token) = row else { return nil }
            return token
        }.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// The budget named `name`, ignoring case and diacritics (``Budget/named(_:found:)``).
    public func budget(named name: String) throws(TallyError) -> Budget {
        let key = NameKey.lookup(name)
        return try Budget.named(name, found: try budgets().first { $0.nameKey == key })
    }
}

/// What a store's ``LedgerRows`` keeps of the transaction it runs in: its time, whether it may
/// write, and what it wrote, which the store records in the change set.
public final class RowsTransaction {
    public let timestamp: Date
    public let writable: Bool
    public private(set) var inserted: [Expense] = []
    public private(set) var removed: [Expense] = []
    /// The rows of ``capturedKinds`` as they were before the transaction's first write that may
    /// change one of them: a write of expenses alone reads none, and an income's write reads
    /// the incomes and transfers, not every row.
    public private(set) var imagesBefore: [RowImage] = []
    public private(set) var capturedKinds: RowKinds = []
    /// The incomes and transfers the transaction wrote, each with what it was: a ledger holds
    /// tens of thousands, so their kind is never read whole for the change set; the store says
    /// what each write replaced (``wrote(entry:after:)``).
    private var entryChanges: [RowKey: RowChange] = [:]

    public init(at timestamp: Date, writable: Bool) {
        self.timestamp = timestamp
        self.writable = writable
    }

    /// Expenses about to be inserted, stamped with the transaction's time; throws in a read
    /// transaction.
    public func stampedForInsert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try checkWritable()
        return expenses.map { expense in
            var expense = expense
            expense.createdAt = timestamp
            expense.updatedAt = timestamp
            return expense
        }
    }

    /// ``LedgerRows/save(_:)-([Expense])`` as every store makes it: the new expenses through
    /// `insert` (in one call when all are new), which stamps and notes them; each saved one
    /// through `replace`, which returns it as it was, noted here.
    public func save(
        _ expenses: [Expense], insert: ([Expense]) throws(TallyError) -> [Expense], replace: (Expense) throws(TallyError) -> Expense
    ) throws(TallyError) -> [Expense] {
        guard expenses.contains(where: { $0.id != nil }) else { return try insert(expenses) }
        var saved: [Expense] = []
        for expense in expenses {
            guard expense.id != nil else {
                saved += try insert([expense])
                continue
            }
            try checkWritable()
            try removing([try replace(expense)])
            inserted([expense])
            saved.append(expense)
        }
        return saved
    }

    /// Throws in a read transaction.
    public func checkWritable() throws(TallyError) {
        guard writable else { throw .storage("a read transaction cannot write") }
    }

    /// Called before a write that may change rows of `kinds` (its own or through a cascade,
    /// ``RowImage/touchedKinds``): keeps the rows of the kinds not kept yet, as they are, for
    /// the change set.
    public func willChangeRows(_ kinds: RowKinds, _ images: (RowKinds) throws(TallyError) -> [RowImage]) throws(TallyError) {
        try checkWritable()
        let missing = kinds.subtracting(capturedKinds)
        guard !missing.isEmpty else { return }
        imagesBefore += try images(missing)
        capturedKinds.formUnion(missing)
    }

    /// Notes an income or transfer written: as it was (`nil` for a new one) and as it is (`nil`
    /// once removed). The first write of a row keeps what it was before the transaction.
    public func wrote(entry before: RowImage?, after: RowImage?) throws(TallyError) {
        try checkWritable()
        guard let key = (after ?? before)?.key else { return }
        entryChanges[key] = RowChange(before: entryChanges[key].map(\.before) ?? before, after: after)
    }

    /// Notes expenses saved, under new ids or over their earlier selves, for ``record(into:imagesAfter:)``.
    public func inserted(_ saved: [Expense]) {
        inserted += saved
    }

    /// Notes expenses about to be removed or replaced, for ``record(into:imagesAfter:)``.
    public func removing(_ expenses: [Expense]) throws(TallyError) {
        try checkWritable()
        removed += expenses
    }

    /// How many new expenses make a bulk write, which the change set holds as a range of ids
    /// (``ChangeContent/addedExpenses``) instead of a copy of each: the rows are there to read
    /// while it stands, and undo moves them aside whole.
    public static let bulkInsert = 1_000

    /// Adds what the transaction wrote to its change set: the expenses it removed and saved, and
    /// the difference between ``imagesBefore`` and `imagesAfter` of the same kinds, read only when
    /// there is one.
    public func record(into content: inout ChangeContent, imagesAfter: (RowKinds) throws(TallyError) -> [RowImage]) throws(TallyError) {
        if removed.isEmpty, inserted.count >= Self.bulkInsert, let first = inserted.first?.id, let last = inserted.last?.id,
            last - first + 1 == Int64(inserted.count)
        {
            content.addedExpenses = ExpenseIDRange(first: first, last: last, count: inserted.count)
        } else {
            for expense in removed { content.expensesBefore.append(expense) }
            for expense in inserted { content.expensesAfter.append(expense) }
        }
        var rows = capturedKinds.isEmpty ? [] : RowDiff.changes(from: imagesBefore, to: try imagesAfter(capturedKinds))
        rows += entryChanges.values.filter { $0.before != $0.after }
        content.rows += rows.sorted { ($0.key ?? .settings) < ($1.key ?? .settings) }
    }
}

extension RowImage {
    /// The kinds a write of this row may change: its own, and those its removal cascades to.
    public var touchedKinds: RowKinds {
        switch self {
        case .settings: .settings
        // A budget's later limits and alert memory are part of its image.
        case .budget: .budgets
        case .recurringRule, .recurringPayment: .recurring
        case .importRule: .importRules
        case .profile: .profiles
        case .importRecord: .importRecords
        // The settings' default account is set to none when the account goes.
        case .account: [.accounts, .settings]
        // Written one by one, each noted with what it replaced (`RowsTransaction.wrote(entry:after:)`).
        case .income, .transfer: []
        case .balanceAssertion: .assertions
        // Outside the history: nothing is kept for the change set.
        case .serveToken: []
        }
    }

    /// What removing expenses may change: the paid occurrences that named them.
    public static let kindsExpenseRemovalTouches: RowKinds = .recurring
}
