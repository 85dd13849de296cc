import Foundation
import GRDB
import TallyCore

/// Bulk writes count their rows in parts. The caches hold a name group per budget, period, name
/// and tag set (`expenseGroup`), and a bank's names each carry a reference number: a group a
/// row, and an import of a million such rows held 470 MB. Every bulk writer of expense rows
/// (an import, undo and redo of one, removing a budget's expenses) goes through these, so none
/// holds more than ``groupLimit`` groups.
extension ExpenseCaches {
    /// The name groups held before the sums are saved: about 20 MB.
    static let groupLimit = 50_000

    /// Saves the sums of rows already written, as added ones, once ``groupLimit`` groups are
    /// held, and starts again empty: saved sums add to the stored ones.
    mutating func savePartIfFull(_ db: Database) throws {
        guard groupCount >= Self.groupLimit else { return }
        try saveAdded(db)
        self = ExpenseCaches(calendar: calendar)
    }

    /// Counts the rows of `table` that `condition` selects as added ones. Adding reads no
    /// expense, so the rows may be counted before or after they are written.
    /// `condition` takes its parameters as `?1` to `?7`, bound by `bind`.
    static func add(
        rowsOf table: String, where condition: String, bind: (RawStatement) -> Void, groupLimit: Int = groupLimit, _ db: Database
    ) throws {
        try inParts(rowsOf: table, where: condition, bind: bind, groupLimit: groupLimit, db) { (caches: ExpenseCaches, _: Int64, _: Int64) in
            try caches.saveAdded(db)
        }
    }

    /// Deletes the expenses `condition` selects, with their rows of the caches. Each part's
    /// expenses are deleted before its sums are taken: a group that loses its largest total or
    /// smallest spelling looks them up among the expenses that stay.
    /// `condition` takes its parameters as `?1` to `?7`, bound by `bind`.
    ///
    /// Every removal of expenses comes here, so this is where the occurrences they paid lose
    /// their link (`Schema.v27WriterKeptLinks`): the part's range of ids is sought in the
    /// payments' index first, and a ledger's few linked payments make that nearly free.
    static func delete(
        expensesWhere condition: String, bind: (RawStatement) -> Void, groupLimit: Int = groupLimit, _ db: Database
    ) throws {
        let unlink = try RawStatement(db, """
            UPDATE recurringPayment SET expenseId = NULL WHERE expenseId > ?8 AND expenseId <= ?9
            AND EXISTS (SELECT 1 FROM expense WHERE id = recurringPayment.expenseId AND (\(condition)))
            """)
        let delete = try RawStatement(db, "DELETE FROM expense WHERE (\(condition)) AND id > ?8 AND id <= ?9")
        try inParts(rowsOf: "expense", where: condition, bind: bind, groupLimit: groupLimit, db) { (caches: ExpenseCaches, after: Int64, last: Int64) in
            for statement in [unlink, delete] {
                bind(statement)
                statement.bind(8, after)
                statement.bind(9, last)
                try statement.step()
            }
            try caches.saveRemoved(db)
        }
    }

    /// Steps the rows `condition` selects in the order of their ids, handing `part` the sums of
    /// each run of rows that fills `groupLimit` groups, with the ids it spans (after the first,
    /// up to the second), and then those of the rest.
    private static func inParts(
        rowsOf table: String, where condition: String, bind: (RawStatement) -> Void, groupLimit: Int, _ db: Database,
        _ part: (ExpenseCaches, _ after: Int64, _ last: Int64) throws -> Void
    ) throws {
        let select = try RawStatement(db, "\(columns), id FROM \(table) WHERE (\(condition)) AND id > ?8 ORDER BY id")
        let calendar = try SQLiteStore.calendar(db)
        var after = Int64.min
        while true {
            var caches = ExpenseCaches(calendar: calendar)
            bind(select)
            select.bind(8, after)
            guard let last = try caches.add(stepping: select, upTo: groupLimit, db) else {
                try part(caches, after, Int64.max)
                return
            }
            try part(caches, after, last)
            after = last
        }
    }
}
