import Foundation
import PostgresNIO
import TallyCore

// What an import's transaction asks of PostgreSQL alone (the import itself is Core's,
// `DataAccess+Import.swift`): its new expenses by COPY, and its row keys; and recurring bills.
extension PostgresStore {
    // MARK: - Imports

    /// Saves the row keys of import `batch` (`nil` for none), skipping those already stored. Into
    /// an empty table (the first import) many go by one COPY without the table's indexes
    /// (``UnindexedLoad``), which a statement per 10,000 keys would take far longer to fill.
    func saveImportedRows(_ keys: [Int64], batch: Int64?) throws(TallyError) {
        guard let batch, keys.count >= 100, try session.query("SELECT 1 FROM importedRow LIMIT 1").isEmpty else {
            return try saveRowKeys(keys, batch: batch)
        }
        let unindexed = try UnindexedLoad(of: "importedrow", primaryKey: true, session)
        try saveNewRowKeys(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 } ? keys : keys.sorted(), batch: batch)
        try unindexed.restore(session)
    }
}

/// ``LedgerRows/insertExpenses(_:)`` on PostgreSQL: rows are sent a batch at a time, by COPY
/// (`writeExpenses`): one statement each would cost a round trip per row; 20,000 rows hold about
/// 4 MB. Into a ledger without expenses they go without the table's indexes (``UnindexedLoad``).
final class PostgresExpenseWriter: NewExpenseWriter {
    let firstID: Int64
    private let store: PostgresStore
    private let timestamp: Date
    private let unindexed: UnindexedLoad?
    private var pending: [Expense] = []
    /// The cache needs the rows' dates; collected here, they cost no read of the rows.
    private var dates = Set<Day>()
    private var count = 0

    init(_ store: PostgresStore, at timestamp: Date) throws(TallyError) {
        self.store = store
        self.timestamp = timestamp
        firstID = try store.lastID("expense") + 1
        let hasExpenses = try store.session.query("SELECT EXISTS (SELECT 1 FROM expense)").first?.bool(0) ?? false
        unindexed = hasExpenses ? nil : try UnindexedLoad(of: "expense", store.session)
    }

    func add(_ expense: Expense, nameKey: String) throws(TallyError) {
        pending.append(expense)
        dates.insert(expense.date)
        count += 1
        guard pending.count == 20_000 else { return }
        _ = try store.insertExpenses(pending, at: timestamp, caching: false)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is still pending, puts the indexes back and counts the rows into the cache.
    func finish() throws(TallyError) -> ExpenseIDRange? {
        _ = try store.insertExpenses(pending, at: timestamp, caching: false)
        pending = []
        try unindexed?.restore(store.session)
        guard count > 0 else { return nil }
        let last = firstID + Int64(count) - 1
        // Counted into the cache once, by id range: a statement after each batch would wait for
        // its COPY, which the next batch's reading overlaps.
        try store.caches.record(.added, where: "id BETWEEN $1 AND $2", [.int(firstID), .int(last)], dates: Array(dates))
        return ExpenseIDRange(first: firstID, last: last, count: count)
    }
}

extension PostgresStore {
    // MARK: - Recurring Rules

    func insertRule(_ rule: RecurringRule) throws(TallyError) -> RecurringRule {
        var rule = rule
        rule.id = try nextIDs("rule")
        try session.query(
            "INSERT INTO recurringRule (\(Columns.rule)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)", [.int(rule.id)] + rule.binds)
        return rule
    }

    func loadRules(where condition: String = "TRUE", _ binds: [SQLValue] = []) throws(TallyError) -> [RecurringRule] {
        var rules: [RecurringRule] = []
        for row in try session.query("SELECT \(Columns.rule) FROM recurringRule WHERE \(condition) ORDER BY id", binds) {
            rules.append(try RecurringRule(row: row))
        }
        return rules
    }

    func loadPayments() throws(TallyError) -> [RecurringPayment] {
        var payments: [RecurringPayment] = []
        for row in try session.query("SELECT ruleId, date, expenseId, kind FROM recurringPayment ORDER BY ruleId, date") {
            let kindText = try row.string(3)
            guard let kind = RecurringPayment.Kind(rawValue: kindText) else { throw .storage("a payment has an unknown kind \(quoted(kindText))") }
            payments.append(RecurringPayment(ruleID: try row.int(0), date: try Day(stored: try row.int(1)), expenseID: try row.optionalInt(2), kind: kind))
        }
        return payments
    }

    func savePayment(_ payment: RecurringPayment) throws(TallyError) {
        try session.query(
            """
            INSERT INTO recurringPayment (ruleId, date, expenseId, kind) VALUES ($1, $2, $3, $4)
            ON CONFLICT (ruleId, date) DO UPDATE SET expenseId = excluded.expenseId, kind = excluded.kind
            """, [.int(payment.ruleID), .int(payment.date.stored), .int(payment.expenseID), .text(payment.kind.rawValue)])
    }
}

/// A table loaded without its secondary indexes and foreign keys, which are put back once the
/// rows are in, as PostgreSQL's manual advises for populating a table ("Populating a Database"):
/// an index built once over the loaded rows, and a foreign key checked by one join, cost a
/// fraction of updating them row by row (a million-row import into an empty ledger: see
/// `benchmarks/RESULTS-postgres.md`). Only an import into a ledger without expenses does it: the
/// rebuild's cost grows with the rows already there, and the DDL locks the table against readers
/// until the import commits. The definitions are read from the catalog, so what is put back is
/// exactly what the migrations made; a failed import rolls the DDL back with everything else.
struct UnindexedLoad {
    private let indexes: [String]
    private let constraints: [(name: String, definition: String)]
    private let table: String

    /// `primaryKey` takes the primary key off too, for a table nothing references.
    init(of table: String, primaryKey: Bool = false, _ session: PostgresSession) throws(TallyError) {
        self.table = table
        var indexes: [(name: String, definition: String)] = []
        for row in try session.query(
            """
            SELECT i.indexname::text, i.indexdef FROM pg_indexes i
            WHERE i.schemaname = current_schema() AND i.tablename = $1
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)
            """, [.text(table)])
        {
            indexes.append((try row.string(0), try row.string(1)))
        }
        var constraints: [(name: String, definition: String)] = []
        for row in try session.query(
            "SELECT conname::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass AND contype = ANY($2) ORDER BY contype DESC",
            [.text(table), .texts(primaryKey ? ["f", "p"] : ["f"])])
        {
            constraints.append((try row.string(0), try row.string(1)))
        }
        for index in indexes { try session.query("DROP INDEX \(Self.quotedName(index.name))") }
        for constraint in constraints { try session.query("ALTER TABLE \(table) DROP CONSTRAINT \(Self.quotedName(constraint.name))") }
        self.indexes = indexes.map(\.definition)
        // A primary key goes back before the foreign keys.
        self.constraints = constraints.reversed()
    }

    /// Builds the indexes and checks and adds the constraints again.
    func restore(_ session: PostgresSession) throws(TallyError) {
        for definition in indexes { try session.query(definition) }
        for constraint in constraints {
            try session.query("ALTER TABLE \(table) ADD CONSTRAINT \(Self.quotedName(constraint.name)) \(constraint.definition)")
        }
    }

    private static func quotedName(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
