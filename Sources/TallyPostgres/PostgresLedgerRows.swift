import Foundation
import TallyCore

extension PostgresStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let rows = PostgresLedgerRows(self, RowsTransaction(at: now, writable: false))
        return try read { () throws(TallyError) in try body(rows) }
    }

    /// The writer lock makes writers from every machine take turns.
    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let transaction = RowsTransaction(at: now, writable: true)
        return try recordedWrite { (content: inout ChangeContent) throws(TallyError) in
            let rows = PostgresLedgerRows(self, transaction)
            let result = try body(rows)
            try transaction.record(into: &content) { (kinds: RowKinds) throws(TallyError) in try rows.rowImages(kinds) }
            return result
        }
    }
}

/// ``LedgerRows`` on the store's connection, inside one of its transactions.
final class PostgresLedgerRows: LedgerRows {
    private let store: PostgresStore
    private let transaction: RowsTransaction
    /// The settings as this transaction read them, until it writes a row other than an expense:
    /// a report asks for them several times, and each read is a round trip to the server.
    private var settingsRead: LedgerSettings?

    init(_ store: PostgresStore, _ transaction: RowsTransaction) {
        self.store = store
        self.transaction = transaction
    }

    var timestamp: Date { transaction.timestamp }

    func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] { try store.loadRates(query) }

    func rowImages(_ kinds: RowKinds) throws(TallyError) -> [RowImage] {
        guard kinds == .settings else { return try store.rowImages(kinds) }
        if let settingsRead { return [.settings(settingsRead)] }
        let settings = try store.loadSettings()
        settingsRead = settings
        return [.settings(settings)]
    }

    func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError) {
        try store.forEachExpense(query, body)
    }

    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int { try store.countExpenses(matching: query) }

    func budgetStatuses(for month: Month, of budgets: [Budget]?) throws(TallyError) -> [BudgetStatus] {
        let chosen: [Budget]
        if let budgets { chosen = budgets } else { chosen = try store.loadBudgets() }
        return try store.statuses(for: month, budgets: chosen, calendar: try settings().calendar)
    }

    func daySpending(in days: DayInterval) throws(TallyError) -> PeriodSpending { try store.daySpending(in: days) }

    func accountDays() throws(TallyError) -> [AccountDay] { try store.caches.accountDays() }

    func save(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        if transaction.recordsItself, !expenses.isEmpty, expenses.allSatisfy({ $0.id != nil }) {
            // Undo puts many back at once, ids and timestamps included; its change set is its own,
            // so what they replaced is not noted.
            try store.writeExpenses(expenses, replacing: true)
            return expenses
        }
        return try transaction.save(expenses, insert: insert) { (expense: Expense) throws(TallyError) in try store.replaceExpense(expense) }
    }

    private func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        let stamped = try transaction.stampedForInsert(expenses)
        let saved = try store.insertExpenses(stamped, at: transaction.timestamp)
        transaction.inserted(saved)
        return saved
    }

    func insertExpenses(_ body: (any NewExpenseWriter) throws(TallyError) -> Void) throws(TallyError) -> ExpenseIDRange? {
        try transaction.checkWritable()
        let writer = try PostgresExpenseWriter(store, at: timestamp)
        try body(writer)
        return try writer.finish()
    }

    /// `ON DELETE SET NULL` keeps the payments the expenses made, without them.
    func delete(_ expenses: [Expense]) throws(TallyError) {
        try willChangeRows(RowImage.kindsExpenseRemovalTouches)
        try transaction.removing(try store.deleteExpenses(ids: expenses.compactMap(\.id)))
    }

    /// A new row's id comes from its kind's counter (`idCounter`), never handed out twice.
    func save(_ row: RowImage) throws(TallyError) -> RowImage {
        try willChangeRows(row.touchedKinds)
        if row.entryRow != nil {
            let before = try store.storedEntry(row)
            let saved = try store.putAccountRow(row) ?? row
            try transaction.wrote(entry: before, after: saved)
            return saved
        }
        switch row {
        case .budget(let budget) where budget.id == nil:
            return .budget(try store.insertBudget(budget, createdAt: budget.createdAt, at: budget.updatedAt))
        case .recurringRule(let rule) where rule.id == nil:
            return .recurringRule(try store.insertRule(rule))
        case .account, .income, .transfer, .balanceAssertion:
            return try store.putAccountRow(row) ?? row
        case .importRule(var rule, let budgetID) where rule.id == nil:
            rule.id = try store.nextIDs("importRule")
            try store.put(.importRule(rule, budgetID: budgetID))
            return .importRule(rule, budgetID: budgetID)
        default:
            try store.put(row)
            return row
        }
    }

    func delete(_ row: RowImage) throws(TallyError) {
        try willChangeRows(row.touchedKinds)
        let before = row.entryRow != nil ? try store.storedEntry(row) : nil
        try store.delete(row)
        if let before { try transaction.wrote(entry: before, after: nil) }
    }

    func writeRates(removing removed: [DayRate], saving saved: [DayRate]) throws(TallyError) -> RateImages {
        try transaction.checkWritable()
        var images = RateImages()
        try store.deleteRates(removed, recording: &images)
        try store.insertRates(saved, recording: &images)
        transaction.rates.before += images.before
        transaction.rates.after += images.after
        return images
    }

    // MARK: History

    func history(contentFrom id: Int64?) throws(TallyError) -> History { try store.history(contentFrom: id) }

    func record(_ changeSet: ChangeSet) throws(TallyError) {
        try transaction.recordedItself()
        try store.recordAnnounced(changeSet)
    }

    func setAside(_ expenses: ExpenseIDRange?, rowKeysOf batch: Int64?, under id: Int64) throws(TallyError) {
        try transaction.checkWritable()
        try store.setAside(expenses, rowKeysOf: batch, under: id)
    }

    func bringBack(setAsideUnder id: Int64) throws(TallyError) {
        try transaction.checkWritable()
        try store.bringBack(setAsideUnder: id)
    }

    private func willChangeRows(_ kinds: RowKinds) throws(TallyError) {
        try transaction.willChangeRows(kinds) { (kinds: RowKinds) throws(TallyError) in try rowImages(kinds) }
        // After the rows are kept as they were: the write that follows may change the settings.
        settingsRead = nil
    }
}
