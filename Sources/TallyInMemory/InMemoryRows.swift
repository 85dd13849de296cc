import Foundation
import TallyCore

extension InMemoryStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try transaction(recording: false) { (state: inout State) throws(TallyError) in
            try body(InMemoryRows(state, RowsTransaction(at: timestamp, writable: false)))
        }
    }

    /// Recorded by comparing the states, unless `body` recorded its change set itself (undo).
    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let transaction = RowsTransaction(at: now, writable: true)
        return try self.transaction(recording: { _ in !transaction.recordsItself }) { (state: inout State) throws(TallyError) in
            let rows = InMemoryRows(state, transaction)
            let result = try body(rows)
            state = rows.state
            return result
        }
    }
}

/// ``LedgerRows`` over a draft of the store's state, which the transaction keeps when `body`
/// returns (and records by comparing it with the state before).
final class InMemoryRows: LedgerRows {
    private(set) var state: InMemoryStore.State
    private let transaction: RowsTransaction

    init(_ state: InMemoryStore.State, _ transaction: RowsTransaction) {
        self.state = state
        self.transaction = transaction
    }

    var timestamp: Date { transaction.timestamp }

    func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] { InMemoryStore.rates(query, in: state) }

    func rowImages(_ kinds: RowKinds) throws(TallyError) -> [RowImage] { InMemoryStore.images(state, kinds) }

    func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError) {
        for expense in try InMemoryStore.expenses(query, in: state) { try body(expense) }
    }

    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int { try InMemoryStore.matching(query, in: state).count }

    func save(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try transaction.checkWritable()
        var saved: [Expense] = []
        for expense in expenses {
            guard let id = expense.id else {
                saved.append(InMemoryStore.insertExpense(expense, at: transaction.timestamp, into: &state))
                continue
            }
            // Undo puts a removed one back in its place.
            state.expenses[id] = expense
            state.knownTags.formUnion(expense.tags)
            saved.append(expense)
        }
        return saved
    }

    func insertExpenses(_ body: (any NewExpenseWriter) throws(TallyError) -> Void) throws(TallyError) -> ExpenseIDRange? {
        try transaction.checkWritable()
        let writer = Writer(self)
        try body(writer)
        guard writer.count > 0 else { return nil }
        return ExpenseIDRange(first: writer.firstID, last: writer.firstID + Int64(writer.count) - 1, count: writer.count)
    }

    /// Inserts each expense as it is added.
    private final class Writer: NewExpenseWriter {
        private unowned let rows: InMemoryRows
        let firstID: Int64
        private(set) var count = 0

        init(_ rows: InMemoryRows) {
            self.rows = rows
            firstID = rows.state.nextExpenseID
        }

        func add(_ expense: Expense, nameKey: String) throws(TallyError) {
            _ = InMemoryStore.insertExpense(expense, at: rows.timestamp, into: &rows.state)
            count += 1
        }
    }

    /// What SQLite's `ON DELETE SET NULL` does: the occurrences they paid stay paid.
    func delete(_ expenses: [Expense]) throws(TallyError) {
        try transaction.checkWritable()
        for expense in expenses {
            guard state.expenses.removeValue(forKey: expense.id ?? 0) != nil else { throw .expenseNotFound(expense.id ?? 0) }
        }
        InMemoryStore.unlinkPayments(of: Set(expenses.compactMap(\.id)), in: &state)
    }

    func daySpending(in days: DayInterval) throws(TallyError) -> PeriodSpending {
        try PeriodSpending.of(state.expenses.values, in: days)
    }

    func accountDays() throws(TallyError) -> [AccountDay] {
        try AccountDay.sums(
            incomes: Array(state.incomes.values), transfers: Array(state.transfers.values), expenses: Array(state.expenses.values))
    }

    func budgetStatuses(for month: Month, of budgets: [Budget]?) throws(TallyError) -> [BudgetStatus] {
        try InMemoryStore.statuses(for: month, of: budgets ?? Budget.ordered(Array(state.budgets.values)), in: state)
    }

    /// A new row's id is the next of its kind's counter, as SQLite's AUTOINCREMENT hands them out.
    func save(_ row: RowImage) throws(TallyError) -> RowImage {
        try transaction.checkWritable()
        switch row {
        case .settings(let settings): state.settings = settings
        case .budget(var budget):
            Self.assign(&budget.id, from: &state.nextBudgetID)
            state.budgets[budget.id ?? 0] = budget
            return .budget(budget)
        case .recurringRule(var rule):
            Self.assign(&rule.id, from: &state.nextRuleID)
            state.rules[rule.id ?? 0] = rule
            return .recurringRule(rule)
        case .recurringPayment(let payment): state.payments[payment.ruleID, default: [:]][payment.date] = payment
        case .importRule(var rule, let budgetID):
            Self.assign(&rule.id, from: &state.nextImportRuleID)
            state.importRules[rule.id ?? 0] = (rule, budgetID)
            return .importRule(rule, budgetID: budgetID)
        case .profile(let profile): state.profiles[profile.nameKey] = profile
        case .importRecord(let record): state.imports[record.fingerprint] = record
        case .account(var account):
            Self.assign(&account.id, from: &state.nextAccountID)
            InMemoryStore.put(.account(account), into: &state)
            return .account(account)
        case .income(var income):
            Self.assign(&income.id, from: &state.nextIncomeID)
            InMemoryStore.put(.income(income), into: &state)
            return .income(income)
        case .transfer(var transfer):
            Self.assign(&transfer.id, from: &state.nextTransferID)
            InMemoryStore.put(.transfer(transfer), into: &state)
            return .transfer(transfer)
        case .balanceAssertion, .serveToken, .alertLevel, .importedRows: InMemoryStore.put(row, into: &state)
        // Written with the expenses that carry them.
        case .tags: break
        }
        return row
    }

    func writeRates(removing removed: [DayRate], saving saved: [DayRate]) throws(TallyError) -> RateImages {
        try transaction.checkWritable()
        let old = state.rates
        InMemoryStore.apply(RateImages(before: removed, after: saved), to: &state.rates)
        return InMemoryStore.rateChanges(from: old, to: state.rates)
    }

    // MARK: History

    /// Headers are change sets without their content, as a store reads them from its table.
    func history(contentFrom id: Int64?) throws(TallyError) -> History {
        let changeSets = state.changeSets.map { changeSet in
            guard changeSet.id < id ?? Int64.max else { return changeSet }
            var header = changeSet
            header.content = ChangeContent()
            return header
        }
        return History(changeSets, nextID: state.nextChangeSetID)
    }

    func record(_ changeSet: ChangeSet) throws(TallyError) {
        try transaction.recordedItself()
        InMemoryStore.record(changeSet, into: &state)
    }

    func setAside(_ expenses: ExpenseIDRange?, rowKeysOf batch: Int64?, under id: Int64) throws(TallyError) {
        try transaction.checkWritable()
        var kept = state.setAside[id] ?? ([], [:])
        if let expenses {
            for expenseID in expenses.first...expenses.last {
                if let expense = state.expenses.removeValue(forKey: expenseID) { kept.expenses.append(expense) }
            }
        }
        if let batch {
            for (key, keyBatch) in state.rowKeys where keyBatch == batch {
                kept.rowKeys[key] = keyBatch
                state.rowKeys[key] = nil
            }
        }
        state.setAside[id] = kept
    }

    func bringBack(setAsideUnder id: Int64) throws(TallyError) {
        try transaction.checkWritable()
        guard let kept = state.setAside.removeValue(forKey: id) else { return }
        for expense in kept.expenses { state.expenses[expense.id ?? 0] = expense }
        for (key, batch) in kept.rowKeys where state.rowKeys[key] == nil { state.rowKeys[key] = batch }
    }

    /// A missing id becomes the counter's next.
    private static func assign(_ id: inout Int64?, from counter: inout Int64) {
        guard id == nil else { return }
        id = counter
        counter += 1
    }

    func delete(_ row: RowImage) throws(TallyError) {
        try transaction.checkWritable()
        InMemoryStore.delete(row, from: &state)
    }
}
