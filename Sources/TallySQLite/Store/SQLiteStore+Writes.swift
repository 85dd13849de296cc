import Foundation
import GRDB
import TallyCore

// The store's writes, each one transaction: the rules are Core's, this file saves what they allow.
extension SQLiteStore {
    // MARK: - Writes

    /// Saves a validated, timestamped budget under a new id.
    static func insert(_ budget: Budget, _ db: Database) throws -> Budget {
        var record = BudgetRecord(budget)
        record.id = nil
        try saving(budget) { try record.insert(db) }
        var saved = budget
        saved.id = record.id
        try saveLimitChanges(of: saved, db)
        return saved
    }

    /// Replaces the budget's later limits with its own.
    static func saveLimitChanges(of budget: Budget, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM budgetLimit WHERE budgetId = ?", arguments: [budget.id])
        for change in budget.limitChanges {
            try db.execute(
                sql: "INSERT INTO budgetLimit (budgetId, fromMonth, limitCents) VALUES (?, ?, ?)",
                arguments: [budget.id, change.from.storedNumber, change.limit.cents])
        }
    }

    /// Saves `settings` inside the caller's transaction, rebuilding `budgetMonth` when the
    /// periods change.
    static func save(_ settings: LedgerSettings, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE setting SET currency = ?, warnPercent = ?, historyDays = ?, defaultAccountId = ? WHERE id = 1",
            arguments: [settings.currency?.code, settings.warn, settings.historyDays, settings.defaultAccountID])
        guard try calendar(db) != settings.calendar else { return }
        try db.execute(sql: "UPDATE setting SET monthStart = ? WHERE id = 1", arguments: [settings.calendar.monthStart])
        // `budgetMonth` and `expenseGroup` hold each period's totals, and the periods just changed.
        try ExpenseCaches.rebuildPeriods(calendar: settings.calendar, db)
    }

    /// Saves a validated expense under a new id, with its rows of the caches (`ExpenseCaches`).
    static func insert(_ expense: Expense, calendar: PeriodCalendar, _ db: Database) throws -> Expense {
        let (saved, tagSetID) = try insertRecord(expense, db)
        for row in try ExpenseCaches.Row.rows(saved, tagSetID: tagSetID, db) { try ExpenseCaches.added(row, calendar: calendar, db) }
        return saved
    }

    /// The saved expense, and the tag set it was saved with.
    private static func insertRecord(_ expense: Expense, _ db: Database) throws -> (expense: Expense, tagSetID: Int64?) {
        let record = ExpenseRecord(expense, tagSetId: try tagSetID(expense.tags, db))
        // Plain SQL: a record's insert first reads the table's schema, work `tally add` need not do.
        try saving(expense) {
            try db.execute(
                sql: ExpenseRecord.insertSQL(rows: 1),
                arguments: [
                    record.budgetId, record.name, record.nameKey, record.amountCents, record.quantity, record.date,
                    record.tagSetId, record.createdAt, record.updatedAt, record.spentBy, record.accountId,
                    record.originalMinor, record.originalCurrency, record.rate, record.rateSource,
                ])
        }
        var saved = expense
        saved.id = db.lastInsertedRowID
        // The import's statement binds the columns every expense has; a split's or refund's text goes after.
        if !record.detail.isEmpty {
            try db.execute(sql: "UPDATE expense SET detail = ? WHERE id = ?", arguments: [record.detail, saved.id])
        }
        return (saved, record.tagSetId)
    }

    /// Saves many validated, stamped expenses under new ids through the import's batched writer
    /// (`ExpenseBatchWriter`): one `INSERT` of 1,024 rows instead of 1,024, and the caches
    /// written once at the end. AUTOINCREMENT hands the transaction's rows consecutive ids.
    static func insertInBulk(_ expenses: [Expense], at timestamp: Date, _ db: Database) throws -> [Expense] {
        let first = try lastExpenseID(db) + 1
        var writer = try ExpenseBatchWriter(db: db, milliseconds: Milliseconds.since1970(timestamp))
        do {
            // Batches repeat the same few names; each is folded once.
            var nameKeys: [String: String] = [:]
            for expense in expenses {
                let nameKey = nameKeys[expense.name] ?? expense.nameKey
                nameKeys[expense.name] = nameKey
                try writer.append(expense, budgetID: expense.budgetID, nameKey: nameKey)
            }
            try writer.finish()
        } catch {
            // The writer turned the schema's CHECKs off; the connection outlives this transaction.
            try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
            throw error
        }
        return expenses.enumerated().map { offset, expense in
            var saved = expense
            saved.id = first + Int64(offset)
            return saved
        }
    }

    /// Saves `expense` under its id, as it is, over the saved expense of that id or in its place
    /// (undo puts a removed one back), and moves its rows of the caches; returns the expense as
    /// it was, `nil` when there was none.
    static func replace(_ expense: Expense, _ db: Database) throws -> Expense? {
        guard let id = expense.id else { throw TallyError.expenseNotFound(0) }
        guard let existing = try ExpenseRecord.fetchOne(db, key: id) else {
            try put([expense], db)
            return nil
        }
        let before = try model(existing, db)
        let record = ExpenseRecord(expense, tagSetId: try tagSetID(expense.tags, db))
        try saving(expense) { try record.update(db) }
        let (old, new) = (try ExpenseCaches.Row.rows(existing, db), try ExpenseCaches.Row.rows(record, db))
        if old != new {
            let calendar = try calendar(db)
            var removed = ExpenseCaches(calendar: calendar)
            for row in old { removed.add(row) }
            try removed.saveRemoved(db)
            for row in new { try ExpenseCaches.added(row, calendar: calendar, db) }
        }
        return before
    }

    /// Removes the saved expenses of ids `ids` with their rows of the caches, in one statement
    /// whatever their number; returns them as they were.
    static func delete(expenses ids: [Int64], _ db: Database) throws -> [Expense] {
        guard !ids.isEmpty else { return [] }
        let existing = try expenses(ExpenseQuery(ids: ids), db)
        if existing.count < Set(ids).count {
            let found = Set(existing.compactMap(\.id))
            throw TallyError.expenseNotFound(ids.first { !found.contains($0) } ?? 0)
        }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        try ExpenseCaches.delete(expensesWhere: "id IN (SELECT value FROM json_each(?1))", bind: { $0.bind(1, list) }, db)
        return existing
    }

    /// An expense row as the model, with its tags.
    static func model(_ record: ExpenseRecord, _ db: Database) throws -> Expense {
        let tags = try record.tagSetId.map { try Self.tags(ofSets: [$0], db)[$0] ?? [] } ?? []
        return try record.model(tags: tags)
    }

    // MARK: - Write Helpers

    /// Runs a budget write, turning a constraint the checks above could not foresee into its rule.
    private static func saving(_ budget: Budget, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw TallyError.duplicateBudget(budget.name)
        }
    }

    private static func saving(_ expense: Expense, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            // The foreign key found no such budget.
            try expense.checkBudget(exists: false)
        }
    }
}
