import Foundation
import TallyCore

/// The one writer of `budgetMonth` (`PostgresSchema` "v5-caches"): each budget's spending and
/// expense count per period, `Budget.spent(in:of:)` of the period's days, kept for speed as
/// `ExpenseCaches` keeps SQLite's. Every write of an expense row tells it which rows it adds
/// (once they are in the table) and removes (while they still are): an add, an edit, a removal,
/// a bulk insert or import, the undo and redo of any of them, a change of the month start, the
/// migration's backfill. No trigger keeps it. A removed budget's rows go with it by
/// `ON DELETE CASCADE`, as its expenses do.
///
/// The server does the sums, over the rows a statement selects, in NUMERIC (`SUM` of BIGINT is
/// NUMERIC, and so is the column): no ledger can make a cache write or the migration fail with
/// an overflow; a reader casts a figure to BIGINT, so one past Int64 fails where it is asked for,
/// with `arithmeticOverflow`, as `Money` does. The period of each date is Core's rule,
/// `PeriodCalendar.period(containing:)`, worked out here and joined as an array: no SQL copy of it.
/// `mismatches()` compares the cache with the rows; the differential test runs it after every step.
struct PostgresCaches {
    enum Change {
        case added, removed
    }

    let session: PostgresSession

    /// Counts the rows of `table` (`expense`, or `removedExpense` for rows on their way back)
    /// that `condition` selects into the cache, or out of it. `condition` names the table's own
    /// columns, with `binds` as `$1…`. `dates`, when the caller knows the rows' dates, saves a read.
    func record(_ change: Change, rowsOf table: String = "expense", where condition: String, _ binds: [SQLValue] = [], dates: [Day]? = nil)
        throws(TallyError)
    {
        let stored: [Int64]
        if let dates {
            stored = dates.map(\.stored)
        } else {
            stored = try session.query("SELECT DISTINCT date FROM \(table) WHERE \(condition)", binds).map { row throws(TallyError) in try row.int(0) }
        }
        guard !stored.isEmpty else { return }
        let periods = try Self.periods(of: stored, try calendar())
        let sign = change == .removed ? "-" : ""
        let next = binds.count
        try session.query(
            """
            INSERT INTO budgetMonth AS cached (budgetId, month, spentCents, expenseCount)
            SELECT budgetId, p.period, \(sign)SUM(amountCents * quantity), \(sign)count(*)
            FROM \(table) JOIN unnest($\(next + 1)::BIGINT[], $\(next + 2)::BIGINT[]) AS p(periodDate, period) ON p.periodDate = date
            WHERE \(condition) GROUP BY budgetId, p.period
            ON CONFLICT (budgetId, month) DO UPDATE
            SET spentCents = cached.spentCents + excluded.spentCents, expenseCount = cached.expenseCount + excluded.expenseCount
            """, binds + [.ints(periods.dates), .ints(periods.periods)])
    }

    /// The cache built anew from every expense: its periods changed (a new month start), or it is
    /// new (the migration).
    func rebuild() throws(TallyError) {
        try session.query("DELETE FROM budgetMonth")
        try record(.added, where: "TRUE")
    }

    /// Rows of `budgetMonth` that differ from the sums of the expenses themselves, as text; empty
    /// when every write kept it right. A row left at zero by removals is no difference.
    func mismatches() throws(TallyError) -> [String] {
        let dates = try session.query("SELECT DISTINCT date FROM expense").map { row throws(TallyError) in try row.int(0) }
        let periods = try Self.periods(of: dates, try calendar())
        let stored = "SELECT budgetId, month, spentCents, expenseCount FROM budgetMonth WHERE expenseCount <> 0 OR spentCents <> 0"
        let summed = """
            SELECT budgetId, p.period, SUM(amountCents * quantity), count(*)
            FROM expense JOIN unnest($1::BIGINT[], $2::BIGINT[]) AS p(periodDate, period) ON p.periodDate = date GROUP BY 1, 2
            """
        return try session.query(
            """
            SELECT concat_ws(' ', d.budgetId, d.month, d.spentCents, d.expenseCount)
            FROM ((\(stored) EXCEPT \(summed)) UNION ALL (\(summed) EXCEPT \(stored))) AS d(budgetId, month, spentCents, expenseCount)
            """, [.ints(periods.dates), .ints(periods.periods)]
        ).map { row throws(TallyError) in try row.string(0) }
    }

    private func calendar() throws(TallyError) -> PeriodCalendar {
        guard let row = try session.query("SELECT monthStart FROM setting WHERE id = 1").first else { return .calendarMonths }
        return try PeriodCalendar(monthStart: Int(try row.int(0)))
    }

    /// Each distinct stored date with its period (`YYYYMM`) under `calendar`.
    private static func periods(of dates: [Int64], _ calendar: PeriodCalendar) throws(TallyError) -> (dates: [Int64], periods: [Int64]) {
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
