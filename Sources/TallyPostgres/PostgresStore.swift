import Foundation
import PostgresNIO
import TallyCore

/// A `DataAccess` on a PostgreSQL server, for a ledger several machines share.
///
/// Each method is one transaction on one connection. Writes take the ledger's writer lock
/// (`PostgresSchema.writerLock`) first, so concurrent commands from several machines run one
/// after another and none loses another's rows; reads see one snapshot. The figures are Core's
/// rules, finished in Swift from sums grouped on the server (`PostgresStore+Aggregates.swift`)
/// or read from `budgetMonth`, the cache of each budget's spending per period that
/// `PostgresCaches` alone writes, or applied to the rows read.
public final class PostgresStore: DataAccess, @unchecked Sendable {
    let session: PostgresSession
    private let clock: @Sendable () -> Date

    /// Connects to `location` and creates or upgrades Tally's tables there.
    public init(location: ServerLocation, clock: @escaping @Sendable () -> Date = { Date() }) throws(TallyError) {
        session = try PostgresSession(location)
        self.clock = clock
        do {
            try PostgresSchema.migrate(session)
        } catch {
            session.close()
            throw error
        }
    }

    var now: Date { clock().roundedToMilliseconds }

    /// The location, without its password.
    public var location: ServerLocation { session.location }

    public func close() throws(TallyError) { session.close() }

    /// The one writer of the cache of expense sums.
    var caches: PostgresCaches { PostgresCaches(session: session) }

    func write<T>(_ body: () throws(TallyError) -> T) throws(TallyError) -> T { try session.transaction(writing: true, body) }
    func read<T>(_ body: () throws(TallyError) -> T) throws(TallyError) -> T { try session.transaction(writing: false, body) }

    // MARK: - Settings

    func loadSettings() throws(TallyError) -> LedgerSettings {
        guard
            let row = try session.query("SELECT monthStart, currency, warnPercent, historyDays, defaultAccountId FROM setting WHERE id = 1").first
        else {
            return LedgerSettings()
        }
        return LedgerSettings(
            calendar: try PeriodCalendar(monthStart: Int(try row.int(0))), currency: try row.optionalString(1).map(Currency.init(storedCode:)),
            warn: Int(try row.int(2)), historyDays: Int(try row.int(3)), defaultAccountID: try row.optionalInt(4))
    }

    func saveSettings(_ settings: LedgerSettings) throws(TallyError) {
        let monthStart = try session.query("SELECT monthStart FROM setting WHERE id = 1").first?.int(0)
        try session.query(
            "UPDATE setting SET monthStart = $1, currency = $2, warnPercent = $3, historyDays = $4, defaultAccountId = $5 WHERE id = 1",
            [
                .int(Int64(settings.calendar.monthStart)), .text(settings.currency?.code), .int(Int64(settings.warn)),
                .int(Int64(settings.historyDays)), .int(settings.defaultAccountID),
            ])
        // `budgetMonth` holds each period's totals, and the periods just changed.
        if monthStart != Int64(settings.calendar.monthStart) { try caches.rebuildPeriods() }
    }

    // MARK: - Budgets

    /// Checks the name is free, gives `budget` the next id and its timestamps (`createdAt`, else
    /// `timestamp`), and saves it with its later limits.
    func insertBudget(_ budget: Budget, createdAt: Date? = nil, at timestamp: Date) throws(TallyError) -> Budget {
        var budget = budget
        try checkUnique(budget)
        budget.id = try nextIDs("budget")
        budget.createdAt = createdAt ?? timestamp
        budget.updatedAt = timestamp
        try session.query(
            "INSERT INTO budget (\(Columns.budgetInsert)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            [.int(budget.id)] + budget.binds)
        try saveLimitChanges(of: budget)
        return budget
    }

    func saveLimitChanges(of budget: Budget) throws(TallyError) {
        try session.query("DELETE FROM budgetLimit WHERE budgetId = $1", [.int(budget.id)])
        for change in budget.limitChanges {
            try session.query(
                "INSERT INTO budgetLimit (budgetId, fromMonth, limitCents) VALUES ($1, $2, $3)",
                [.int(budget.id), .int(change.from.stored), .int(change.limit.cents)])
        }
    }

    /// Reserves `count` ids of `kind` and returns the first: ids are never reused, as SQLite's
    /// AUTOINCREMENT keeps them, and a rolled-back transaction gives them back.
    func nextIDs(_ kind: String, count: Int = 1) throws(TallyError) -> Int64 {
        guard let row = try session.query("UPDATE idCounter SET last = last + $2 WHERE kind = $1 RETURNING last", [.text(kind), .int(Int64(count))]).first
        else { throw .storage("the database has no \(kind) id counter") }
        return try row.int(0) - Int64(count) + 1
    }

    /// Every budget, ordered by the bytes of its name key, then id.
    func loadBudgets(where condition: String = "TRUE", _ binds: [SQLValue] = []) throws(TallyError) -> [Budget] {
        // Each budget with its later limits, in order, from one statement: every command reads the
        // budgets, and a second statement would be a second round trip.
        let rows = try session.query(
            """
            SELECT \(Columns.qualified(Columns.budget, as: "b")), coalesce(l.months, '{}'), coalesce(l.limits, '{}') FROM budget b
            LEFT JOIN (
                SELECT budgetId, array_agg(fromMonth ORDER BY fromMonth) AS months, array_agg(limitCents ORDER BY fromMonth) AS limits
                FROM budgetLimit GROUP BY budgetId) l ON l.budgetId = b.id
            WHERE \(condition) ORDER BY b.nameKey COLLATE "C", b.id
            """, binds)
        var budgets: [Budget] = []
        budgets.reserveCapacity(rows.count)
        for row in rows {
            let months = try row.ints(16)
            let limits = try row.ints(17)
            guard months.count == limits.count else { throw .storage("a budget's limit changes cannot be read") }
            var changes: [LimitChange] = []
            for (month, limit) in zip(months, limits) { changes.append(LimitChange(from: try Month(stored: month), limit: Money(cents: limit))) }
            budgets.append(try Budget(row: row, limitChanges: changes))
        }
        return budgets
    }

    func find(_ name: String) throws(TallyError) -> Budget {
        try Budget.named(name, found: try loadBudgets(where: "nameKey = $1", [.text(NameKey.lookup(name))]).first)
    }

    private func checkUnique(_ budget: Budget) throws(TallyError) {
        let holder = try session.query("SELECT id FROM budget WHERE nameKey = $1", [.text(budget.nameKey)]).first
        try budget.checkNameIsFree(heldBy: try holder?.int(0))
    }

    // MARK: - Expenses

    /// Gives each expense the next id and its timestamps, saves them, and remembers their tags.
    /// Without `caching`, the caller counts them into the cache itself (the import, once).
    func insertExpenses(_ expenses: [Expense], at timestamp: Date, caching: Bool = true) throws(TallyError) -> [Expense] {
        guard !expenses.isEmpty else { return [] }
        var id = try nextIDs("expense", count: expenses.count)
        var saved: [Expense] = []
        saved.reserveCapacity(expenses.count)
        for expense in expenses {
            var expense = expense
            expense.id = id
            expense.createdAt = timestamp
            expense.updatedAt = timestamp
            saved.append(expense)
            id += 1
        }
        try writeExpenses(saved, replacing: false, caching: caching)
        return saved
    }

    /// Saves expenses under the ids they carry and remembers their tags. With `replacing`, a row
    /// with the same id is updated in place (undo puts rows back as they were), so what links to
    /// it, such as the recurring payment it makes, stays linked. The cache counts the rows replaced
    /// out and, with `caching`, the rows written in.
    func writeExpenses(_ expenses: [Expense], replacing: Bool, caching: Bool = true) throws(TallyError) {
        guard !expenses.isEmpty else { return }
        let rows = Self.selecting(ids: expenses.map { $0.id ?? 0 })
        if replacing { try caches.record(.removed, where: rows.condition, rows.binds) }
        try saveExpenses(expenses, replacing: replacing)
        if caching { try caches.record(.added, where: rows.condition, rows.binds, dates: expenses.map(\.date)) }
    }

    /// The rows with `ids`, as a condition on `id`: a range when they are one (new rows' ids are).
    static func selecting(ids: [Int64]) -> (condition: String, binds: [SQLValue]) {
        guard let first = ids.first, let last = ids.last, first <= last, last - first == Int64(ids.count - 1),
            zip(ids, ids.dropFirst()).allSatisfy({ $0 + 1 == $1 })
        else { return ("id = ANY($1::BIGINT[])", [.ints(ids)]) }
        return ("id BETWEEN $1 AND $2", [.int(first), .int(last)])
    }

    private func saveExpenses(_ expenses: [Expense], replacing: Bool) throws(TallyError) {
        // New rows in bulk (imports, copies, undo of a removal) go by COPY; a few rows cost less
        // as one INSERT than as COPY's extra round trips.
        if !replacing && expenses.count >= 100 {
            var rows = CopyRows(capacity: expenses.count * 128)
            for expense in expenses {
                rows.append(expense.id ?? 0)
                rows.append(expense.budgetID)
                rows.append(expense.name)
                rows.append(expense.nameKey)
                rows.append(expense.amount.cents)
                rows.append(expense.quantity)
                rows.append(expense.date.stored)
                rows.append(tags: expense.tags)
                rows.append(Milliseconds.since1970(expense.createdAt))
                rows.append(Milliseconds.since1970(expense.updatedAt))
                rows.append(expense.by)
                if let account = expense.accountID { rows.append(account) } else { rows.appendNull() }
                if let foreign = expense.foreign {
                    rows.append(foreign.original.minorUnits)
                    rows.append(foreign.original.currency.code)
                    rows.append(foreign.rate.plainString)
                    rows.append(foreign.source.rawValue)
                } else {
                    for _ in 0..<4 { rows.appendNull() }
                }
                let stored = expense.storedDetail
                rows.append(stored.detail)
                rows.append(stored.lineKeys)
                rows.endRow()
            }
            // Tags first: a statement after the COPY would wait for it (`PostgresSession.copy`).
            try rememberTags(Set(expenses.flatMap(\.tags)))
            try session.copy(into: "expense", columns: Self.copiedExpenseColumns, rows)
            return
        }
        // Rows go in batches: one statement per row would cost a round trip each.
        let perStatement = 1_000
        for start in stride(from: 0, to: expenses.count, by: perStatement) {
            let batch = expenses[start..<min(start + perStatement, expenses.count)]
            var binds: [SQLValue] = []
            binds.reserveCapacity(batch.count * 18)
            var values: [String] = []
            for expense in batch {
                let base = binds.count
                values.append("(" + (1...18).map { "$\(base + $0)" }.joined(separator: ", ") + ")")
                binds.append(.int(expense.id))
                binds.append(contentsOf: expense.binds)
            }
            try session.query(
                "INSERT INTO expense (id, budgetId, name, nameKey, amountCents, quantity, date, tags, createdAt, updatedAt, spentBy, accountId, "
                    + "originalMinor, originalCurrency, rate, rateSource, detail, lineKeys) VALUES "
                    + values.joined(separator: ", ")
                    + (replacing ? Self.replacingExpense : ""), binds)
        }
        try rememberTags(Set(expenses.flatMap(\.tags)))
    }

    /// The order `writeExpenses` writes fields in; COPY quotes names, so they are spelled as
    /// PostgreSQL folded the unquoted names of the CREATE TABLE.
    static let copiedExpenseColumns = [
        "id", "budgetid", "name", "namekey", "amountcents", "quantity", "date", "tags", "createdat", "updatedat", "spentby", "accountid",
        "originalminor", "originalcurrency", "rate", "ratesource", "detail", "linekeys",
    ]

    private static let replacingExpense = """
         ON CONFLICT (id) DO UPDATE SET budgetId = excluded.budgetId, name = excluded.name, nameKey = excluded.nameKey,
            amountCents = excluded.amountCents, quantity = excluded.quantity, date = excluded.date, tags = excluded.tags,
            createdAt = excluded.createdAt, updatedAt = excluded.updatedAt, spentBy = excluded.spentBy, accountId = excluded.accountId,
            originalMinor = excluded.originalMinor, originalCurrency = excluded.originalCurrency, rate = excluded.rate,
            rateSource = excluded.rateSource, detail = excluded.detail, lineKeys = excluded.lineKeys
        """

    func rememberTags(_ tags: Set<String>) throws(TallyError) {
        guard !tags.isEmpty else { return }
        try session.query(
            "INSERT INTO tag (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING", [.texts(tags.map(\.precomposedStringWithCanonicalMapping).sorted())])
    }

    /// Saves `expense` over the saved expense of its id, as it is, and moves its rows of the
    /// cache; returns the expense as it was.
    func replaceExpense(_ expense: Expense) throws(TallyError) -> Expense? {
        guard let id = expense.id else { throw .expenseNotFound(0) }
        guard let existing = try loadExpenses(where: "id = $1", [.int(id)]).first else {
            // Undo puts a removed one back in its place, as it was.
            try writeExpenses([expense], replacing: true)
            return nil
        }
        try caches.record(.removed, where: "id = $1", [.int(id)], dates: [existing.date])
        try session.query(
            "UPDATE expense SET budgetId = $2, name = $3, nameKey = $4, amountCents = $5, quantity = $6, date = $7, tags = $8, createdAt = $9, updatedAt = $10, spentBy = $11, accountId = $12, "
                + "originalMinor = $13, originalCurrency = $14, rate = $15, rateSource = $16, detail = $17, lineKeys = $18 WHERE id = $1",
            [.int(id)] + expense.binds)
        try caches.record(.added, where: "id = $1", [.int(id)], dates: [expense.date])
        try rememberTags(Set(expense.tags))
        return existing
    }

    /// Removes the saved expenses of ids `ids` with their rows of the cache; returns them as they were.
    func deleteExpenses(ids: [Int64]) throws(TallyError) -> [Expense] {
        guard !ids.isEmpty else { return [] }
        let existing = try loadExpenses(where: "id = ANY($1::BIGINT[])", [.ints(ids)], suffix: "ORDER BY id")
        if existing.count < Set(ids).count {
            let found = Set(existing.compactMap(\.id))
            throw .expenseNotFound(ids.first { !found.contains($0) } ?? 0)
        }
        try caches.record(.removed, where: "id = ANY($1::BIGINT[])", [.ints(ids)], dates: existing.map(\.date))
        try session.query("DELETE FROM expense WHERE id = ANY($1::BIGINT[])", [.ints(ids)])
        return existing
    }

    /// The expenses matching a WHERE clause, unordered.
    func loadExpenses(where condition: String, _ binds: [SQLValue] = [], suffix: String = "") throws(TallyError) -> [Expense] {
        var expenses: [Expense] = []
        for row in try session.query("SELECT \(Columns.expense) FROM expense WHERE \(condition) \(suffix)", binds) {
            expenses.append(try Expense(row: row))
        }
        return expenses
    }
}
