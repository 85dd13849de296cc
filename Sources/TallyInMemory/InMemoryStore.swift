import Foundation
import TallyCore

/// A `DataAccess` held in memory, for tests and previews. Behaves exactly like `SQLiteStore`.
public final class InMemoryStore: DataAccess, @unchecked Sendable {
    // `State`, `transaction` and `find` are internal for the extensions in other files of this module.
    struct State {
        var budgets: [Int64: Budget] = [:]
        var expenses: [Int64: Expense] = [:]
        var nextBudgetID: Int64 = 1
        var nextExpenseID: Int64 = 1
        var imports: [String: ImportRecord] = [:]
        var settings = LedgerSettings()
        /// Every tag stored so far, as SQLite's `tag` table keeps them.
        var knownTags: Set<String> = []
        var rules: [Int64: RecurringRule] = [:]
        var nextRuleID: Int64 = 1
        /// Paid occurrences by rule id and day, as SQLite's `recurringPayment` keeps them.
        var payments: [Int64: [Day: RecurringPayment]] = [:]
        /// What the last `check --new-only` saw, by period and budget id (SQLite's `checkState`).
        var alertLevels: [Month: [Int64: AlertLevel]] = [:]
        /// Import rules by id, with their budget's id (the budget's current name is read from it).
        var importRules: [Int64: (rule: ImportRule, budgetID: Int64)] = [:]
        var nextImportRuleID: Int64 = 1
        /// Keys of imported CSV rows, each with its batch (the change set of the import that
        /// added it), as SQLite's `importedRow` keeps them.
        var rowKeys: [Int64: Int64] = [:]
        /// What undo set aside in bulk, by the undo's change set id (SQLite's `removedExpense` and
        /// `removedImportedRow`).
        var setAside: [Int64: (expenses: [Expense], rowKeys: [Int64: Int64])] = [:]
        /// Import profiles by name key.
        var profiles: [String: ImportProfile] = [:]
        /// The history, oldest first (SQLite's `changeSet`).
        var changeSets: [ChangeSet] = []
        var nextChangeSetID: Int64 = 1
        var accounts: [Int64: Account] = [:]
        var nextAccountID: Int64 = 1
        var incomes: [Int64: Income] = [:]
        var nextIncomeID: Int64 = 1
        var transfers: [Int64: Transfer] = [:]
        var nextTransferID: Int64 = 1
        /// Balance assertions by account id and day.
        var assertions: [Int64: [Day: BalanceAssertion]] = [:]
        /// The rate table by pair, then day; the history records what a write changed in it (`RateImages`).
        var rates: [String: [Day: DayRate]] = [:]
        /// `tally serve`'s tokens; not part of the history (``RowKinds/serveTokens``).
        var serveTokens: [ServeToken] = []
    }

    // Guards `state`; that lock is what makes the class safe to share.
    private let lock = NSLock()
    private var state = State()
    private let clock: @Sendable () -> Date

    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Runs `body` as one transaction: on a thrown error the state is left as it was. What it
    /// changed is recorded as a change set (``changes(from:to:)``), unless `recording` is off.
    func transaction<T>(recording: Bool = true, _ body: (inout State) throws(TallyError) -> T) throws(TallyError) -> T {
        try transaction(recording: { _ in recording }, body)
    }

    /// ``transaction(recording:_:)`` deciding whether to record once `body` has run.
    func transaction<T>(recording: (T) -> Bool, _ body: (inout State) throws(TallyError) -> T) throws(TallyError) -> T {
        lock.lock()
        defer { lock.unlock() }
        var draft = state
        let result = try body(&draft)
        if recording(result) {
            let content = Self.changes(from: state, to: draft)
            if !content.isEmpty {
                Self.record(
                    ChangeSet(id: draft.nextChangeSetID, when: now, command: ChangeContext.command, content: content), into: &draft)
            }
        }
        state = draft
        return result
    }

    var now: Date { clock().roundedToMilliseconds }

    /// Nothing to release: the state goes with the value.
    public func close() throws(TallyError) {}

    // MARK: - Expenses

    /// Gives `expense` the next id and its timestamps, and stores it.
    static func insertExpense(_ expense: Expense, at timestamp: Date, into state: inout State) -> Expense {
        var saved = expense
        saved.id = state.nextExpenseID
        saved.createdAt = timestamp
        saved.updatedAt = timestamp
        state.expenses[state.nextExpenseID] = saved
        state.nextExpenseID += 1
        state.knownTags.formUnion(saved.tags)
        return saved
    }

    /// The expenses `query` asks for, sorted and paged.
    static func expenses(_ query: ExpenseQuery, in state: State) throws(TallyError) -> [Expense] {
        let sorted = try Self.sorted(try matching(query, in: state), by: query.sort, descending: query.descending)
        let start = min(max(query.offset, 0), sorted.count)
        let end = query.limit.map { min(start + max($0, 0), sorted.count) } ?? sorted.count
        return Array(sorted[start..<end])
    }

    // MARK: - Aggregates

    public func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] {
        try transaction { (state: inout State) throws(TallyError) in
            try Spending.byMonth(in: months, budgets: state.budgets.values, of: state.expenses.values, calendar: state.settings.calendar)
        }
    }

    public func unitPrices(matching search: String, in days: DayInterval) throws(TallyError) -> [Day: UnitPriceFigures] {
        try transaction { (state: inout State) throws(TallyError) in
            try UnitPriceFigures.byDay(matching: search, in: days, of: state.expenses.values)
        }
    }

    public func spendingGroups(ofBudgets ids: Set<Int64>, in months: ClosedRange<Month>) throws(TallyError) -> [SpendingGroup] {
        try transaction { (state: inout State) throws(TallyError) in
            try SpendingGroup.groups(ofBudgets: ids, in: state.settings.calendar.days(of: months), of: state.expenses.values)
        }
    }

    static func statuses(for month: Month, of budgets: [Budget], in state: State) throws(TallyError) -> [BudgetStatus] {
        var statuses: [BudgetStatus] = []
        for budget in budgets { statuses.append(try budget.status(viewing: month, in: state.settings.calendar, of: state.expenses.values)) }
        return statuses
    }

    // MARK: - Helpers

    static func matching(_ query: ExpenseQuery, in state: State) throws(TallyError) -> [Expense] {
        let search = query.search.map(NameKey.make).flatMap { $0.isEmpty ? nil : $0 }
        let tag = try query.tag.map { (tag: String) throws(TallyError) in try Expense.normalizedTag(tag) }
        let by = try query.by.map { (by: String) throws(TallyError) in try Expense.validatedBy(by) }
        let ids = query.ids.map(Set.init)
        return state.expenses.values.filter { expense in
            if let ids, !ids.contains(expense.id ?? 0) { return false }
            if let by, Array(expense.by.utf8) != Array(by.utf8) { return false }
            if let budgetID = query.budgetID, !expense.counts(in: budgetID) { return false }
            if query.splitOrRefund, expense.lines.isEmpty, !expense.isRefund { return false }
            if let accountID = query.accountID, expense.accountID != accountID { return false }
            if query.inOtherCurrency, expense.foreign == nil { return false }
            if let days = query.days, !days.contains(expense.date) { return false }
            if let search, !expense.nameKey.contains(search) { return false }
            if let tag, !expense.tags.contains(tag) { return false }
            return true
        }
    }

    /// Orders like SQLite: names by the bytes of their folded key, ties by id in the same direction.
    private static func sorted(_ expenses: [Expense], by sort: ExpenseSort, descending: Bool) throws(TallyError) -> [Expense] {
        var keyed: [(expense: Expense, key: SortKey)] = []
        keyed.reserveCapacity(expenses.count)
        for expense in expenses {
            let key: SortKey
            switch sort {
            case .date: key = .day(expense.date)
            case .amount: key = .money(expense.amount)
            case .total: key = .money(try expense.total())
            case .name: key = .bytes(Array(expense.nameKey.utf8))
            }
            keyed.append((expense, key))
        }
        keyed.sort { lhs, rhs in
            let ascending = lhs.key == rhs.key ? (lhs.expense.id ?? 0) < (rhs.expense.id ?? 0) : lhs.key < rhs.key
            let reversed = lhs.key == rhs.key ? (lhs.expense.id ?? 0) > (rhs.expense.id ?? 0) : rhs.key < lhs.key
            return descending ? reversed : ascending
        }
        return keyed.map(\.expense)
    }

    private enum SortKey: Equatable, Comparable {
        case day(Day), money(Money), bytes([UInt8])

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            switch (lhs, rhs) {
            case (.day(let left), .day(let right)): left < right
            case (.money(let left), .money(let right)): left < right
            case (.bytes(let left), .bytes(let right)): left.lexicographicallyPrecedes(right)
            default: false
            }
        }
    }
}
