import GRDB
import GRDBSQLite
import TallyCore

// Why over's read: the flagged budgets' spending per name key and tag set over some days.
extension SQLiteStore {
    /// `SpendingGroup.groups(ofBudgets:in:of:)`: the expenses of the days read in one pass and
    /// added up in a dictionary, each tag set's tags looked up once.
    ///
    /// No index holds names, so every expense of the days is read from the table. Expenses are
    /// mostly stored in date order (they are added as they happen, and files are imported in
    /// order), so the table is walked between the lowest and highest rowid of the days, found in
    /// the covering date index, rather than looked up expense by expense (a B-tree descent each);
    /// a table whose days are scattered over more than eight times their rows is read through
    /// the date index as before. SQL's `GROUP BY` sorts every row it reads, which costs more than
    /// reading them; a dictionary of the few groups does not sort.
    public func spendingGroups(ofBudgets ids: Set<Int64>, in days: DayInterval) throws(TallyError) -> [SpendingGroup] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let first = days.first.storedNumber
            let last = days.last.storedNumber
            let span = try Row.fetchOne(db, sql: "SELECT MIN(rowid), MAX(rowid), COUNT(*) FROM expense WHERE date BETWEEN ? AND ?", arguments: [first, last])
            guard let span, let low: Int64 = span[0], let high: Int64 = span[1] else { return [] }
            let count: Int64 = span[2]
            let walk = (high - low) / 8 < count
            var arguments: StatementArguments = [first, last, "[" + ids.map(String.init).joined(separator: ",") + "]"]
            if walk { arguments += [low, high] }
            let statement = try db.makeStatement(sql: """
                SELECT budgetId, tagSetId, amountCents, quantity, nameKey, name FROM expense \(walk ? "NOT INDEXED" : "")
                WHERE date BETWEEN ? AND ? AND budgetId IN (SELECT value FROM json_each(?)) \(walk ? "AND rowid BETWEEN ? AND ?" : "")
                """)
            try statement.setArguments(arguments)
            var groups = SpendingGroupSums()
            try groups.add(statement, db)
            let tags = try Self.tags(ofSets: groups.tagSetIDs, db)
            return groups.groups(tags: tags)
        }
    }
}

/// The sums of ``SpendingGroup``s, filled from rows read through SQLite's C API: the name key
/// becomes a string only to find its group (short keys are stored inline, without allocating),
/// and the name only when it is a group's smallest spelling so far.
private struct SpendingGroupSums {
    private struct Key: Hashable {
        let budgetID: Int64
        let tagSetID: Int64?
        let nameKey: String
    }

    private struct Sum {
        var name: [UInt8]
        var cents: Int64
        var count: Int
    }

    private var index: [Key: Int] = [:]
    private var keys: [Key] = []
    private var sums: [Sum] = []

    var tagSetIDs: [Int64] { Array(Set(keys.compactMap(\.tagSetID))) }

    /// Steps `statement` (budgetId, tagSetId, amountCents, quantity, nameKey, name) to its end.
    mutating func add(_ statement: Statement, _ db: Database) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
            let tagSetID: Int64? = sqlite3_column_type(handle, 1) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 1)
            let (cents, overflow) = sqlite3_column_int64(handle, 2).multipliedReportingOverflow(by: sqlite3_column_int64(handle, 3))
            guard !overflow else { throw TallyError.arithmeticOverflow }
            let key = Key(budgetID: sqlite3_column_int64(handle, 0), tagSetID: tagSetID, nameKey: Self.text(handle, 4) { String(decoding: $0, as: UTF8.self) })
            guard let position = index[key] else {
                index[key] = sums.count
                keys.append(key)
                sums.append(Sum(name: Self.text(handle, 5) { Array($0) }, cents: cents, count: 1))
                continue
            }
            let (sum, sumOverflow) = sums[position].cents.addingReportingOverflow(cents)
            guard !sumOverflow else { throw TallyError.arithmeticOverflow }
            sums[position].cents = sum
            sums[position].count += 1
            // The smallest spelling by bytes, as Core keeps it.
            if Self.text(handle, 5, { $0.lexicographicallyPrecedes(sums[position].name) }) {
                sums[position].name = Self.text(handle, 5) { Array($0) }
            }
        }
    }

    func groups(tags: [Int64: [String]]) -> [SpendingGroup] {
        keys.indices.map { position in
            let key = keys[position]
            let sum = sums[position]
            return SpendingGroup(
                budgetID: key.budgetID, nameKey: key.nameKey, name: String(decoding: sum.name, as: UTF8.self),
                tags: key.tagSetID.flatMap { tags[$0] }?.sorted() ?? [], spent: Money(cents: sum.cents), count: sum.count)
        }
    }

    /// The text of column `column` as bytes, valid only inside `body`.
    private static func text<T>(_ handle: OpaquePointer, _ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes = sqlite3_column_text(handle, column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: bytes, count: count))
    }
}
