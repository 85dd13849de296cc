import GRDB
import GRDBSQLite
import TallyCore

/// What each day's entries did to each account, `accountDay`'s rows (`Schema.v15ExpenseAccounts`):
/// Core's `AccountDay.sums(incomes:transfers:expenses:)`, summed in Swift for their one writer,
/// `ExpenseCaches`, whether the entries are expenses or the incomes and transfers of
/// `SQLiteStore.putAccountRow`. A day goes once its last entry does.
struct AccountDays {
    private struct Key: Hashable {
        let accountID: Int64
        let date: Int64
    }

    /// `cents` is `nil` once the sum overflowed; it is then stored as a REAL, which the reader
    /// refuses with `arithmeticOverflow`, as a balance that large would be.
    private var figures: [Key: (cents: Int64?, income: Int64?, count: Int64)] = [:]

    /// `change` as an asset counts it, `income` what of it is income; `date` is the stored
    /// `YYYYMMDD` number.
    mutating func add(accountID: Int64, date: Int64, change: Int64, income: Int64 = 0, entries: Int64 = 1) {
        let key = Key(accountID: accountID, date: date)
        let figure = figures[key] ?? (0, 0, 0)
        func sum(_ total: Int64?, _ more: Int64) -> Int64? {
            total.flatMap { total in
                let (value, overflow) = total.addingReportingOverflow(more)
                return overflow ? nil : value
            }
        }
        figures[key] = (sum(figure.cents, change), sum(figure.income, income), figure.count + entries)
    }

    /// An income's or transfer's changes.
    mutating func add(_ row: RowImage) {
        switch row {
        case .income(let income):
            add(accountID: income.accountID, date: income.date.storedNumber, change: income.amount.cents, income: income.amount.cents)
        case .transfer(let transfer):
            add(accountID: transfer.toAccountID, date: transfer.date.storedNumber, change: transfer.amount.cents)
            add(accountID: transfer.fromAccountID, date: transfer.date.storedNumber, change: -transfer.amount.cents)
        default: break
        }
    }

    var isEmpty: Bool { figures.isEmpty }

    /// Adds the sums to the stored ones.
    func save(_ db: Database) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO accountDay (accountId, date, changeCents, incomeCents, entryCount) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (accountId, date) DO UPDATE
            SET changeCents = changeCents + excluded.changeCents, incomeCents = incomeCents + excluded.incomeCents,
                entryCount = entryCount + excluded.entryCount
            """)
        for (key, figure) in figures {
            try statement.execute(arguments: [key.accountID, key.date, Self.stored(figure.cents), Self.stored(figure.income), figure.count])
        }
    }

    /// Takes the sums from the stored ones; a day left with no entry goes.
    func subtract(_ db: Database) throws {
        let update = try db.makeStatement(sql: """
            UPDATE accountDay SET changeCents = changeCents - ?3, incomeCents = incomeCents - ?4, entryCount = entryCount - ?5
            WHERE accountId = ?1 AND date = ?2
            """)
        let empty = try db.makeStatement(sql: "DELETE FROM accountDay WHERE accountId = ?1 AND date = ?2 AND entryCount <= 0")
        for (key, figure) in figures {
            try update.execute(arguments: [key.accountID, key.date, Self.stored(figure.cents), Self.stored(figure.income), figure.count])
            try empty.execute(arguments: [key.accountID, key.date])
        }
    }

    /// A sum as stored: past `Int64`, a REAL the reader refuses.
    private static func stored(_ cents: Int64?) -> any DatabaseValueConvertible {
        cents ?? Double(Int64.max) * 2
    }

    /// Every stored day, by account then day. Stepped through SQLite's C API: every report reads
    /// them, a few thousand rows, and a GRDB row costs more than the sums they feed.
    static func read(_ db: Database) throws -> [AccountDay] {
        var days: [AccountDay] = []
        var failure: TallyError?
        let statement = try RawStatement(
            db, "SELECT accountId, date, changeCents, incomeCents, entryCount FROM accountDay ORDER BY accountId, date")
        try statement.forEachRow { row in
            guard failure == nil else { return }
            // A sum past `Int64` is stored as a REAL.
            guard sqlite3_column_type(row, 2) == SQLITE_INTEGER, sqlite3_column_type(row, 3) == SQLITE_INTEGER else {
                failure = .arithmeticOverflow
                return
            }
            guard let day = Day(storedNumber: sqlite3_column_int64(row, 1)) else {
                failure = .storage("an account's day \(sqlite3_column_int64(row, 1))")
                return
            }
            days.append(AccountDay(
                accountID: sqlite3_column_int64(row, 0), date: day, change: Money(cents: sqlite3_column_int64(row, 2)),
                income: Money(cents: sqlite3_column_int64(row, 3)), entries: Int(sqlite3_column_int64(row, 4))))
        }
        if let failure { throw failure }
        return days
    }

    /// `accountDay` filled from every income, transfer and expense.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM accountDay")
        var days = AccountDays()
        // Only the entries move balances, read by the columns that do: a migration rebuilds this
        // table before later ones extend the entries' rows (`v26-foreign-incomes`).
        for row in try Row.fetchAll(db, sql: "SELECT accountId, date, amountCents FROM income") {
            let cents: Int64 = row[2]
            days.add(accountID: row[0], date: row[1], change: cents, income: cents)
        }
        for row in try Row.fetchAll(db, sql: "SELECT fromAccountId, toAccountId, date, amountCents FROM transfer") {
            let cents: Int64 = row[3]
            days.add(accountID: row[1], date: row[2], change: cents)
            days.add(accountID: row[0], date: row[2], change: -cents)
        }
        let statement = try RawStatement(db, "SELECT accountId, date, amountCents * quantity FROM expense WHERE accountId IS NOT NULL")
        try statement.forEachRow { row in
            days.add(accountID: sqlite3_column_int64(row, 0), date: sqlite3_column_int64(row, 1), change: -sqlite3_column_int64(row, 2))
        }
        try days.save(db)
    }
}
