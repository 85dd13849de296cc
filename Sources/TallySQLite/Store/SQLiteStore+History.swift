import Foundation
import GRDB
import TallyCore

// The history (`Schema.v10History`): every write records its change set inside its own
// transaction; undo (Core's `DataAccess+Undo.swift`) reads it and moves rows through the
// primitives here. Every expense write goes through `ExpenseCaches`, as for any other write.
extension SQLiteStore {
    // MARK: - Recording

    /// Runs `body`, which adds what it did to the content, and records that as a change set.
    static func recording<T>(at timestamp: Date, _ db: Database, _ body: (inout ChangeContent) throws -> T) throws -> T {
        var content = ChangeContent()
        let result = try body(&content)
        try record(ChangeSet(id: 0, when: timestamp, command: ChangeContext.command, content: content), explicitID: false, db)
        return result
    }

    /// Saves a change set, unless it changed nothing, and prunes what is older than the ledger's
    /// history length (whole change sets, each holding all its undo needs, with the rows set
    /// aside beside them: `Schema.v27WriterKeptLinks`).
    static func record(_ changeSet: ChangeSet, explicitID: Bool, _ db: Database) throws {
        guard !changeSet.content.isEmpty || changeSet.undoes != nil else { return }
        let at = Milliseconds.since1970(changeSet.when)
        // One statement on a write that prunes nothing, as before the rows set aside lost their
        // foreign key; only pruned change sets send their rows after them.
        let pruned = try Int64.fetchAll(
            db, sql: "DELETE FROM changeSet WHERE at < ? - (SELECT historyDays FROM setting WHERE id = 1) * 86400000 RETURNING id",
            arguments: [at])
        if !pruned.isEmpty {
            let list = jsonArray(pruned)
            for table in ["removedExpense", "removedImportedRow"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE changeSetId IN (SELECT value FROM json_each(?))", arguments: [list])
            }
        }
        let data = try ChangeContentCoding.encode(changeSet.content)
        try db.execute(
            sql: "INSERT INTO changeSet (id, at, command, summary, undoes, content) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [explicitID ? changeSet.id : nil, at, changeSet.command, changeSet.summary, changeSet.undoes, data])
    }

    /// The id the next change set gets: AUTOINCREMENT never hands an id out twice, so an import's
    /// row keys stay tied to their import after older change sets are pruned.
    static func nextChangeSetID(_ db: Database) throws -> Int64 {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changeSet'") ?? 0
        let largest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM changeSet") ?? 0
        return max(sequence, largest) + 1
    }

    /// The last expense id handed out, for the range an import adds.
    static func lastExpenseID(_ db: Database) throws -> Int64 {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'expense'") ?? 0
        let largest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM expense") ?? 0
        return max(sequence, largest)
    }

    /// The rows of `kinds` but expenses, as the history keeps them.
    static func rowImages(_ db: Database, _ kinds: RowKinds = .all) throws -> [RowImage] {
        var images: [RowImage] = kinds.contains(.settings) ? [.settings(try settings(db))] : []
        if kinds.contains(.budgets) { for budget in try allBudgets(db) { images.append(.budget(budget)) } }
        if kinds.contains(.recurring) {
            for rule in try allRules(db) { images.append(.recurringRule(rule)) }
            for payment in try allPayments(db) { images.append(.recurringPayment(payment)) }
        }
        if kinds.contains(.importRules) {
            for row in try Row.fetchAll(db, sql: "SELECT id, pattern, budgetId, tags, rename, priority, transferAccountId, detail FROM importRule") {
                let tags: String = row[3]
                // The budget (or account) by id only: renaming one does not change its rules.
                var rule = ImportRule(id: row[0], pattern: row[1], budget: "", tags: TagSetKey.tags(tags), rename: row[4], priority: row[5])
                rule.transferAccountID = row[6]
                try rule.restoreDetail(row[7])
                images.append(.importRule(rule, budgetID: row[2] ?? 0))
            }
        }
        if kinds.contains(.profiles) { for profile in try profiles(db) { images.append(.profile(profile)) } }
        if kinds.contains(.importRecords) {
            for row in try Row.fetchAll(db, sql: "SELECT fingerprint, importedAt, rowCount FROM importLog") {
                images.append(.importRecord(ImportRecord(fingerprint: row[0], importedAt: Milliseconds.date(row[1]), expenseCount: row[2])))
            }
        }
        if kinds.contains(.serveTokens) {
            for row in try Row.fetchAll(db, sql: "SELECT name, permission, hash, createdAt, linkUsed FROM serveToken") {
                let permission: String = row[1]
                guard let level = ServePermission(rawValue: permission) else {
                    throw TallyError.storage("the token table has an unknown permission: \(permission)")
                }
                images.append(.serveToken(ServeToken(name: row[0], permission: level, hash: row[2], createdAt: row[3], linkUsed: row[4])))
            }
        }
        if kinds.contains(.alertLevels) {
            for row in try Row.fetchAll(db, sql: "SELECT budgetId, period, level FROM checkState ORDER BY period, budgetId") {
                let text: String = row[2]
                guard let level = AlertLevel(rawValue: text) else { throw TallyError.storage("a check level \(quoted(text))") }
                images.append(.alertLevel(budgetID: row[0], period: try Month(storedNumber: row[1]), level: level))
            }
        }
        if kinds.contains(.importedRows) { images += try ExpenseImporter.rowKeyBatches(db) }
        // The `tag` table keeps every tag a tag set ever held.
        if kinds.contains(.tags) { images.append(.tags(try String.fetchAll(db, sql: "SELECT name FROM tag"))) }
        return images + (try accountImages(db, kinds))
    }

    // MARK: - Undo's primitives (`DataAccess+Undo.swift`)

    /// ``LedgerRows/history(contentFrom:)``: the content is read only for change sets from `id` on.
    static func history(contentFrom id: Int64?, _ db: Database) throws -> History {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, at, command, summary, undoes, CASE WHEN id >= ? THEN content END FROM changeSet ORDER BY id",
            arguments: [id ?? Int64.max])
        let changeSets = try rows.map { row in
            var changeSet = ChangeSet(
                id: row[0], when: Milliseconds.date(row[1]), command: row[2], undoes: row[4], content: ChangeContent(), summary: row[3])
            if let content: Data = row[5] { changeSet.content = try ChangeContentCoding.decode(content) }
            return changeSet
        }
        return History(changeSets, nextID: try nextChangeSetID(db))
    }

    /// Moves an import's expenses and row keys beside change set `id` (`Schema.v11RemovedRows`)
    /// with `INSERT … SELECT`: a million rows in two statements each, not a JSON image per row.
    static func setAside(_ range: ExpenseIDRange?, rowKeysOf batch: Int64?, under id: Int64, _ db: Database) throws {
        if let range {
            try db.execute(
                sql: """
                    INSERT INTO removedExpense (changeSetId, \(ExpenseRecord.positionalColumns))
                    SELECT ?, \(ExpenseRecord.positionalColumns) FROM expense WHERE id BETWEEN ? AND ?
                    """, arguments: [id, range.first, range.last])
            try ExpenseCaches.delete(expensesWhere: "id BETWEEN ?1 AND ?2", bind: { $0.bind(1, range.first); $0.bind(2, range.last) }, db)
        }
        if let batch {
            try db.execute(
                sql: "INSERT INTO removedImportedRow (changeSetId, key, batch) SELECT ?, key, batch FROM importedRow WHERE batch = ?",
                arguments: [id, batch])
            try db.execute(sql: "DELETE FROM importedRow WHERE batch = ?", arguments: [batch])
        }
    }

    /// Moves the expenses and row keys kept beside change set `id` back into the ledger.
    static func bringBack(setAsideUnder id: Int64, _ db: Database) throws {
        try ExpenseCaches.add(rowsOf: "removedExpense", where: "changeSetId = ?1", bind: { $0.bind(1, id) }, db)
        try db.execute(
            sql: """
                INSERT INTO expense (\(ExpenseRecord.positionalColumns))
                SELECT \(ExpenseRecord.positionalColumns) FROM removedExpense WHERE changeSetId = ? ORDER BY id
                """, arguments: [id])
        try db.execute(sql: "DELETE FROM removedExpense WHERE changeSetId = ?", arguments: [id])
        try db.execute(
            sql: "INSERT OR IGNORE INTO importedRow (key, batch) SELECT key, batch FROM removedImportedRow WHERE changeSetId = ?",
            arguments: [id])
        try db.execute(sql: "DELETE FROM removedImportedRow WHERE changeSetId = ?", arguments: [id])
    }

    /// Ids or keys as one JSON array, for `json_each`: one statement for a million rows, where a
    /// statement a row (or a chunk of `?` marks) compiled and ran SQL a million times.
    private static func jsonArray(_ numbers: [Int64]) -> String {
        "[" + PackedColumn.pack(numbers) + "]"
    }

    static func delete(_ image: RowImage, _ db: Database) throws {
        switch image {
        case .settings: break
        case .budget(let budget): try db.execute(sql: "DELETE FROM budget WHERE id = ?", arguments: [budget.id])
        case .recurringRule(let rule): try db.execute(sql: "DELETE FROM recurringRule WHERE id = ?", arguments: [rule.id])
        case .recurringPayment(let payment):
            try db.execute(
                sql: "DELETE FROM recurringPayment WHERE ruleId = ? AND date = ?", arguments: [payment.ruleID, payment.date.storedNumber])
        case .importRule(let rule, _): try db.execute(sql: "DELETE FROM importRule WHERE id = ?", arguments: [rule.id])
        case .profile(let profile): try db.execute(sql: "DELETE FROM importProfile WHERE nameKey = ?", arguments: [profile.nameKey])
        case .importRecord(let record): try db.execute(sql: "DELETE FROM importLog WHERE fingerprint = ?", arguments: [record.fingerprint])
        case .account, .income, .transfer, .balanceAssertion: try deleteAccountRow(image, db)
        case .serveToken(let token): try db.execute(sql: "DELETE FROM serveToken WHERE name = ? COLLATE BINARY", arguments: [token.name])
        case .alertLevel(let budgetID, let period, _):
            try db.execute(sql: "DELETE FROM checkState WHERE budgetId = ? AND period = ?", arguments: [budgetID, period.storedNumber])
        case .importedRows(_, let keys):
            // Each list in one statement, whatever its length.
            try db.execute(sql: "DELETE FROM importedRow WHERE key IN (SELECT value FROM json_each(?))", arguments: [jsonArray(keys)])
        // Written with the expenses that carry them.
        case .tags: break
        }
    }

    /// Saves a row under its own id or key, inserting or replacing.
    static func put(_ image: RowImage, _ db: Database) throws {
        switch image {
        case .settings(let settings): try save(settings, db)
        case .budget(let budget):
            var record = BudgetRecord(budget)
            if try BudgetRecord.exists(db, key: budget.id ?? 0) { try record.update(db) } else { try record.insert(db) }
            try saveLimitChanges(of: budget, db)
        case .recurringRule(let rule): try put(rule, db)
        case .recurringPayment(let payment):
            try db.execute(
                sql: "INSERT OR REPLACE INTO recurringPayment (ruleId, date, expenseId, kind) VALUES (?, ?, ?, ?)",
                arguments: [payment.ruleID, payment.date.storedNumber, payment.expenseID, payment.kind.rawValue])
        case .importRule(let rule, let budgetID):
            try db.execute(
                sql: "INSERT OR REPLACE INTO importRule (id, pattern, budgetId, tags, rename, priority, transferAccountId, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    rule.id, rule.pattern, rule.transferAccountID == nil ? budgetID : nil, rule.tags.joined(separator: ";"), rule.rename, rule.priority,
                    rule.transferAccountID, rule.storedDetail,
                ])
        case .profile(let profile): try save(profile, db)
        case .importRecord(let record):
            try db.execute(
                sql: "INSERT OR REPLACE INTO importLog (fingerprint, importedAt, rowCount) VALUES (?, ?, ?)",
                arguments: [record.fingerprint, Milliseconds.since1970(record.importedAt), record.expenseCount])
        case .account, .income, .transfer, .balanceAssertion: _ = try putAccountRow(image, db)
        case .serveToken(let token):
            try db.execute(
                sql: """
                    INSERT INTO serveToken (name, permission, hash, createdAt, linkUsed) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET permission = excluded.permission, hash = excluded.hash,
                        createdAt = excluded.createdAt, linkUsed = excluded.linkUsed
                    """,
                arguments: [token.name, token.permission.rawValue, token.hash, token.createdAt, token.linkUsed])
        case .alertLevel(let budgetID, let period, let level):
            // A budget removed meanwhile has no row to keep.
            try db.execute(
                sql: "INSERT OR REPLACE INTO checkState (budgetId, period, level) SELECT id, ?, ? FROM budget WHERE id = ?",
                arguments: [period.storedNumber, level.rawValue, budgetID])
        case .importedRows(let batch, let keys): try ExpenseImporter.saveRowKeys(keys, batch: batch == 0 ? nil : batch, db)
        case .tags: break
        }
    }

    /// Saves expenses under their own ids, inserting or updating, and moves their rows of the
    /// caches from what they were to what they are. One cached statement, and each name's key and
    /// each tag set's id worked out once: a record lookup and a record insert a row would make
    /// redoing an undone import slow.
    static func put(_ expenses: [Expense], _ db: Database) throws {
        guard !expenses.isEmpty else { return }
        let ids = jsonArray(expenses.compactMap(\.id))
        var replaced = try ExpenseCaches(db)
        try replaced.add(expenses: "\(ExpenseCaches.columns) FROM expense WHERE id IN (SELECT value FROM json_each(?))", bind: { $0.bind(1, ids) }, db)
        var added = try ExpenseCaches(db)
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO expense (\(ExpenseRecord.positionalColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET budgetId = excluded.budgetId, name = excluded.name, nameKey = excluded.nameKey,
                    amountCents = excluded.amountCents, quantity = excluded.quantity, date = excluded.date,
                    tagSetId = excluded.tagSetId, createdAt = excluded.createdAt, updatedAt = excluded.updatedAt,
                    spentBy = excluded.spentBy, accountId = excluded.accountId, originalMinor = excluded.originalMinor,
                    originalCurrency = excluded.originalCurrency, rate = excluded.rate, rateSource = excluded.rateSource,
                    detail = excluded.detail
                """)
        var nameKeys: [String: String] = [:]
        var tagSets: [[String]: Int64?] = [:]
        for expense in expenses {
            let nameKey = nameKeys[expense.name] ?? expense.nameKey
            nameKeys[expense.name] = nameKey
            let tagSetID = try tagSets[expense.tags] ?? tagSetID(expense.tags, db)
            tagSets[expense.tags] = tagSetID
            let record = ExpenseRecord(expense, nameKey: nameKey, tagSetId: tagSetID)
            try statement.execute(arguments: [
                record.id, record.budgetId, record.name, record.nameKey, record.amountCents, record.quantity, record.date,
                record.tagSetId, record.createdAt, record.updatedAt, record.spentBy, record.accountId,
                record.originalMinor, record.originalCurrency, record.rate, record.rateSource, record.detail,
            ])
            try added.add(record, db)
        }
        try replaced.saveRemoved(db)
        try added.saveAdded(db)
    }
}
