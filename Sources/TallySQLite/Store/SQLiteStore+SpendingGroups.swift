import GRDB
import GRDBSQLite
import TallyCore

// Why over's read: the flagged budgets' spending per name key and tag set over some periods.
extension SQLiteStore {
    /// `SpendingGroup.groups(ofBudgets:in:of:)` of the periods' days, from `expenseGroup`: a few
    /// rows per budget and period, where the expenses are thousands.
    public func spendingGroups(ofBudgets ids: Set<Int64>, in months: ClosedRange<Month>) throws(TallyError) -> [SpendingGroup] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let statement = try RawStatement(db, """
                SELECT budgetId, tagSetId, nameKey, name, spentCents, expenseCount FROM expenseGroup
                WHERE budgetId IN (SELECT value FROM json_each(?1)) AND month BETWEEN ?2 AND ?3
                """)
            statement.bind(1, "[" + ids.map(String.init).joined(separator: ",") + "]")
            statement.bind(2, months.lowerBound.storedNumber)
            statement.bind(3, months.upperBound.storedNumber)
            var rows: [(budgetID: Int64, tagSetID: Int64, nameKey: String, name: String, cents: Int64, count: Int)] = []
            var overflow = false
            try statement.forEachRow { row in
                // A sum past Int64 is stored as a REAL (`GroupTotals`).
                guard sqlite3_column_type(row, 4) == SQLITE_INTEGER else {
                    overflow = true
                    return
                }
                rows.append((
                    sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1), RawStatement.text(row, 2), RawStatement.text(row, 3),
                    sqlite3_column_int64(row, 4), Int(sqlite3_column_int64(row, 5))))
            }
            guard !overflow else { throw TallyError.arithmeticOverflow }
            // Each tag set's tags sorted once.
            let tags = try Self.tags(ofSets: rows.map(\.tagSetID).filter { $0 != 0 }, db).mapValues { $0.sorted() }
            return try SpendingGroup.merged(rows.map { row in
                SpendingGroup(
                    budgetID: row.budgetID, nameKey: row.nameKey, name: row.name, tags: tags[row.tagSetID] ?? [],
                    spent: Money(cents: row.cents), count: row.count)
            })
        }
    }
}
