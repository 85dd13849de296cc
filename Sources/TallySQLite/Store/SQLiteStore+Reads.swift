import Foundation
import GRDB
import TallyCore

// Budgets, expenses and import records as they are stored, and the SQL of an `ExpenseQuery`.
extension SQLiteStore {
    // MARK: - Reads

    /// The expenses `query` asks for, inside the caller's transaction.
    static func expenses(_ query: ExpenseQuery, _ db: Database) throws -> [Expense] {
        try expenses(query, try Filter(query), db)
    }

    private static func expenses(_ query: ExpenseQuery, _ filter: Filter, _ db: Database) throws -> [Expense] {
        let order = filter.order
        let sql: String
        var arguments = filter.pagedArguments
        if let ids = try largestExpenseIDs(query, db) {
            // The report's largest expenses: bounded by `expenseDay` to the groups that hold them.
            sql = "SELECT e.* FROM expense e WHERE e.id IN (SELECT value FROM json_each(?)) \(order)"
            arguments = ["[" + ids.map(String.init).joined(separator: ",") + "]"]
        } else if query.limit == nil {
            sql = "SELECT e.* FROM expense e \(filter.sql) \(order) LIMIT ? OFFSET ?"
        } else {
            // A page is chosen from the covering index alone and only its rows are then read,
            // instead of reading every row in range to keep a top ten.
            sql = """
                SELECT e.* FROM (SELECT e.id FROM expense e \(filter.sql) \(order) LIMIT ? OFFSET ?) page
                JOIN expense e ON e.id = page.id \(order)
                """
        }
        let records = try ExpenseRecord.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        let tags = try Self.tags(ofSets: records.compactMap(\.tagSetId), db)
        var expenses: [Expense] = []
        expenses.reserveCapacity(records.count)
        for record in records {
            expenses.append(try record.model(tags: record.tagSetId.flatMap { tags[$0] } ?? []))
        }
        return expenses
    }

    /// The ids `query` asks for when it is a period's (and maybe one budget's) first page by
    /// total, largest first, and `expenseDay` bounds it (`largestExpenseIDs(in:budgetID:limit:_:)`).
    private static func largestExpenseIDs(_ query: ExpenseQuery, _ db: Database) throws -> [Int64]? {
        guard query.sort == .total, query.descending, query.offset == 0, let limit = query.limit, let days = query.days,
            query.search.map(NameKey.make)?.isEmpty ?? true, query.tag == nil, query.by == nil, query.ids == nil
        else { return nil }
        return try largestExpenseIDs(in: days, budgetID: query.budgetID, limit: limit, db)
    }

    /// Hands each expense `query` asks for to `body`, inside the caller's transaction: a page
    /// (`query.limit`) as ``expenses(_:_:)`` reads it, anything longer one row at a time.
    static func forEachExpense(_ query: ExpenseQuery, _ db: Database, _ body: (Expense) throws(TallyError) -> Void) throws {
        guard query.limit == nil else {
            for expense in try expenses(query, db) { try body(expense) }
            return
        }
        let filter = try Filter(query)
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT e.*, (SELECT s.tags FROM tagSet s WHERE s.id = e.tagSetId) AS tagList
                FROM expense e \(filter.sql) \(filter.order) LIMIT ? OFFSET ?
                """,
            arguments: filter.pagedArguments)
        while let row = try rows.next() {
            let tagList: String? = row["tagList"]
            try body(try ExpenseRecord(row: row).model(tags: TagSetKey.tags(tagList)))
        }
    }

    /// How many expenses `query` matches, inside the caller's transaction.
    static func countExpenses(_ query: ExpenseQuery, _ db: Database) throws -> Int {
        let filter = try Filter(query)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense e \(filter.sql)", arguments: filter.arguments) ?? 0
    }

    // MARK: - Read Helpers

    static func find(_ name: String, _ db: Database) throws -> Budget {
        let key = NameKey.lookup(name)
        let record = try BudgetRecord.fetchOne(db, sql: "SELECT * FROM budget WHERE nameKey = ?", arguments: [key])
        return try Budget.named(name, found: try record.map { record in try record.model(limitChanges: limitChanges(of: record.id, db)) })
    }

    /// The budget with id `id`, if any.
    static func budget(id: Int64, _ db: Database) throws -> Budget? {
        guard let record = try BudgetRecord.fetchOne(db, key: id) else { return nil }
        return try record.model(limitChanges: limitChanges(of: id, db))
    }

    static func allBudgets(_ db: Database) throws -> [Budget] {
        var changes: [Int64: [LimitChange]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT budgetId, fromMonth, limitCents FROM budgetLimit ORDER BY budgetId, fromMonth")
        while let row = try rows.next() {
            changes[row[0], default: []].append(LimitChange(from: try Month(storedNumber: row[1]), limit: Money(cents: row[2])))
        }
        var budgets: [Budget] = []
        for record in try BudgetRecord.fetchAll(db, sql: "SELECT * FROM budget ORDER BY nameKey, id") {
            budgets.append(try record.model(limitChanges: changes[record.id ?? 0] ?? []))
        }
        return budgets
    }

    /// A budget's later limits, in order.
    static func limitChanges(of budgetID: Int64?, _ db: Database) throws -> [LimitChange] {
        var changes: [LimitChange] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT fromMonth, limitCents FROM budgetLimit WHERE budgetId = ? ORDER BY fromMonth"),
            arguments: [budgetID])
        while let row = try rows.next() { changes.append(LimitChange(from: try Month(storedNumber: row[0]), limit: Money(cents: row[1]))) }
        return changes
    }

    /// How the ledger's periods run.
    static func calendar(_ db: Database) throws -> PeriodCalendar {
        let monthStart = try Int.fetchOne(db.cachedStatement(sql: "SELECT monthStart FROM setting WHERE id = 1")) ?? 1
        return try PeriodCalendar(monthStart: monthStart)
    }

    static func settings(_ db: Database) throws -> LedgerSettings {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT monthStart, currency, warnPercent, historyDays, defaultAccountId FROM setting WHERE id = 1"))
        let currency: String? = row?[1]
        return LedgerSettings(
            calendar: try PeriodCalendar(monthStart: row?[0] ?? 1), currency: currency.map(Currency.init(storedCode:)),
            warn: row?[2] ?? BudgetLevel.defaultWarnPercent, historyDays: row?[3] ?? LedgerSettings.defaultHistoryDays,
            defaultAccountID: row?[4])
    }

    /// The `WHERE` clause of an expense query.
    /// The WHERE clause of an expense query, its ORDER BY (ties by id in the same direction, so
    /// pages are stable) and its arguments, with LIMIT and OFFSET last for paged reads.
    private struct Filter {
        var sql = ""
        var arguments = StatementArguments()
        let order: String
        let pagedArguments: StatementArguments

        init(_ query: ExpenseQuery) throws(TallyError) {
            let direction = query.descending ? "DESC" : "ASC"
            let key =
                switch query.sort {
                case .date: "e.date"
                case .amount: "e.amountCents"
                case .total: "e.amountCents * e.quantity"
                case .name: "e.nameKey"
                }
            order = "ORDER BY \(key) \(direction), e.id \(direction)"
            var clauses: [String] = []
            if let ids = query.ids {
                clauses.append("e.id IN (SELECT value FROM json_each(?))")
                arguments += ["[" + ids.map(String.init).joined(separator: ",") + "]"]
            }
            if let budgetID = query.budgetID {
                // A split expense is in each of its lines' budgets (`expense_detail` finds the split
                // ones, within the query's days when it has some: a fifth of a million-row ledger may
                // be split, and each flagged budget of a report looks for its own).
                let within = query.days == nil ? "" : "AND s.date BETWEEN ? AND ? "
                clauses.append("""
                    (e.budgetId = ? OR e.id IN (SELECT s.id FROM expense s INDEXED BY expense_detail WHERE s.detail <> '' \
                    \(within)AND instr(char(30) || s.detail, char(30) || ? || char(29)) > 0))
                    """)
                arguments += [budgetID]
                if let days = query.days { arguments += [days.first.storedNumber, days.last.storedNumber] }
                arguments += [String(budgetID)]
            }
            if let days = query.days {
                clauses.append("e.date BETWEEN ? AND ?")
                arguments += [days.first.storedNumber, days.last.storedNumber]
            }
            if let search = query.search.map(NameKey.make), !search.isEmpty {
                clauses.append("instr(e.nameKey, ?) > 0")
                arguments += [search]
            }
            if let tag = query.tag {
                clauses.append(
                    "e.tagSetId IN (SELECT st.tagSetId FROM tagSetTag st JOIN tag t ON t.id = st.tagId WHERE t.name = ?)")
                arguments += [try Expense.normalizedTag(tag).composedTag]
            }
            if let by = query.by {
                clauses.append("e.spentBy = ?")
                arguments += [try Expense.validatedBy(by)]
            }
            if let accountID = query.accountID {
                clauses.append("e.accountId = ?")
                arguments += [accountID]
            }
            if query.inOtherCurrency { clauses.append("e.originalCurrency IS NOT NULL") }
            if query.splitOrRefund { clauses.append("e.detail <> ''") }
            if !clauses.isEmpty { sql = "WHERE " + clauses.joined(separator: " AND ") }
            pagedArguments = arguments + [query.limit.map { Int64(max($0, 0)) } ?? -1, Int64(max(query.offset, 0))]
        }
    }
}
