import Foundation
import GRDB
import TallyCore

// The history (`Schema.v10History`): every write records its change set inside its own
// transaction; `undo` applies a change set's inverse (Core's `ChangeContent.inverse`) and records
// that as a change set too. Both caches follow through `ExpenseCaches`, as for any other write.
extension SQLiteStore {
    // MARK: - Recording

    /// A write that records its change: `body` adds what it did to the content (`writing` through
    /// its `RowsTransaction`).
    func recordedWrite<T>(_ body: (Database, inout ChangeContent) throws -> T) throws(TallyError) -> T {
        let timestamp = now
        return try write { db in try Self.recording(rows: false, at: timestamp, db) { content in try body(db, &content) } }
    }

    /// Runs `body` and records what it did as a change set; with `rows`, every row but the
    /// expenses (a few hundred at most) is read before and after, and the difference is added.
    static func recording<T>(
        rows: Bool, at timestamp: Date, id: Int64? = nil, _ db: Database, _ body: (inout ChangeContent) throws -> T
    ) throws -> T {
        let before = rows ? try rowImages(db) : []
        var content = ChangeContent()
        let result = try body(&content)
        if rows { content.rows += RowDiff.changes(from: before, to: try rowImages(db)) }
        try record(ChangeSet(id: id ?? 0, when: timestamp, command: ChangeContext.command, content: content), explicitID: id != nil, db)
        return result
    }

    /// Saves a change set, unless it changed nothing, and prunes what is older than the ledger's
    /// history length (whole change sets, each holding all its undo needs).
    static func record(_ changeSet: ChangeSet, explicitID: Bool, _ db: Database) throws {
        guard !changeSet.content.isEmpty || changeSet.undoes != nil else { return }
        let at = Milliseconds.since1970(changeSet.when)
        try db.execute(
            sql: "DELETE FROM changeSet WHERE at < ? - (SELECT historyDays FROM setting WHERE id = 1) * 86400000", arguments: [at])
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
        return images + (try accountImages(db, kinds))
    }

    // MARK: - Reads

    public func changeSets(since: Date?, limit: Int?) throws(TallyError) -> [ChangeSetEntry] {
        try read { db in
            let history = History(try Self.headers(db))
            let from = since.map(Milliseconds.since1970) ?? Int64.min
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, at, command, summary, undoes FROM changeSet WHERE at >= ? ORDER BY id DESC LIMIT ?",
                arguments: [from, limit.map { Int64(max($0, 0)) } ?? -1])
            return rows.map { row in
                let changeSet = Self.header(row)
                return ChangeSetEntry(changeSet: changeSet, undone: history.isUndone(changeSet.id))
            }
        }
    }

    private static func headers(_ db: Database) throws -> [ChangeSet] {
        try Row.fetchAll(db, sql: "SELECT id, at, command, summary, undoes FROM changeSet ORDER BY id").map(header)
    }

    private static func header(_ row: Row) -> ChangeSet {
        ChangeSet(
            id: row[0], when: Milliseconds.date(row[1]), command: row[2], undoes: row[4], content: ChangeContent(), summary: row[3])
    }

    private static func changeSets(from id: Int64, _ db: Database) throws -> [ChangeSet] {
        try Row.fetchAll(db, sql: "SELECT id, at, command, summary, undoes, content FROM changeSet WHERE id >= ? ORDER BY id", arguments: [id])
            .map { row in
                var changeSet = header(row)
                changeSet.content = try ChangeContentCoding.decode(row[5])
                return changeSet
            }
    }

    // MARK: - Undo

    public func undo(_ id: Int64?, dryRun: Bool) throws(TallyError) -> UndoOutcome {
        let timestamp = now
        let body = { (db: Database) throws -> UndoOutcome in
            let history = History(try Self.headers(db))
            let targetID = try history.target(id)
            let sets = try Self.changeSets(from: targetID, db)
            guard let target = sets.first else { throw TallyError.changeSetNotFound(targetID) }
            try history.checkUnblocked(target, later: Array(sets.dropFirst()))
            let undo = target.undo(id: try Self.nextChangeSetID(db), when: timestamp, command: ChangeContext.command)
            if !dryRun {
                // Recorded first: what it removes in bulk is kept under its id.
                try Self.record(undo, explicitID: true, db)
                try Self.apply(undo.content, as: undo.id, undoing: target.id, db)
            }
            return UndoOutcome(undone: target, undo: undo, dryRun: dryRun)
        }
        return dryRun ? try read(body) : try write(body)
    }

    /// Applies a change forward: removes what it removes (dependents first), then saves what it
    /// saves under the rows' own ids (parents first). Bulk parts move whole between the ledger and
    /// the rows kept beside change sets (`Schema.v11RemovedRows`): what `id` removes in bulk is kept
    /// under `id`, and what it adds in bulk is what `target`, which removed it, kept.
    private static func apply(_ content: ChangeContent, as id: Int64, undoing target: Int64, _ db: Database) throws {
        let removed = content.rows.filter { $0.after == nil }.compactMap(\.before)
        for image in removed.sorted(by: { $0.dependencyRank > $1.dependencyRank }) where image.dependencyRank > 1 {
            try delete(image, db)
        }
        let kept = Set(content.expensesAfter.ids)
        let gone = content.expensesBefore.ids.filter { !kept.contains($0) }
        if !gone.isEmpty {
            let ids = jsonArray(gone)
            var removed = try ExpenseCaches(db)
            try removed.add(expenses: "\(ExpenseCaches.columns) FROM expense WHERE id IN (SELECT value FROM json_each(?))", bind: { $0.bind(1, ids) }, db)
            try db.execute(sql: "DELETE FROM expense WHERE id IN (SELECT value FROM json_each(?))", arguments: [ids])
            try removed.saveRemoved(db)
        }
        if let range = content.removedExpenses {
            try db.execute(
                sql: """
                    INSERT INTO removedExpense (changeSetId, \(ExpenseRecord.positionalColumns))
                    SELECT ?, \(ExpenseRecord.positionalColumns) FROM expense WHERE id BETWEEN ? AND ?
                    """, arguments: [id, range.first, range.last])
            var removed = try ExpenseCaches(db)
            try removed.add(expenses: "\(ExpenseCaches.columns) FROM removedExpense WHERE changeSetId = ?", bind: { $0.bind(1, id) }, db)
            try db.execute(sql: "DELETE FROM expense WHERE id BETWEEN ? AND ?", arguments: [range.first, range.last])
            try removed.saveRemoved(db)
        }
        for image in removed where image.dependencyRank == 1 {
            guard case .budget(let budget) = image else {
                try delete(image, db)
                continue
            }
            let used = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM expense WHERE budgetId = ?1) OR EXISTS (SELECT 1 FROM expense WHERE detail <> '' AND instr(char(30) || detail, char(30) || ?1 || char(29)) > 0) OR EXISTS (SELECT 1 FROM recurringRule WHERE budgetId = ?1)
                        OR EXISTS (SELECT 1 FROM importRule WHERE budgetId = ?1)
                        OR EXISTS (SELECT 1 FROM importRule WHERE detail <> '' AND instr(char(30) || detail, char(30) || ?1 || char(29)) > 0)
                    """, arguments: [budget.id]) ?? false
            if used { throw TallyError.undoNeedsBudget(target, budget: budget.name) }
            try db.execute(sql: "DELETE FROM budget WHERE id = ?", arguments: [budget.id])
        }
        let saved = content.rows.compactMap(\.after)
        for image in saved.sorted(by: { $0.dependencyRank < $1.dependencyRank }) where image.dependencyRank <= 1 { try put(image, db) }
        if content.addedExpenses != nil {
            var added = try ExpenseCaches(db)
            try added.add(expenses: "\(ExpenseCaches.columns) FROM removedExpense WHERE changeSetId = ?", bind: { $0.bind(1, target) }, db)
            try db.execute(
                sql: """
                    INSERT INTO expense (\(ExpenseRecord.positionalColumns))
                    SELECT \(ExpenseRecord.positionalColumns) FROM removedExpense WHERE changeSetId = ? ORDER BY id
                    """, arguments: [target])
            try added.saveAdded(db)
            try db.execute(sql: "DELETE FROM removedExpense WHERE changeSetId = ?", arguments: [target])
        }
        try put(try content.expensesAfter.expenses(), db)
        for image in saved.sorted(by: { $0.dependencyRank < $1.dependencyRank }) where image.dependencyRank > 1 { try put(image, db) }
        if let rates = content.rates { try applyRates(rates, db) }
        if let keys = content.rowKeys {
            if keys.removedBatch {
                try db.execute(
                    sql: "INSERT INTO removedImportedRow (changeSetId, key, batch) SELECT ?, key, batch FROM importedRow WHERE batch = ?",
                    arguments: [id, keys.batch])
                try db.execute(sql: "DELETE FROM importedRow WHERE batch = ?", arguments: [keys.batch])
            }
            if keys.added == nil {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO importedRow (key, batch) SELECT key, batch FROM removedImportedRow WHERE changeSetId = ?",
                    arguments: [target])
                try db.execute(sql: "DELETE FROM removedImportedRow WHERE changeSetId = ?", arguments: [target])
            }
            if !keys.removed.isEmpty {
                try db.execute(
                    sql: "DELETE FROM importedRow WHERE key IN (SELECT value FROM json_each(?))", arguments: [jsonArray(keys.removed)])
            }
            if let added = keys.added, !added.isEmpty {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO importedRow (key, batch) SELECT value, ? FROM json_each(?)",
                    arguments: [keys.batch, jsonArray(added)])
            }
        }
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
        }
    }

    /// Saves expenses under their own ids, inserting or updating, and moves their rows of the
    /// caches from what they were to what they are. One cached statement, and each name's key and
    /// each tag set's id worked out once: a record lookup and a record insert a row would make
    /// redoing an undone import slow.
    private static func put(_ expenses: [Expense], _ db: Database) throws {
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

extension RowImage {
    /// Parents before children: budgets and accounts before the rows that name them, payments last.
    var dependencyRank: Int {
        switch self {
        case .budget, .account: 1
        // The settings name the default account.
        case .settings, .recurringRule, .importRule, .profile, .importRecord, .income, .transfer, .balanceAssertion, .serveToken: 2
        case .recurringPayment: 3
        }
    }
}
