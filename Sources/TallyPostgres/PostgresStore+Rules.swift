import Foundation
import TallyCore

// Import rules, row keys and profiles, as `SQLiteStore` keeps them: a rule points at its budget
// by id and is answered with the budget's current name; each method one transaction.
extension PostgresStore {
    public func addRule(_ rule: ImportRule) throws(TallyError) -> ImportRule {
        let rule = try rule.validated()
        return try recordedWrite(rows: true) { (_: inout ChangeContent) throws(TallyError) in
            let budget = try find(rule.budget)
            var saved = rule
            saved.id = try nextIDs("importRule")
            saved.budget = budget.name
            try session.query(
                "INSERT INTO importRule (id, pattern, budgetId, tags, rename, priority) VALUES ($1, $2, $3, $4, $5, $6)",
                [.int(saved.id), .text(saved.pattern), .int(budget.id), .texts(saved.tags), .text(saved.rename), .int(Int64(saved.priority))])
            return saved
        }
    }

    public func rules() throws(TallyError) -> [ImportRule] {
        try read { () throws(TallyError) in try loadImportRules() }
    }

    func loadImportRules() throws(TallyError) -> [ImportRule] {
        var rules: [ImportRule] = []
        for row in try session.query(
            "SELECT r.id, r.pattern, b.name, r.tags, r.rename, r.priority FROM importRule r JOIN budget b ON b.id = r.budgetId")
        {
            rules.append(
                ImportRule(
                    id: try row.int(0), pattern: try row.string(1), budget: try row.string(2), tags: try row.strings(3),
                    rename: try row.optionalString(4), priority: Int(try row.int(5))))
        }
        return ImportRule.ordered(rules)
    }

    public func updateRule(_ rule: ImportRule) throws(TallyError) -> ImportRule {
        let rule = try rule.validated()
        let id = rule.id ?? 0
        return try recordedWrite(rows: true) { (_: inout ChangeContent) throws(TallyError) in
            guard try session.query("SELECT id FROM importRule WHERE id = $1", [.int(id)]).first != nil else { throw .ruleNotFound(id) }
            let budget = try find(rule.budget)
            var saved = rule
            saved.budget = budget.name
            try session.query(
                "UPDATE importRule SET pattern = $2, budgetId = $3, tags = $4, rename = $5, priority = $6 WHERE id = $1",
                [.int(id), .text(saved.pattern), .int(budget.id), .texts(saved.tags), .text(saved.rename), .int(Int64(saved.priority))])
            return saved
        }
    }

    public func removeRule(id: Int64) throws(TallyError) {
        try recordedWrite(rows: true) { (_: inout ChangeContent) throws(TallyError) in
            guard try session.query("DELETE FROM importRule WHERE id = $1 RETURNING id", [.int(id)]).first != nil else {
                throw .ruleNotFound(id)
            }
        }
    }

    public func importedRowKeys() throws(TallyError) -> Set<Int64> {
        try read { () throws(TallyError) in try loadRowKeys() }
    }

    func loadRowKeys() throws(TallyError) -> Set<Int64> {
        var keys = Set<Int64>()
        for row in try session.query("SELECT key FROM importedRow") { keys.insert(try row.int(0)) }
        return keys
    }

    /// Saves an import's new row keys, sorted: none is stored yet (the import read them all
    /// under the writer lock), so they go by COPY, a fifth of the time of INSERT … ON CONFLICT;
    /// a key twice (two rows whose 64-bit hashes collide) is saved once.
    func saveNewRowKeys(_ sorted: [Int64], batch id: Int64) throws(TallyError) {
        guard sorted.count >= 100 else { return try saveRowKeys(sorted, batch: id) }
        var rows = CopyRows(capacity: sorted.count * 28)
        var previous: Int64?
        for key in sorted where key != previous {
            rows.append(key)
            rows.append(id)
            rows.endRow()
            previous = key
        }
        try session.copy(into: "importedrow", columns: ["key", "batch"], rows)
    }

    /// Saves row keys a batch at a time (one statement each would cost a round trip per key),
    /// skipping those already stored.
    func saveRowKeys(_ keys: [Int64], batch id: Int64) throws(TallyError) {
        var start = keys.startIndex
        while start < keys.endIndex {
            let batch = Array(keys[start..<min(start + 10_000, keys.endIndex)])
            try session.query("INSERT INTO importedRow (key, batch) SELECT unnest($1::BIGINT[]), $2 ON CONFLICT DO NOTHING", [.ints(batch), .int(id)])
            start += batch.count
        }
    }

    public func saveProfile(_ profile: ImportProfile) throws(TallyError) -> ImportProfile {
        let profile = try profile.validated()
        return try recordedWrite(rows: true) { (_: inout ChangeContent) throws(TallyError) in
            try storeProfile(profile)
            return profile
        }
    }

    func storeProfile(_ profile: ImportProfile) throws(TallyError) {
        try session.query(
            """
            INSERT INTO importProfile (nameKey, name, columns, dateFormat, expenseSign, delimiter, fallbackBudget, uncategorized,
                decimalComma, currency, encoding)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            ON CONFLICT (nameKey) DO UPDATE SET name = excluded.name, columns = excluded.columns, dateFormat = excluded.dateFormat,
                expenseSign = excluded.expenseSign, delimiter = excluded.delimiter, fallbackBudget = excluded.fallbackBudget,
                uncategorized = excluded.uncategorized, decimalComma = excluded.decimalComma, currency = excluded.currency,
                encoding = excluded.encoding
            """,
            [
                .text(profile.nameKey), .text(profile.name), .text(profile.columns), .text(profile.dateFormat), .text(profile.expenseSign),
                .text(profile.delimiter), .text(profile.fallbackBudget), .int(profile.uncategorized ? 1 : 0),
                .int(profile.decimalComma.map { $0 ? 1 : 0 }), .text(profile.currency), .text(profile.encoding),
            ])
    }

    public func profiles() throws(TallyError) -> [ImportProfile] {
        try read { () throws(TallyError) in try loadProfiles() }
    }

    func loadProfiles() throws(TallyError) -> [ImportProfile] {
        var profiles: [ImportProfile] = []
        let rows = try session.query(
            """
            SELECT name, columns, dateFormat, expenseSign, delimiter, fallbackBudget, uncategorized, decimalComma, currency, encoding
            FROM importProfile ORDER BY nameKey COLLATE "C"
            """)
        for row in rows {
            profiles.append(
                ImportProfile(
                    name: try row.string(0), columns: try row.optionalString(1), dateFormat: try row.optionalString(2),
                    expenseSign: try row.optionalString(3), delimiter: try row.optionalString(4), fallbackBudget: try row.optionalString(5),
                    uncategorized: try row.int(6) != 0, decimalComma: try row.optionalInt(7).map { $0 != 0 },
                    currency: try row.optionalString(8), encoding: try row.optionalString(9)))
        }
        return profiles
    }

    public func removeProfile(named name: String) throws(TallyError) {
        try recordedWrite(rows: true) { (_: inout ChangeContent) throws(TallyError) in
            guard try session.query("DELETE FROM importProfile WHERE nameKey = $1 RETURNING nameKey", [.text(NameKey.lookup(name))]).first != nil
            else { throw .profileNotFound(name) }
        }
    }
}
