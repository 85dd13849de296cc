import Foundation
import TallyCore

// The history, as `SQLiteStore` keeps it (`PostgresSchema` "v3-history", "v4-removed-rows"): every write records its
// change set in its own transaction; undo (Core's `DataAccess+Undo.swift`) moves rows through the primitives here.
extension PostgresStore {
    /// Imported-row keys read in one reply.
    static let keyPage = 50_000

    // MARK: - Recording

    /// A write that records its change: `body` adds what it did to the content (`writing` through
    /// its `RowsTransaction`).
    func recordedWrite<T>(_ body: (inout ChangeContent) throws(TallyError) -> T) throws(TallyError) -> T {
        let timestamp = now
        return try write { () throws(TallyError) in
            var content = ChangeContent()
            let result = try body(&content)
            try record(ChangeSet(id: 0, when: timestamp, command: ChangeContext.command, content: content), explicitID: false)
            return result
        }
    }

    /// Saves a change set unless it changed nothing, and prunes those older than the history length.
    func record(_ changeSet: ChangeSet, explicitID: Bool) throws(TallyError) {
        guard !changeSet.content.isEmpty || changeSet.undoes != nil else { return }
        let at = Milliseconds.since1970(changeSet.when)
        try session.query("DELETE FROM changeSet WHERE at < $1 - (SELECT historyDays FROM setting WHERE id = 1) * 86400000::BIGINT", [.int(at)])
        let id = explicitID ? changeSet.id : try nextIDs("changeSet")
        let json = String(decoding: try ChangeContentCoding.encode(changeSet.content), as: UTF8.self)
        try session.query(
            "INSERT INTO changeSet (id, at, command, summary, undoes, content) VALUES ($1, $2, $3, $4, $5, $6)",
            [.int(id), .int(at), .text(changeSet.command), .text(changeSet.summary), .int(changeSet.undoes), .text(json)])
    }

    /// The rows of `kinds` but expenses, as the history keeps them.
    func rowImages(_ kinds: RowKinds = .all) throws(TallyError) -> [RowImage] {
        var images: [RowImage] = kinds.contains(.settings) ? [.settings(try loadSettings())] : []
        if kinds.contains(.budgets) { images += try loadBudgets().map { .budget($0) } }
        if kinds.contains(.recurring) {
            images += try loadRules().map { .recurringRule($0) }
            images += try loadPayments().map { .recurringPayment($0) }
        }
        if kinds.contains(.importRules) {
            for row in try session.query("SELECT id, pattern, budgetId, tags, rename, priority, transferAccountId, detail FROM importRule") {
                // The budget (or account) by id only: renaming one does not change its rules.
                var rule = ImportRule(
                    id: try row.int(0), pattern: try row.string(1), budget: "", tags: try row.strings(3), rename: try row.optionalString(4),
                    priority: Int(try row.int(5)))
                rule.transferAccountID = try row.optionalInt(6)
                try rule.restoreDetail(try row.string(7))
                images.append(.importRule(rule, budgetID: try row.optionalInt(2) ?? 0))
            }
        }
        if kinds.contains(.profiles) { images += try loadProfiles().map { .profile($0) } }
        if kinds.contains(.importRecords) {
            for row in try session.query("SELECT fingerprint, importedAt, expenseCount FROM importedFile") {
                images.append(
                    .importRecord(ImportRecord(fingerprint: try row.string(0), importedAt: Milliseconds.date(try row.int(1)), expenseCount: Int(try row.int(2)))))
            }
        }
        if kinds.contains(.serveTokens) {
            for row in try session.query("SELECT name, permission, hash, createdAt, linkUsed FROM serveToken") {
                let permission = try row.string(1)
                guard let level = ServePermission(rawValue: permission) else {
                    throw TallyError.storage("the token table has an unknown permission: \(permission)")
                }
                images.append(
                    .serveToken(
                        ServeToken(name: try row.string(0), permission: level, hash: try row.string(2), createdAt: try row.int(3), linkUsed: try row.bool(4))))
            }
        }
        if kinds.contains(.alertLevels) {
            for row in try session.query("SELECT budgetId, period, level FROM checkState ORDER BY period, budgetId") {
                let text = try row.string(2)
                guard let level = AlertLevel(rawValue: text) else { throw TallyError.storage("a remembered alert level \(quoted(text)) is unknown") }
                images.append(.alertLevel(budgetID: try row.int(0), period: try Month(stored: try row.int(1)), level: level))
            }
        }
        if kinds.contains(.importedRows) {
            // A page of keys at a time by the primary key: a reply's rows are held whole, and a
            // million keys held as rows took 177 MB in an import of a known file.
            var batches: [Int64: [Int64]] = [:]
            var after: Int64?
            while true {
                let page = try session.query(
                    "SELECT coalesce(batch, 0), key FROM importedRow \(after == nil ? "" : "WHERE key > $1") ORDER BY key LIMIT \(Self.keyPage)",
                    after.map { [.int($0)] } ?? [])
                for row in page {
                    let key = try row.int(1)
                    batches[try row.int(0), default: []].append(key)
                    after = key
                }
                guard page.count == Self.keyPage else { break }
            }
            images += batches.keys.sorted().map { batch in .importedRows(batch: batch, keys: batches[batch] ?? []) }
        }
        if kinds.contains(.tags) {
            images.append(.tags(try session.query("SELECT name FROM tag").map { row throws(TallyError) in try row.string(0) }))
        }
        return images + (try accountImages(kinds))
    }

    /// The last id handed out of `kind`, without taking one.
    func lastID(_ kind: String) throws(TallyError) -> Int64 {
        guard let row = try session.query("SELECT last FROM idCounter WHERE kind = $1", [.text(kind)]).first else {
            throw .storage("the database has no \(kind) id counter")
        }
        return try row.int(0)
    }

    // MARK: - Undo's primitives (`DataAccess+Undo.swift`)

    /// ``LedgerRows/history(contentFrom:)``: the content is read only for change sets from `id` on.
    func history(contentFrom id: Int64?) throws(TallyError) -> History {
        var sets: [ChangeSet] = []
        let rows = try session.query(
            "SELECT id, at, command, summary, undoes, CASE WHEN id >= $1 THEN content END FROM changeSet ORDER BY id", [.int(id ?? Int64.max)])
        for row in rows {
            var changeSet = ChangeSet(
                id: try row.int(0), when: Milliseconds.date(try row.int(1)), command: try row.string(2), undoes: try row.optionalInt(4),
                content: ChangeContent(), summary: try row.string(3))
            if let content = try row.optionalString(5) { changeSet.content = try ChangeContentCoding.decode(Data(content.utf8)) }
            sets.append(changeSet)
        }
        return History(sets, nextID: try lastID("changeSet") + 1)
    }

    /// Records `changeSet` under the id ``history(contentFrom:)`` announced, taking it from the counter.
    func recordAnnounced(_ changeSet: ChangeSet) throws(TallyError) {
        let id = try nextIDs("changeSet")
        guard id == changeSet.id else { throw .storage("change set \(changeSet.id) was announced, but the next id is \(id)") }
        try record(changeSet, explicitID: true)
    }

    /// Moves an import's expenses and row keys beside change set `id` (`v4-removed-rows`) with
    /// `INSERT … SELECT`, as on SQLite.
    func setAside(_ range: ExpenseIDRange?, rowKeysOf batch: Int64?, under id: Int64) throws(TallyError) {
        if let range {
            let columns = Self.copiedExpenseColumns.joined(separator: ", ")
            try caches.record(.removed, where: "id BETWEEN $1 AND $2", [.int(range.first), .int(range.last)])
            try session.query(
                "INSERT INTO removedExpense (changeSetId, \(columns)) SELECT $1, \(columns) FROM expense WHERE id BETWEEN $2 AND $3",
                [.int(id), .int(range.first), .int(range.last)])
            try session.query("DELETE FROM expense WHERE id BETWEEN $1 AND $2", [.int(range.first), .int(range.last)])
        }
        if let batch {
            try session.query(
                "INSERT INTO removedImportedRow (changeSetId, key, batch) SELECT $1, key, batch FROM importedRow WHERE batch = $2",
                [.int(id), .int(batch)])
            try session.query("DELETE FROM importedRow WHERE batch = $1", [.int(batch)])
        }
    }

    /// Moves the expenses and row keys kept beside change set `id` back into the ledger.
    func bringBack(setAsideUnder id: Int64) throws(TallyError) {
        let columns = Self.copiedExpenseColumns.joined(separator: ", ")
        try session.query("INSERT INTO expense (\(columns)) SELECT \(columns) FROM removedExpense WHERE changeSetId = $1 ORDER BY id", [.int(id)])
        try caches.record(.added, rowsOf: "removedExpense", where: "changeSetId = $1", [.int(id)])
        try session.query("DELETE FROM removedExpense WHERE changeSetId = $1", [.int(id)])
        try session.query(
            "INSERT INTO importedRow (key, batch) SELECT key, batch FROM removedImportedRow WHERE changeSetId = $1 ON CONFLICT DO NOTHING", [.int(id)])
        try session.query("DELETE FROM removedImportedRow WHERE changeSetId = $1", [.int(id)])
    }

    /// Removes one row; settings have none to remove.
    func delete(_ image: RowImage) throws(TallyError) {
        switch image {
        case .settings: break
        case .budget(let budget): try session.query("DELETE FROM budget WHERE id = $1", [.int(budget.id)])
        case .recurringRule(let rule): try session.query("DELETE FROM recurringRule WHERE id = $1", [.int(rule.id)])
        case .recurringPayment(let payment):
            try session.query("DELETE FROM recurringPayment WHERE ruleId = $1 AND date = $2", [.int(payment.ruleID), .int(payment.date.stored)])
        case .importRule(let rule, _): try session.query("DELETE FROM importRule WHERE id = $1", [.int(rule.id)])
        case .profile(let profile): try session.query("DELETE FROM importProfile WHERE nameKey = $1", [.text(profile.nameKey)])
        case .importRecord(let record): try session.query("DELETE FROM importedFile WHERE fingerprint = $1", [.text(record.fingerprint)])
        case .account, .income, .transfer, .balanceAssertion: try deleteAccountRow(image)
        case .serveToken(let token): try session.query("DELETE FROM serveToken WHERE name = $1", [.text(token.name)])
        case .alertLevel(let budgetID, let period, _):
            try session.query("DELETE FROM checkState WHERE budgetId = $1 AND period = $2", [.int(budgetID), .int(period.stored)])
        case .importedRows(_, let keys): try session.query("DELETE FROM importedRow WHERE key = ANY($1::BIGINT[])", [.ints(keys)])
        // Written with the expenses that carry them.
        case .tags: break
        }
    }

    /// Saves a row under its own id or key, inserting or replacing.
    func put(_ image: RowImage) throws(TallyError) {
        switch image {
        case .settings(let settings): try saveSettings(settings)
        case .budget(let budget):
            try session.query(
                """
                INSERT INTO budget (\(Columns.budgetInsert))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
                ON CONFLICT (id) DO UPDATE SET name = $2, nameKey = $3, limitCents = $4, period = $5, rollover = $6, capCents = $7,
                    startMonth = $8, fromDate = $9, toDate = $10, warnPercent = $11, createdAt = $12, updatedAt = $13,
                    targetCents = $14, targetBy = $15, targetAccountId = $16, currency = $17
                """, [.int(budget.id)] + budget.binds)
            try saveLimitChanges(of: budget)
        case .recurringRule(let rule):
            try session.query(
                """
                INSERT INTO recurringRule (\(Columns.rule)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                ON CONFLICT (id) DO UPDATE SET name = $2, budgetId = $3, amountCents = $4, quantity = $5, tags = $6, every = $7,
                    intervalCount = $8, day = $9, start = $10, until = $11, skips = $12
                """, [.int(rule.id)] + rule.binds)
        case .recurringPayment(let payment): try savePayment(payment)
        case .importRule(let rule, let budgetID):
            try session.query(
                """
                INSERT INTO importRule (id, pattern, budgetId, tags, rename, priority, transferAccountId, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (id) DO UPDATE SET pattern = $2, budgetId = $3, tags = $4, rename = $5, priority = $6, transferAccountId = $7,
                    detail = $8
                """,
                [
                    .int(rule.id), .text(rule.pattern), .int(rule.transferAccountID == nil ? budgetID : nil), .texts(rule.tags), .text(rule.rename),
                    .int(Int64(rule.priority)), .int(rule.transferAccountID), .text(rule.storedDetail),
                ])
        case .profile(let profile): try storeProfile(profile)
        case .importRecord(let record):
            try session.query(
                """
                INSERT INTO importedFile (fingerprint, importedAt, expenseCount) VALUES ($1, $2, $3)
                ON CONFLICT (fingerprint) DO UPDATE SET importedAt = excluded.importedAt, expenseCount = excluded.expenseCount
                """, [.text(record.fingerprint), .int(Milliseconds.since1970(record.importedAt)), .int(Int64(record.expenseCount))])
        case .account, .income, .transfer, .balanceAssertion: _ = try putAccountRow(image)
        case .serveToken(let token):
            try session.query(
                """
                INSERT INTO serveToken (name, permission, hash, createdAt, linkUsed) VALUES ($1, $2, $3, $4, $5 <> 0)
                ON CONFLICT (name) DO UPDATE SET permission = $2, hash = $3, createdAt = $4, linkUsed = $5 <> 0
                """, [.text(token.name), .text(token.permission.rawValue), .text(token.hash), .int(token.createdAt), .int(token.linkUsed ? 1 : 0)])
        case .alertLevel(let budgetID, let period, let level):
            // Only a budget that exists, as the foreign key requires.
            try session.query(
                """
                INSERT INTO checkState (period, budgetId, level) SELECT $1, id, $3 FROM budget WHERE id = $2
                ON CONFLICT (period, budgetId) DO UPDATE SET level = excluded.level
                """, [.int(period.stored), .int(budgetID), .text(level.rawValue)])
        case .importedRows(let batch, let keys): try saveImportedRows(keys, batch: batch == 0 ? nil : batch)
        case .tags: break
        }
    }
}
