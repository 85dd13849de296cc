import Foundation
import GRDB
import GRDBSQLite
import TallyCore

/// The one writer of the store's four caches of entry sums, each a copy of Core's rules kept
/// for speed:
/// - `budgetMonth`: each budget's spending and expense count per period (`Schema.v3`), what
///   `Budget.spent(in:of:)` computes from the expenses, under `PeriodCalendar` (`MonthlyTotals`);
/// - `expenseDay`: each day's sum, count and largest total per budget, tag set and person
///   (`Schema.v12ExpenseDays`), what the month report reads (`DayTotals`);
/// - `expenseGroup`: each period's sum, count and smallest spelling per budget, name key and tag
///   set (`Schema.v19WhyOverGroups`), what why over compares (`GroupTotals`);
/// - `accountDay`: each day's change per account (`Schema.v15ExpenseAccounts`), what balances
///   read (`AccountDays`); incomes and transfers reach it through ``recordAccountRows(removed:added:_:)``.
///
/// A split expense's row counts as its lines, each in its own budget under its own name key and
/// tag set (``Row/rows(_:tagSetID:detail:_:)``, Core's ``Expense/portions``); a refund's row
/// counts below zero.
///
/// Every write of an expense row tells it what the row was and became: an add, an edit, a
/// removal, an import, an undo or redo, a change of the month start, a migration's backfill.
/// No trigger keeps them (`Schema.v13CacheWriter` dropped the last). A removed budget's rows
/// go by the foreign keys' `ON DELETE CASCADE`, with its expenses. `SQLiteStore.cacheMismatches()`
/// and the contract suite prove both equal to the rules after every kind of write.
struct ExpenseCaches {
    /// An expense row as the caches see it: stored date `YYYYMMDD`, what it counts in cents, and
    /// the whole expense's sort key.
    struct Row: Equatable {
        var date: Int64
        var budgetID: Int64
        var tagSetID: Int64?
        var by: String
        var nameKey: String
        var name: String
        /// 0 when the expense names no account.
        var accountID: Int64 = 0
        /// How many of the account's entries the row is: a split is one entry, its first line.
        var accountEntries: Int64 = 1
        var cents: Int64
        /// The whole expense's `amountCents × quantity`, the key a list by total sorts it by: a
        /// split's lines and a refund keep it, so `expenseDay`'s largest bounds whole expenses.
        var receiptCents: Int64
    }

    let calendar: PeriodCalendar
    private var months: MonthlyTotals
    private var days = DayTotals()
    private var groups: GroupTotals
    private var accounts = AccountDays()
    /// How many name groups are held, the part that grows with the rows' distinct names.
    var groupCount: Int { groups.count }

    init(calendar: PeriodCalendar) {
        self.calendar = calendar
        months = MonthlyTotals(calendar: calendar)
        groups = GroupTotals(calendar: calendar)
    }

    /// Under the ledger's own calendar.
    init(_ db: Database) throws {
        self.init(calendar: try SQLiteStore.calendar(db))
    }

    mutating func add(_ row: Row) {
        months.add(budgetID: row.budgetID, date: row.date, cents: row.cents)
        days.add(date: row.date, budgetID: row.budgetID, tagSetID: row.tagSetID, by: row.by, cents: row.cents, receipt: row.receiptCents)
        groups.add(date: row.date, budgetID: row.budgetID, nameKey: row.nameKey, name: row.name, tagSetID: row.tagSetID, cents: row.cents)
        if row.accountID != 0 { accounts.add(accountID: row.accountID, date: row.date, change: 0 &- row.cents, entries: row.accountEntries) }
    }

    /// What ``add(expenses:argument:_:)`` reads from a table of expense rows, before its `FROM`.
    static let columns = "SELECT date, budgetId, tagSetId, spentBy, amountCents * quantity, ifnull(accountId, 0), nameKey, name, detail"
    /// ``columns`` for the migrations before `Schema.v21ExpenseLines`, whose rows have no `detail`.
    static let columnsBeforeLines = "SELECT date, budgetId, tagSetId, spentBy, amountCents * quantity, ifnull(accountId, 0), nameKey, name, ''"

    /// Adds a stored row, as its lines when it is split.
    mutating func add(_ record: ExpenseRecord, _ db: Database) throws {
        for row in try Row.rows(record, db) { add(row) }
    }

    /// Adds the rows `sql` selects as ``columns`` does, after `bind` bound its parameters.
    mutating func add(expenses sql: String, bind: (RawStatement) -> Void = { _ in }, _ db: Database) throws {
        let statement = try RawStatement(db, sql)
        bind(statement)
        _ = try add(stepping: statement, upTo: nil, db)
    }

    /// Adds the rows `statement` selects as ``columns`` does (then the row's `id`, when
    /// `groupLimit` is given), stopping after the row that brings the name groups to
    /// `groupLimit`; returns the last row's id when it stopped there.
    /// Stepped through SQLite's C API: a GRDB row costs far more than the sums it feeds.
    mutating func add(stepping statement: RawStatement, upTo groupLimit: Int?, _ db: Database) throws -> Int64? {
        var split: [(Row, String)] = []
        var stoppedAt: Int64?
        try statement.forEachRow(while: { row in
            let tagSetID = sqlite3_column_type(row, 2) == SQLITE_NULL ? nil : sqlite3_column_int64(row, 2)
            let whole = Row(date: sqlite3_column_int64(row, 0), budgetID: sqlite3_column_int64(row, 1), tagSetID: tagSetID, by: RawStatement.text(row, 3),
                nameKey: RawStatement.text(row, 6), name: RawStatement.text(row, 7), accountID: sqlite3_column_int64(row, 5), cents: sqlite3_column_int64(row, 4),
                receiptCents: sqlite3_column_int64(row, 4))
            // Almost every row is plain: only the few split or refunded are expanded, after the statement is done.
            if sqlite3_column_bytes(row, 8) == 0 { add(whole) } else { split.append((whole, RawStatement.text(row, 8))) }
            guard let groupLimit, groups.count >= groupLimit else { return true }
            stoppedAt = sqlite3_column_int64(row, 9)
            return false
        })
        for (whole, detail) in split {
            for row in try Row.rows(whole, detail: detail, db) { add(row) }
        }
        return stoppedAt
    }

    /// Adds the rows to the caches, once they are in `expense`.
    func saveAdded(_ db: Database) throws {
        try months.save(db)
        try days.save(db)
        try groups.save(db)
        try accounts.save(db)
    }

    /// Takes the rows from the caches, once they are gone from `expense`: a day's group left
    /// empty goes, one that lost its largest total looks up the next.
    func saveRemoved(_ db: Database) throws {
        try months.subtract(db)
        try days.subtract(db)
        try groups.subtract(db)
        try accounts.subtract(db)
    }

    /// Moves `accountDay` from the incomes and transfers `removed` to those `added`: the rows an
    /// account write replaces or removes, and those it puts.
    static func recordAccountRows(removed: [RowImage], added: [RowImage], _ db: Database) throws {
        var old = AccountDays()
        for row in removed { old.add(row) }
        var new = AccountDays()
        for row in added { new.add(row) }
        if !old.isEmpty { try old.subtract(db) }
        if !new.isEmpty { try new.save(db) }
    }

    /// One added row, written without the dictionaries of `add` and `saveAdded`: `tally add`
    /// writes one row, and the first use of a dictionary keyed by a type of ours makes the runtime
    /// look up its conformances, a cost one row need not pay.
    static func added(_ row: Row, calendar: PeriodCalendar, _ db: Database) throws {
        try MonthlyTotals.saveOne(budgetID: row.budgetID, date: row.date, cents: row.cents, calendar: calendar, db)
        try DayTotals.saveOne(date: row.date, budgetID: row.budgetID, tagSetID: row.tagSetID, by: row.by, cents: row.cents, receipt: row.receiptCents, db)
        try GroupTotals.saveOne(
            date: row.date, budgetID: row.budgetID, nameKey: row.nameKey, name: row.name, tagSetID: row.tagSetID, cents: row.cents,
            calendar: calendar, db)
        if row.accountID != 0 {
            var accounts = AccountDays()
            accounts.add(accountID: row.accountID, date: row.date, change: 0 &- row.cents, entries: row.accountEntries)
            try accounts.save(db)
        }
    }

    /// The caches keyed by period, `budgetMonth` and `expenseGroup`, built anew from every
    /// expense: the periods changed (a new month start).
    static func rebuildPeriods(calendar: PeriodCalendar, _ db: Database) throws {
        try rebuildMonths(calendar: calendar, db)
        try rebuildGroups(calendar: calendar, db)
    }

    /// `expenseGroup` filled from every expense (`Schema.v19WhyOverGroups`).
    static func rebuildGroups(calendar: PeriodCalendar, withLines: Bool = true, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM expenseGroup")
        var caches = ExpenseCaches(calendar: calendar)
        try caches.add(expenses: "\(withLines ? columns : columnsBeforeLines) FROM expense", db)
        try caches.groups.save(db)
    }

    /// `budgetMonth` built anew from every expense: its periods changed (a new month start), or
    /// it is new (`Schema.v3`).
    static func rebuildMonths(calendar: PeriodCalendar, withLines: Bool = true, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM budgetMonth")
        if withLines {
            var caches = ExpenseCaches(calendar: calendar)
            try caches.add(expenses: "\(columns) FROM expense", db)
            try caches.months.save(db)
            return
        }
        // Its three columns only: `Schema.v3` runs on files whose expenses have no `spentBy` yet.
        var months = MonthlyTotals(calendar: calendar)
        let statement = try RawStatement(db, "SELECT budgetId, date, amountCents * quantity FROM expense")
        try statement.forEachRow { row in
            months.add(budgetID: sqlite3_column_int64(row, 0), date: sqlite3_column_int64(row, 1), cents: sqlite3_column_int64(row, 2))
        }
        try months.save(db)
    }

    /// `expenseDay` filled from every expense (`Schema.v12ExpenseDays`, and again by
    /// `Schema.v25ReportBounds` with each split's lines); summed in Swift, since one overflowing
    /// SUM would fail the migration.
    static func rebuildDays(withLines: Bool = false, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM expenseDay")
        var caches = ExpenseCaches(calendar: .calendarMonths)
        // No `accountId` before `Schema.v15ExpenseAccounts`, which fills `accountDay` itself,
        // nor `detail` before `Schema.v21ExpenseLines`.
        let detail = withLines ? "detail" : "''"
        try caches.add(expenses: "SELECT date, budgetId, tagSetId, spentBy, amountCents * quantity, 0, '', '', \(detail) FROM expense", db)
        try caches.days.save(db)
    }
}

extension ExpenseCaches.Row {
    /// A saved expense, with the tag set it was saved with. Its total was checked by `validated()`.
    init(_ expense: Expense, tagSetID: Int64?) {
        self.init(
            date: expense.date.storedNumber, budgetID: expense.budgetID, tagSetID: tagSetID, by: expense.by,
            nameKey: expense.nameKey, name: expense.name, accountID: expense.accountID ?? 0, cents: expense.amount.cents &* expense.quantity,
            receiptCents: expense.amount.cents &* expense.quantity)
    }

    /// A stored row.
    init(_ record: ExpenseRecord) {
        self.init(
            date: record.date, budgetID: record.budgetId, tagSetID: record.tagSetId, by: record.spentBy,
            nameKey: record.nameKey, name: record.name, accountID: record.accountId ?? 0, cents: record.amountCents &* record.quantity,
            receiptCents: record.amountCents &* record.quantity)
    }
}

extension ExpenseCaches.Row {
    /// A saved expense's rows: itself, or its lines (``rows(_:detail:_:)``).
    static func rows(_ expense: Expense, tagSetID: Int64?, _ db: Database) throws -> [Self] {
        try rows(Self(expense, tagSetID: tagSetID), detail: ExpenseDetail.pack(expense), db)
    }

    /// A stored row's rows.
    static func rows(_ record: ExpenseRecord, _ db: Database) throws -> [Self] {
        try rows(Self(record), detail: record.detail, db)
    }

    /// The rows the caches count for an expense row `whole` whose ``ExpenseDetail`` text is
    /// `detail`: `whole` itself; below zero for a refund; else one per line, each in its budget,
    /// under its own name and tags when it has them (a line's tag set is made if it is new), as
    /// Core's ``Expense/portions`` counts them. Every line keeps the row's account, so an
    /// account's day still changes by the whole total, as one entry (the first line's), and the
    /// row's ``receiptCents``.
    static func rows(_ whole: Self, detail: String, _ db: Database) throws -> [Self] {
        guard !detail.isEmpty else { return [whole] }
        if detail.hasPrefix("R") {
            var refund = whole
            refund.cents = 0 &- whole.cents
            return [refund]
        }
        return try ExpenseDetail.unpackLines(detail).enumerated().map { index, line in
            var row = whole
            row.budgetID = line.budgetID
            row.cents = line.amount.cents
            if index > 0 { row.accountEntries = 0 }
            if !line.name.isEmpty {
                row.name = line.name
                row.nameKey = NameKey.make(line.name)
            }
            // A line with a name of its own has its own tags, none included (Core's rule).
            if !line.name.isEmpty || !line.tags.isEmpty { row.tagSetID = try SQLiteStore.tagSetID(line.tags, db) }
            return row
        }
    }
}
