import Foundation
import TallyCore

/// The one writer of PostgreSQL's four caches, kept for speed as `ExpenseCaches` keeps SQLite's:
/// - `budgetMonth` (`v5-caches`): each budget's spending and expense count per period,
///   `Budget.spent(in:of:)` of the period's days;
/// - `expenseDay` (`v6-expense-days`): each day's sum, count and largest per budget, tag set and
///   person, `DaySpending.grouping(_:in:)` of the day's expenses; the largest is the largest whole
///   total among the expenses with a portion in the group (`v18-report-bounds`), which bounds
///   the largest expenses (`PostgresStore.largestExpenses`);
/// - `accountDay` (`v8-expense-accounts`): each day's change per account from its incomes,
///   transfers and expenses, `AccountDay.sums(incomes:transfers:expenses:)`; incomes and
///   transfers reach it through ``recordEntries(_:of:where:_:)``;
/// - `expenseGroup` (`v12-why-over-groups`): each period's spending per budget, name key and tag
///   set, `SpendingGroup.grouping(_:)` of the period's expenses (`PostgresCaches+Groups.swift`).
///
/// Every write of an expense row tells it which rows it adds (once they are in the table) and
/// removes (while they still are): an add, an edit, a removal, a bulk insert or import, the undo
/// and redo of any of them, a change of the month start, the migrations' backfills. No trigger
/// keeps them. A removed budget's rows go with it by `ON DELETE CASCADE`, as its expenses do.
///
/// The server does the sums, over the rows a statement selects, in NUMERIC (`SUM` of BIGINT is
/// NUMERIC, and so are the columns): no ledger can make a cache write or a migration fail with
/// an overflow; a reader casts a figure to BIGINT, so one past Int64 fails where it is asked for,
/// with `arithmeticOverflow`, as `Money` does. The period of each date is Core's rule,
/// `PeriodCalendar.period(containing:)`, worked out here and joined as an array: no SQL copy of it.
/// `mismatches()` compares both caches with the rows; the differential test runs it after every step.
struct PostgresCaches {
    enum Change {
        case added, removed
    }

    let session: PostgresSession
    /// `false` for the migrations before `v14-expense-lines`, whose rows have no lines yet.
    var withLines = true

    /// Counts the rows of `table` (`expense`, or `removedExpense` for rows on their way back)
    /// that `condition` selects into both caches, or out of them. `condition` names the table's
    /// own columns, with `binds` as `$1…`. `dates`, when the caller knows the rows' dates, saves a read.
    func record(_ change: Change, rowsOf table: String = "expense", where condition: String, _ binds: [SQLValue] = [], dates: [Day]? = nil)
        throws(TallyError)
    {
        let stored: [Int64]
        if let dates {
            stored = Array(Set(dates.map(\.stored)))
        } else {
            stored = try session.query("SELECT DISTINCT date FROM \(table) WHERE \(condition)", binds).map { row throws(TallyError) in try row.int(0) }
        }
        guard !stored.isEmpty else { return }
        try recordAccountDays(change, changes: "\(Self.expenseAccountChanges(of: table, withLines: withLines)) WHERE (\(condition)) AND accountId IS NOT NULL", binds)
        switch change {
        case .added:
            try add(rowsOf: table, where: condition, binds, dates: stored)
            try addGroups(rowsOf: table, where: condition, binds, dates: stored)
        case .removed:
            try recordMonths(.removed, rowsOf: table, where: condition, binds, dates: stored)
            try removeDays(rowsOf: table, where: condition, binds, dates: stored)
            try removeGroups(rowsOf: table, where: condition, binds, dates: stored)
        }
    }

    /// The caches keyed by period, `budgetMonth` and `expenseGroup`, built anew: the periods
    /// changed (a new month start). `expenseDay` has no periods, so it stays.
    func rebuildPeriods() throws(TallyError) {
        try rebuildMonths()
        try rebuildGroups()
    }

    /// `budgetMonth` built anew from every expense: its periods changed, or it is new (`v5-caches`).
    func rebuildMonths() throws(TallyError) {
        try session.query("DELETE FROM budgetMonth")
        let dates = try session.query("SELECT DISTINCT date FROM expense").map { row throws(TallyError) in try row.int(0) }
        guard !dates.isEmpty else { return }
        try recordMonths(.added, rowsOf: "expense", where: "TRUE", [], dates: dates)
    }

    /// Moves `accountDay` by the incomes (`table` `income`) or transfers (`transfer`) that
    /// `condition` selects: `.removed` while they are still in their table, `.added` once they are.
    func recordEntries(_ change: Change, of table: String, where condition: String, _ binds: [SQLValue]) throws(TallyError) {
        let changes =
            table == "income"
            ? "SELECT accountId, date, amountCents, amountCents FROM income WHERE \(condition)"
            : """
            SELECT toAccountId, date, amountCents, 0 FROM transfer WHERE \(condition)
            UNION ALL SELECT fromAccountId, date, -amountCents, 0 FROM transfer WHERE \(condition)
            """
        try recordAccountDays(change, changes: changes, binds)
    }

    /// `accountDay` built anew from every income, transfer and expense (`v8-expense-accounts`).
    func rebuildAccountDays() throws(TallyError) {
        try session.query("DELETE FROM accountDay")
        try recordAccountDays(.added, changes: Self.everyAccountChange(withLines: withLines), [])
    }

    /// Every entry's change to its account: what `accountDay` sums.
    private static func everyAccountChange(withLines: Bool) -> String {
        """
        SELECT accountId, date, amountCents, amountCents FROM income
        UNION ALL SELECT toAccountId, date, amountCents, 0 FROM transfer
        UNION ALL SELECT fromAccountId, date, -amountCents, 0 FROM transfer
        UNION ALL \(expenseAccountChanges(of: "expense", withLines: withLines)) WHERE accountId IS NOT NULL
        """
    }

    /// Each expense row's change to its account, before its `WHERE`: the whole expense, one entry
    /// however many lines it has (Core's `AccountDay.sums`), a refund putting its total back.
    private static func expenseAccountChanges(of table: String, withLines: Bool) -> String {
        let change = withLines ? "CASE WHEN detail LIKE 'R%' THEN amountCents * quantity ELSE -(amountCents * quantity) END" : "-(amountCents * quantity)"
        return "SELECT accountId, date, \(change), 0 FROM \(table)"
    }

    /// Adds (or takes away) the rows `changes` selects, each an account, a date, a change and
    /// what of it is income, summed per account and day; a day left with no entry goes.
    private func recordAccountDays(_ change: Change, changes: String, _ binds: [SQLValue]) throws(TallyError) {
        let sign = change == .removed ? "-" : ""
        try session.query(
            """
            INSERT INTO accountDay AS cached (accountId, date, changeCents, incomeCents, entryCount)
            SELECT a, d, \(sign)SUM(c), \(sign)SUM(i), \(sign)count(*) FROM (\(changes)) AS x(a, d, c, i) GROUP BY a, d
            ON CONFLICT (accountId, date) DO UPDATE
            SET changeCents = cached.changeCents + excluded.changeCents, incomeCents = cached.incomeCents + excluded.incomeCents,
                entryCount = cached.entryCount + excluded.entryCount
            """, binds)
        if change == .removed { try session.query("DELETE FROM accountDay WHERE entryCount = 0") }
    }

    /// Every stored day, by account then day.
    func accountDays() throws(TallyError) -> [AccountDay] {
        try session.query("SELECT accountId, date, changeCents::bigint, incomeCents::bigint, entryCount FROM accountDay ORDER BY accountId, date")
            .map { row throws(TallyError) in
                AccountDay(
                    accountID: try row.int(0), date: try Day(stored: try row.int(1)), change: Money(cents: try row.int(2)),
                    income: Money(cents: try row.int(3)), entries: Int(try row.int(4)))
            }
    }

    /// `expenseDay` built anew from every expense (`v6-expense-days`).
    func rebuildDays() throws(TallyError) {
        try session.query("DELETE FROM expenseDay")
        try addDays(rowsOf: "expense", where: "TRUE", [])
    }

    private func recordMonths(_ change: Change, rowsOf table: String, where condition: String, _ binds: [SQLValue], dates: [Int64])
        throws(TallyError)
    {
        let periods = try Self.periods(of: dates, try calendar())
        let sign = change == .removed ? "-" : ""
        let next = binds.count
        try session.query(
            """
            INSERT INTO budgetMonth AS cached (budgetId, month, spentCents, expenseCount)
            SELECT budgetId, p.period, \(sign)SUM(amountCents * quantity), \(sign)count(*)
            FROM \(Self.portions(of: table, withLines: withLines)) JOIN unnest($\(next + 1)::BIGINT[], $\(next + 2)::BIGINT[]) AS p(periodDate, period) ON p.periodDate = date
            WHERE \(condition) GROUP BY budgetId, p.period
            ON CONFLICT (budgetId, month) DO UPDATE
            SET spentCents = cached.spentCents + excluded.spentCents, expenseCount = cached.expenseCount + excluded.expenseCount
            """, binds + [.ints(periods.dates), .ints(periods.periods)])
    }

    /// Counts the rows into both caches with one pass over them: their day groups go into
    /// `expenseDay`, and the same groups, summed per period, into `budgetMonth` (an import of a
    /// million rows groups them once, not twice).
    private func add(rowsOf table: String, where condition: String, _ binds: [SQLValue], dates: [Int64]) throws(TallyError) {
        let periods = try Self.periods(of: dates, try calendar())
        let next = binds.count
        try session.query(
            """
            WITH days AS MATERIALIZED (\(Self.dayGroups(of: table, where: condition, withLines: withLines))),
            counted AS (\(Self.countingDays))
            INSERT INTO budgetMonth AS cached (budgetId, month, spentCents, expenseCount)
            SELECT budgetId, p.period, SUM(spent), SUM(n)
            FROM days JOIN unnest($\(next + 1)::BIGINT[], $\(next + 2)::BIGINT[]) AS p(periodDate, period) ON p.periodDate = date
            GROUP BY budgetId, p.period
            ON CONFLICT (budgetId, month) DO UPDATE
            SET spentCents = cached.spentCents + excluded.spentCents, expenseCount = cached.expenseCount + excluded.expenseCount
            """, binds + [.ints(periods.dates), .ints(periods.periods)])
    }

    private func addDays(rowsOf table: String, where condition: String, _ binds: [SQLValue]) throws(TallyError) {
        try session.query("WITH days AS (\(Self.dayGroups(of: table, where: condition, withLines: withLines))) \(Self.countingDays)", binds)
    }

    /// The rows of `table` that `condition` selects, grouped as `expenseDay` keeps them: each
    /// group's `spent`, `n` and `largest` (whole totals, `receiptCents`).
    private static func dayGroups(of table: String, where condition: String, withLines: Bool) -> String {
        """
        SELECT date, budgetId, tags, spentBy, SUM(amountCents * quantity) AS spent, count(*) AS n,
            MAX(receiptCents) AS largest
        FROM \(portions(of: table, withLines: withLines)) WHERE \(condition) GROUP BY date, budgetId, tags, spentBy
        """
    }

    /// Adds the groups of `days` (`dayGroups`) into `expenseDay`.
    private static let countingDays = """
        INSERT INTO expenseDay AS cached (date, budgetId, tags, spentBy, spentCents, expenseCount, largestCents)
        SELECT date, budgetId, tags, spentBy, spent, n, largest FROM days
        ON CONFLICT (date, budgetId, tags, spentBy) DO UPDATE
        SET spentCents = cached.spentCents + excluded.spentCents, expenseCount = cached.expenseCount + excluded.expenseCount,
            largestCents = GREATEST(cached.largestCents, excluded.largestCents)
        """

    /// Takes the rows out of their groups while they are still in `table`. A group keeps its
    /// largest total unless a leaving row held it; then it is looked up among the rows that stay,
    /// so the bound stays exact. A group left with no expense goes.
    private func removeDays(rowsOf table: String, where condition: String, _ binds: [SQLValue], dates: [Int64]) throws(TallyError) {
        let sameGroup = "e.date = d.date AND e.budgetId = d.budgetId AND e.tags = d.tags AND e.spentBy = d.spentBy"
        try session.query(
            """
            WITH gone AS (\(Self.dayGroups(of: table, where: condition, withLines: withLines)))
            UPDATE expenseDay AS d
            SET spentCents = d.spentCents - g.spent, expenseCount = d.expenseCount - g.n,
                largestCents = CASE WHEN d.expenseCount = g.n OR g.largest < d.largestCents THEN d.largestCents
                    ELSE coalesce((SELECT MAX(e.receiptCents) FROM \(Self.portions(of: table, as: "e", withLines: withLines)) WHERE \(sameGroup) AND NOT (\(condition))), 0) END
            FROM gone g WHERE d.date = g.date AND d.budgetId = g.budgetId AND d.tags = g.tags AND d.spentBy = g.spentBy
            """, binds)
        try session.query("DELETE FROM expenseDay WHERE date = ANY($1::BIGINT[]) AND expenseCount = 0", [.ints(dates)])
    }

    /// Rows of either cache that differ from the sums of the expenses themselves, as text; empty
    /// when every write kept them right. A `budgetMonth` row left at zero by removals is no difference.
    func mismatches() throws(TallyError) -> [String] {
        let dates = try session.query("SELECT DISTINCT date FROM expense").map { row throws(TallyError) in try row.int(0) }
        let periods = try Self.periods(of: dates, try calendar())
        let stored = "SELECT budgetId, month, spentCents, expenseCount FROM budgetMonth WHERE expenseCount <> 0 OR spentCents <> 0"
        let summed = """
            SELECT budgetId, p.period, SUM(amountCents * quantity), count(*)
            FROM \(Self.portions(of: "expense", withLines: withLines)) JOIN unnest($1::BIGINT[], $2::BIGINT[]) AS p(periodDate, period) ON p.periodDate = date GROUP BY 1, 2
            """
        let months = try session.query(
            """
            SELECT concat_ws(' ', 'budgetMonth', d.budgetId, d.month, d.spentCents, d.expenseCount)
            FROM ((\(stored) EXCEPT \(summed)) UNION ALL (\(summed) EXCEPT \(stored))) AS d(budgetId, month, spentCents, expenseCount)
            """, [.ints(periods.dates), .ints(periods.periods)]
        ).map { row throws(TallyError) in try row.string(0) }
        let storedDays = "SELECT date, budgetId, tags, spentBy, spentCents, expenseCount, largestCents FROM expenseDay"
        let summedDays = Self.dayGroups(of: "expense", where: "TRUE", withLines: withLines)
        let days = try session.query(
            """
            SELECT concat_ws(' ', 'expenseDay', d.date, d.budgetId, d.tags::text, d.spentBy, d.spentCents, d.expenseCount, d.largestCents)
            FROM ((\(storedDays) EXCEPT \(summedDays)) UNION ALL (\(summedDays) EXCEPT \(storedDays)))
                AS d(date, budgetId, tags, spentBy, spentCents, expenseCount, largestCents)
            """
        ).map { row throws(TallyError) in try row.string(0) }
        let storedAccounts = "SELECT accountId, date, changeCents, incomeCents, entryCount FROM accountDay"
        let summedAccounts = "SELECT a, d, SUM(c), SUM(i), count(*) FROM (\(Self.everyAccountChange(withLines: withLines))) AS x(a, d, c, i) GROUP BY a, d"
        let accounts = try session.query(
            """
            SELECT concat_ws(' ', 'accountDay', d.accountId, d.date, d.changeCents, d.incomeCents, d.entryCount)
            FROM ((\(storedAccounts) EXCEPT \(summedAccounts)) UNION ALL (\(summedAccounts) EXCEPT \(storedAccounts)))
                AS d(accountId, date, changeCents, incomeCents, entryCount)
            """
        ).map { row throws(TallyError) in try row.string(0) }
        return try months + days + accounts + groupMismatches()
    }

    /// The rows of `table` as the caches count them, Core's ``Expense/portions``: a plain expense
    /// as it is; a refund below zero; each line of a split in its own budget, under its own name,
    /// name key and tags when it has them, its amount as one unit. Exposes the columns the caches
    /// and their conditions read (`changeSetId` only for `removedExpense`), and `receiptCents`,
    /// the whole expense's total that a list by total sorts it by.
    static func portions(of table: String, as alias: String = "portion", withLines: Bool = true) -> String {
        guard withLines else { return "(SELECT *, amountCents::numeric * quantity AS receiptCents FROM \(table)) AS \(alias)" }
        let changeSet = table == "removedExpense" ? "changeSetId, " : ""
        let field = { (number: Int) in "split_part(l.line, chr(29), \(number))" }
        return """
            (SELECT id, \(changeSet)date, budgetId, tags, spentBy, nameKey, name,
                CASE WHEN detail = '' THEN amountCents ELSE -amountCents END AS amountCents, quantity, accountId,
                amountCents::numeric * quantity AS receiptCents
            FROM \(table) WHERE detail = '' OR detail LIKE 'R%'
            UNION ALL
            SELECT t.id, \(changeSet.isEmpty ? "" : "t.changeSetId, ")t.date, \(field(1))::bigint, 
                CASE WHEN \(field(4)) = '' AND \(field(5)) = '' THEN t.tags ELSE string_to_array(\(field(5)), ';') END, t.spentBy,
                coalesce(nullif(l.key, ''), t.nameKey), CASE WHEN \(field(4)) = '' THEN t.name ELSE \(field(4)) END,
                \(field(2))::bigint, 1::bigint, t.accountId, t.amountCents::numeric * t.quantity
            FROM \(table) t CROSS JOIN LATERAL unnest(string_to_array(t.detail, chr(30)), string_to_array(t.lineKeys, chr(30))) AS l(line, key)
            WHERE t.detail <> '' AND t.detail NOT LIKE 'R%') AS \(alias)
            """
    }

    func calendar() throws(TallyError) -> PeriodCalendar {
        guard let row = try session.query("SELECT monthStart FROM setting WHERE id = 1").first else { return .calendarMonths }
        return try PeriodCalendar(monthStart: Int(try row.int(0)))
    }

    /// Each distinct stored date with its period (`YYYYMM`) under `calendar`.
    static func periods(of dates: [Int64], _ calendar: PeriodCalendar) throws(TallyError) -> (dates: [Int64], periods: [Int64]) {
        let distinct = Array(Set(dates))
        var periods: [Int64] = []
        periods.reserveCapacity(distinct.count)
        for date in distinct { periods.append(calendar.period(containing: try Day(stored: date)).stored) }
        return (distinct, periods)
    }
}

extension PostgresStore {
    /// `PostgresCaches.mismatches()` in a read transaction, for the tests.
    func cacheMismatches() throws(TallyError) -> [String] {
        try read { () throws(TallyError) in try caches.mismatches() }
    }
}
