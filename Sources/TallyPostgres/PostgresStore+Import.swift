import Foundation
import PostgresNIO
import TallyCore

// Imports, recurring bills and alert memory: each one write transaction, deciding with Core's
// rules (`ImportResolution`, `RecurringSchedule`) as `InMemoryStore` does.
extension PostgresStore {
    // MARK: - Imports

    public func importExpenses(
        _ request: ImportRequest, rows: (_ insert: ImportInsert) throws(TallyError) -> String?
    ) throws(TallyError) -> ImportOutcome {
        let timestamp = now
        // The import's row keys carry its change set's id, so undoing it removes them.
        return try recordedImport { (content: inout ChangeContent, batch: Int64) throws(TallyError) in
            let firstExpense = try lastID("expense") + 1
            var resolution = ImportResolution(request: request, existing: try loadBudgets())
            resolution.nextExpenseID = firstExpense
            let hasExpenses = try session.query("SELECT EXISTS (SELECT 1 FROM expense)").first?.bool(0) ?? false
            if let settings = resolution.settingsToApply(ledgerHasExpenses: hasExpenses) { try saveSettings(settings) }
            let unindexed = hasExpenses ? nil : try UnindexedLoad(of: "expense", session)
            try resolution.createDeclaredBudgets { (budget: Budget) throws(TallyError) in
                try insertBudget(budget, createdAt: request.creationDate(ofDeclared: budget, importedAt: timestamp), at: timestamp)
            }
            try resolution.createDeclaredRules(existing: try loadImportRules()) { (rule: ImportRule, budgetID: Int64) throws(TallyError) in
                try session.query(
                    "INSERT INTO importRule (id, pattern, budgetId, tags, rename, priority, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    [.int(try nextIDs("importRule")), .text(rule.pattern), .int(budgetID), .texts(rule.tags), .text(rule.rename),
                     .int(Int64(rule.priority)), .text(rule.storedDetail)])
            }
            for profile in try resolution.profilesToSave(existing: try loadProfiles()) { try storeProfile(profile) }
            try resolution.restoreDeclaredAccounts(into: PostgresLedgerRows(self, RowsTransaction(at: timestamp, writable: true)))
            if let keys = request.rowKeys { keys.known = try loadRowKeys() }
            func create(_ budget: Budget) throws(TallyError) -> Budget { try insertBudget(budget, at: timestamp) }
            // Rows are sent a batch at a time, by COPY (`writeExpenses`): one statement each would
            // cost a round trip per row; 20,000 rows hold about 4 MB.
            var pending: [Expense] = []
            var count = 0
            // The cache needs the rows' dates; collected here, they cost no read of the rows.
            var dates = Set<Day>()
            let fingerprint = try rows { (expense: Expense, budgetName: String) throws(TallyError) in
                guard let expense = try resolution.row(expense, budgetName: budgetName, create: create) else { return }
                pending.append(expense)
                dates.insert(expense.date)
                count += 1
                if pending.count == 20_000 {
                    _ = try insertExpenses(pending, at: timestamp, caching: false)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            _ = try insertExpenses(pending, at: timestamp, caching: false)
            try unindexed?.restore(session)
            // Counted into the cache once, by id range: a statement after each batch would wait
            // for its COPY, which the next batch's reading overlaps.
            if count > 0 {
                try caches.record(
                    .added, where: "id BETWEEN $1 AND $2", [.int(firstExpense), .int(firstExpense + Int64(count) - 1)], dates: Array(dates))
            }
            try resolution.restoreLateAccounts(into: PostgresLedgerRows(self, RowsTransaction(at: timestamp, writable: true)))
            var rates = RateImages()
            try insertRates(request.rates, recording: &rates)
            if !rates.isEmpty { content.rates = rates }
            let earlier = try fingerprint.flatMap { (fingerprint: String) throws(TallyError) -> ImportRecord? in try loadImportRecord(fingerprint: fingerprint) }
            try resolution.finish(earlier: earlier, importedCount: count)
            if let keys = request.rowKeys {
                // The known keys are not needed any more; their memory goes before the sort.
                let first = keys.known.isEmpty
                keys.known = []
                let unindexed = first ? try UnindexedLoad(of: "importedrow", primaryKey: true, session) : nil
                try saveNewRowKeys(keys.sortedNewKeys(), batch: batch)
                try unindexed?.restore(session)
            }
            try restoreRecurringRules(request.recurringRules)
            if let fingerprint {
                try session.query(
                    """
                    INSERT INTO importedFile (fingerprint, importedAt, expenseCount) VALUES ($1, $2, $3)
                    ON CONFLICT (fingerprint) DO UPDATE SET importedAt = excluded.importedAt, expenseCount = excluded.expenseCount
                    """, [.text(fingerprint), .int(Milliseconds.since1970(timestamp)), .int(Int64(count))])
            }
            if count > 0 {
                content.addedExpenses = ExpenseIDRange(first: firstExpense, last: firstExpense + Int64(count) - 1, count: count)
                if request.rowKeys != nil { content.rowKeys = RowKeyChange(batch: batch, added: nil) }
            }
            return ImportOutcome(importedCount: count, createdBudgets: resolution.createdBudgets)
        }
    }

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

    /// A backup's rules, with their paid occurrences, into a ledger that has none.
    private func restoreRecurringRules(_ declared: [DeclaredRecurringRule]) throws(TallyError) {
        guard !declared.isEmpty else { return }
        let hasRules = !(try session.query("SELECT 1 FROM recurringRule LIMIT 1")).isEmpty
        guard DeclaredRecurringRule.restores(ledgerHasRules: hasRules) else { return }
        for entry in declared {
            var rule = try entry.rule.validated()
            rule.budgetID = try find(entry.budgetName).id ?? 0
            let saved = try insertRule(rule)
            for payment in entry.payments(ruleID: saved.id ?? 0) { try savePayment(payment) }
        }
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
