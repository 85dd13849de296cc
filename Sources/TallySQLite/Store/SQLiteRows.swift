import Foundation
import GRDB
import TallyCore

extension SQLiteStore {
    public func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let transaction = RowsTransaction(at: now, writable: false)
        return try read { db in try body(SQLiteRows(db, transaction)) }
    }

    /// One `IMMEDIATE` transaction: a second process writing at the same time waits for it.
    public func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T {
        let transaction = RowsTransaction(at: now, writable: true)
        return try write { db in
            try Self.recording(at: transaction.timestamp, db) { content in
                let rows = SQLiteRows(db, transaction)
                defer { rows.restoreCache() }
                let result = try body(rows)
                try transaction.record(into: &content) { (kinds: RowKinds) throws(TallyError) in try rows.rowImages(kinds) }
                return result
            }
        }
    }
}

/// ``LedgerRows`` on the connection of one of `SQLiteStore`'s transactions. Every expense it
/// writes moves its rows of the caches (`ExpenseCaches`).
final class SQLiteRows: LedgerRows {
    private let db: Database
    private let transaction: RowsTransaction
    /// The ledger's calendar, read at the first insert.
    private var calendar: PeriodCalendar?
    /// The page cache's size before ``insertExpenses(_:)`` enlarged it.
    private var cacheSizeToRestore: Int?

    init(_ db: Database, _ transaction: RowsTransaction) {
        self.db = db
        self.transaction = transaction
    }

    var timestamp: Date { transaction.timestamp }

    func rowImages(_ kinds: RowKinds) throws(TallyError) -> [RowImage] {
        try run { () throws in try SQLiteStore.rowImages(db, kinds) }
    }

    func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError) {
        try run { () throws in try SQLiteStore.forEachExpense(query, db, body) }
    }

    func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int {
        try run { () throws in try SQLiteStore.countExpenses(query, db) }
    }

    func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] {
        try run { () throws in try SQLiteStore.rates(query, db) }
    }

    func budgetStatuses(for month: Month, of budgets: [Budget]?) throws(TallyError) -> [BudgetStatus] {
        try run { () throws in try SQLiteStore.statuses(for: month, of: budgets, db) }
    }

    func daySpending(in days: DayInterval) throws(TallyError) -> PeriodSpending {
        try run { () throws in try SQLiteStore.daySpending(in: days, db) }
    }


    func accountDays() throws(TallyError) -> [AccountDay] {
        try run { () throws in try AccountDays.read(db) }
    }

    func save(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        if transaction.recordsItself, !expenses.isEmpty, expenses.allSatisfy({ $0.id != nil }) {
            // Undo puts many back at once in one cached statement; its change set is its own, so
            // what they replaced is not noted.
            try run { () throws in try SQLiteStore.put(expenses, db) }
            return expenses
        }
        return try transaction.save(expenses, insert: insert) { (expense: Expense) throws(TallyError) in try run { () throws in try SQLiteStore.replace(expense, db) } }
    }

    private func insert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        let stamped = try transaction.stampedForInsert(expenses)
        let saved = try run { () throws in
            if stamped.count >= RowsTransaction.bulkInsert { return try SQLiteStore.insertInBulk(stamped, at: timestamp, db) }
            let calendar = try self.calendar ?? SQLiteStore.calendar(db)
            self.calendar = calendar
            return try stamped.map { expense in try SQLiteStore.insert(expense, calendar: calendar, db) }
        }
        transaction.inserted(saved)
        return saved
    }

    func insertExpenses(_ body: (any NewExpenseWriter) throws(TallyError) -> Void) throws(TallyError) -> ExpenseIDRange? {
        try transaction.checkWritable()
        if cacheSizeToRestore == nil { cacheSizeToRestore = try ExpenseImporter.enlargeCache(db) }
        return try ExpenseImporter.insertExpenses(at: timestamp, db, body)
    }

    /// Gives the connection back its page cache once the transaction's writes are done: a bulk
    /// insert keeps the larger one to the end, for the row keys and caches written after it.
    func restoreCache() {
        guard let size = cacheSizeToRestore else { return }
        try? db.execute(sql: "PRAGMA cache_size = \(size)")
        cacheSizeToRestore = nil
    }

    /// `ON DELETE SET NULL` keeps the payments the expenses made, without them.
    func delete(_ expenses: [Expense]) throws(TallyError) {
        try willChangeRows(RowImage.kindsExpenseRemovalTouches)
        let removed = try run { () throws in try SQLiteStore.delete(expenses: expenses.compactMap(\.id), db) }
        try transaction.removing(removed)
    }

    /// A new row's id is SQLite's next AUTOINCREMENT one.
    func save(_ row: RowImage) throws(TallyError) -> RowImage {
        try willChangeRows(row.touchedKinds)
        if row.movesBalances {
            let before = try run { () throws in try SQLiteStore.storedEntry(row, db) }
            let saved = try run { () throws in try SQLiteStore.putAccountRow(row, db) ?? row }
            try transaction.wrote(entry: before, after: saved)
            return saved
        }
        return try run { () throws in
            switch row {
            case .budget(let budget) where budget.id == nil:
                return .budget(try SQLiteStore.insert(budget, db))
            case .recurringRule(let rule) where rule.id == nil:
                return .recurringRule(try SQLiteStore.insert(rule, timestamp: Milliseconds.since1970(timestamp), db))
            case .account, .income, .transfer, .balanceAssertion:
                return try SQLiteStore.putAccountRow(row, db) ?? row
            case .importRule(var rule, let budgetID) where rule.id == nil:
                try SQLiteStore.insert(rule, budgetID: budgetID, db)
                rule.id = db.lastInsertedRowID
                return .importRule(rule, budgetID: budgetID)
            default:
                try SQLiteStore.put(row, db)
                return row
            }
        }
    }

    func delete(_ row: RowImage) throws(TallyError) {
        try willChangeRows(row.touchedKinds)
        let before = row.movesBalances ? try run { () throws in try SQLiteStore.storedEntry(row, db) } : nil
        try run { () throws in try SQLiteStore.delete(row, db) }
        if let before { try transaction.wrote(entry: before, after: nil) }
    }

    /// What a rate write removes is read first, for the change set.
    func writeRates(removing removed: [DayRate], saving saved: [DayRate]) throws(TallyError) -> RateImages {
        try transaction.checkWritable()
        var images = RateImages()
        try run { () throws in
            try SQLiteStore.deleteRates(removed, recording: &images, db)
            try SQLiteStore.insertRates(saved, recording: &images, db)
        }
        transaction.rates.before += images.before
        transaction.rates.after += images.after
        return images
    }

    // MARK: History

    func history(contentFrom id: Int64?) throws(TallyError) -> History {
        try run { () throws in try SQLiteStore.history(contentFrom: id, db) }
    }

    func record(_ changeSet: ChangeSet) throws(TallyError) {
        try transaction.recordedItself()
        try run { () throws in try SQLiteStore.record(changeSet, explicitID: true, db) }
    }

    func setAside(_ expenses: ExpenseIDRange?, rowKeysOf batch: Int64?, under id: Int64) throws(TallyError) {
        try transaction.checkWritable()
        try run { () throws in try SQLiteStore.setAside(expenses, rowKeysOf: batch, under: id, db) }
    }

    func bringBack(setAsideUnder id: Int64) throws(TallyError) {
        try transaction.checkWritable()
        try run { () throws in try SQLiteStore.bringBack(setAsideUnder: id, db) }
    }

    private func willChangeRows(_ kinds: RowKinds) throws(TallyError) {
        try transaction.willChangeRows(kinds) { (kinds: RowKinds) throws(TallyError) in try rowImages(kinds) }
    }

    private func run<T>(_ body: () throws -> T) throws(TallyError) -> T {
        do {
            return try body()
        } catch {
            throw SQLiteStore.storageError(error)
        }
    }
}
