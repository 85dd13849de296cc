import TallyCore

/// `expenseGroup` (`v12-why-over-groups`): each period's spending per budget, name key and tag
/// set, with its count and the name's smallest spelling by bytes (`COLLATE "C"`), as SQLite's
/// `GroupTotals` keeps it. Why over compares a period's groups with the three before.
extension PostgresCaches {
    /// Counts the rows of `table` that `condition` selects into their groups, once they are in it.
    func addGroups(rowsOf table: String, where condition: String, _ binds: [SQLValue], dates: [Int64]) throws(TallyError) {
        let periods = try Self.periods(of: dates, try calendar())
        let next = binds.count
        try session.query(
            """
            INSERT INTO expenseGroup AS cached (budgetId, month, nameKey, tags, name, spentCents, expenseCount)
            \(Self.groups(of: table, where: condition, periods: next, withLines: withLines))
            ON CONFLICT (budgetId, month, nameKey, tags) DO UPDATE
            SET spentCents = cached.spentCents + excluded.spentCents, expenseCount = cached.expenseCount + excluded.expenseCount,
                name = LEAST(cached.name COLLATE "C", excluded.name COLLATE "C")
            """, binds + [.ints(periods.dates), .ints(periods.periods)])
    }

    /// Takes the rows out of their groups while they are still in `table`. A group keeps its
    /// name unless a leaving row spelled it; then it is looked up among the period's rows that
    /// stay. A group left with no expense goes.
    func removeGroups(rowsOf table: String, where condition: String, _ binds: [SQLValue], dates: [Int64]) throws(TallyError) {
        let calendar = try calendar()
        let periods = try Self.periods(of: dates, calendar)
        let months = Array(Set(periods.periods))
        var firsts: [Int64] = []
        var lasts: [Int64] = []
        for month in months {
            let days = calendar.days(of: try Month(stored: month))
            firsts.append(days.first.stored)
            lasts.append(days.last.stored)
        }
        let next = binds.count
        try session.query(
            """
            WITH gone AS (\(Self.groups(of: table, where: condition, periods: next, withLines: withLines))),
            bounds AS (SELECT * FROM unnest($\(next + 3)::BIGINT[], $\(next + 4)::BIGINT[], $\(next + 5)::BIGINT[]) AS b(month, lo, hi))
            UPDATE expenseGroup AS d
            SET spentCents = d.spentCents - g.spentCents, expenseCount = d.expenseCount - g.expenseCount,
                name = CASE WHEN d.expenseCount = g.expenseCount OR d.name COLLATE "C" < g.name COLLATE "C" THEN d.name
                    ELSE coalesce((SELECT min(e.name COLLATE "C") FROM \(Self.portions(of: table, as: "e", withLines: withLines)) JOIN bounds b ON b.month = d.month
                        WHERE e.date BETWEEN b.lo AND b.hi AND e.budgetId = d.budgetId AND e.nameKey = d.nameKey AND e.tags = d.tags
                            AND NOT (\(condition))), d.name) END
            FROM gone g WHERE d.budgetId = g.budgetId AND d.month = g.month AND d.nameKey = g.nameKey AND d.tags = g.tags
            """, binds + [.ints(periods.dates), .ints(periods.periods), .ints(months), .ints(firsts), .ints(lasts)])
        try session.query("DELETE FROM expenseGroup WHERE month = ANY($1::BIGINT[]) AND expenseCount = 0", [.ints(months)])
    }

    /// `expenseGroup` built anew from every expense (`v12-why-over-groups`, a new month start).
    func rebuildGroups() throws(TallyError) {
        try session.query("DELETE FROM expenseGroup")
        let dates = try session.query("SELECT DISTINCT date FROM expense").map { row throws(TallyError) in try row.int(0) }
        guard !dates.isEmpty else { return }
        try addGroups(rowsOf: "expense", where: "TRUE", [], dates: dates)
    }

    /// The rows of `table` that `condition` selects, grouped as `expenseGroup` keeps them, with the
    /// dates and their periods bound as `$periods + 1` and `$periods + 2`.
    static func groups(of table: String, where condition: String, periods: Int, withLines: Bool) -> String {
        """
        SELECT budgetId, p.period AS month, nameKey, tags, min(name COLLATE "C") AS name, SUM(amountCents * quantity) AS spentCents,
            count(*) AS expenseCount
        FROM \(portions(of: table, withLines: withLines)) JOIN unnest($\(periods + 1)::BIGINT[], $\(periods + 2)::BIGINT[]) AS p(periodDate, period) ON p.periodDate = date
        WHERE \(condition) GROUP BY budgetId, p.period, nameKey, tags
        """
    }

    /// `expenseGroup`'s rows that differ from the groups of the expenses themselves, as text.
    func groupMismatches() throws(TallyError) -> [String] {
        let dates = try session.query("SELECT DISTINCT date FROM expense").map { row throws(TallyError) in try row.int(0) }
        let periods = try Self.periods(of: dates, try calendar())
        let stored = "SELECT budgetId, month, nameKey, tags, name COLLATE \"C\", spentCents, expenseCount FROM expenseGroup"
        let summed = Self.groups(of: "expense", where: "TRUE", periods: 0, withLines: withLines)
        return try session.query(
            """
            SELECT concat_ws(' ', 'expenseGroup', d.budgetId, d.month, d.nameKey, d.tags::text, d.name, d.spentCents, d.expenseCount)
            FROM ((\(stored) EXCEPT \(summed)) UNION ALL (\(summed) EXCEPT \(stored)))
                AS d(budgetId, month, nameKey, tags, name, spentCents, expenseCount)
            """, [.ints(periods.dates), .ints(periods.periods)]
        ).map { row throws(TallyError) in try row.string(0) }
    }
}
