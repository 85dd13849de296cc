import Foundation
import GRDB
import TallyCore

// Recurring rules and their paid occurrences (`Schema.v6`). The schedule and the matching are
// Core's (`RecurringSchedule`); this file reads what they need and saves what they decide.
extension SQLiteStore {
    // MARK: - Recurring Helpers

    /// A backup's rules, with their paid occurrences, into a ledger that has none; inside the
    /// import's transaction.
    static func restoreRecurringRules(_ declared: [DeclaredRecurringRule], timestamp: Int64, _ db: Database) throws {
        guard !declared.isEmpty else { return }
        let hasRules = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recurringRule)") ?? false
        guard DeclaredRecurringRule.restores(ledgerHasRules: hasRules) else { return }
        for entry in declared {
            var rule = try entry.rule.validated()
            rule.budgetID = try find(entry.budgetName, db).id ?? 0
            rule = try insert(rule, timestamp: timestamp, db)
            for payment in entry.payments(ruleID: rule.id ?? 0) {
                try db.execute(
                    sql: "INSERT INTO recurringPayment (ruleId, date, expenseId, kind) VALUES (?, ?, NULL, ?)",
                    arguments: [payment.ruleID, payment.date.storedNumber, payment.kind.rawValue])
            }
        }
    }

    /// Saves a validated rule with its skips under a new id.
    static func insert(_ rule: RecurringRule, timestamp: Int64, _ db: Database) throws -> RecurringRule {
        try db.execute(
            sql: """
                INSERT INTO recurringRule (budgetId, name, amountCents, quantity, tags, every, interval, day,
                    startDate, untilDate, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: ruleColumns(rule) + StatementArguments([timestamp, timestamp]))
        var saved = rule
        saved.id = db.lastInsertedRowID
        try saveSkips(of: saved, db)
        return saved
    }

    /// Saves a rule with its skips under its own id (an undo putting it back), inserting or updating.
    static func put(_ rule: RecurringRule, _ db: Database) throws {
        let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recurringRule WHERE id = ?)", arguments: [rule.id]) ?? false
        let timestamp = Milliseconds.since1970(Date())
        if exists {
            try db.execute(
                sql: """
                    UPDATE recurringRule SET budgetId = ?, name = ?, amountCents = ?, quantity = ?, tags = ?, every = ?,
                        interval = ?, day = ?, startDate = ?, untilDate = ?, updatedAt = ?
                    WHERE id = ?
                    """,
                arguments: ruleColumns(rule) + StatementArguments([timestamp, rule.id]))
        } else {
            try db.execute(
                sql: """
                    INSERT INTO recurringRule (budgetId, name, amountCents, quantity, tags, every, interval, day,
                        startDate, untilDate, createdAt, updatedAt, id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: ruleColumns(rule) + StatementArguments([timestamp, timestamp, rule.id]))
        }
        try saveSkips(of: rule, db)
    }

    private static func ruleColumns(_ rule: RecurringRule) -> StatementArguments {
        let values: [(any DatabaseValueConvertible)?] = [
            rule.budgetID, rule.name, rule.amount.cents, rule.quantity, rule.tags.joined(separator: ";"), rule.every.rawValue,
            rule.interval, rule.day, rule.start.storedNumber, rule.until?.storedNumber,
        ]
        return StatementArguments(values)
    }

    private static func saveSkips(of rule: RecurringRule, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM recurringSkip WHERE ruleId = ?", arguments: [rule.id])
        for day in rule.skips {
            try db.execute(sql: "INSERT INTO recurringSkip (ruleId, date) VALUES (?, ?)", arguments: [rule.id, day.storedNumber])
        }
    }

    static func allRules(_ db: Database) throws -> [RecurringRule] {
        try rules(db, where: "", arguments: [])
    }

    private static func rules(_ db: Database, where filter: String, arguments: StatementArguments) throws -> [RecurringRule] {
        var skips: [Int64: [Day]] = [:]
        let skipRows = try Row.fetchCursor(db, sql: "SELECT ruleId, date FROM recurringSkip ORDER BY ruleId, date")
        while let row = try skipRows.next() { skips[row[0], default: []].append(try day(row[1], "a skipped occurrence")) }
        var rules: [RecurringRule] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM recurringRule \(filter) ORDER BY id", arguments: arguments)
        while let row = try rows.next() {
            let id: Int64 = row["id"]
            guard let every = RecurringFrequency(rawValue: row["every"]) else {
                throw TallyError.storage("recurring rule #\(id) repeats every \(String(describing: row["every"] as String?))")
            }
            let tags: String = row["tags"]
            let until: Int64? = row["untilDate"]
            rules.append(
                RecurringRule(
                    id: id, name: row["name"], budgetID: row["budgetId"], amount: Money(cents: row["amountCents"]),
                    quantity: row["quantity"], tags: TagSetKey.tags(tags), every: every, interval: row["interval"], day: row["day"],
                    start: try day(row["startDate"], "a rule's start"), until: try until.map { try day($0, "a rule's end") },
                    skips: skips[id] ?? []))
        }
        return rules
    }

    static func allPayments(_ db: Database) throws -> [RecurringPayment] {
        var payments: [RecurringPayment] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT ruleId, date, expenseId, kind FROM recurringPayment ORDER BY ruleId, date")
        while let row = try rows.next() {
            let kindText: String = row[3]
            guard let kind = RecurringPayment.Kind(rawValue: kindText) else { throw TallyError.storage("a payment of kind \(kindText)") }
            payments.append(RecurringPayment(ruleID: row[0], date: try day(row[1], "a paid occurrence"), expenseID: row[2], kind: kind))
        }
        return payments
    }

    /// The day stored as `number`; a storage error naming `what` when it is not one.
    static func day(_ number: Int64, _ what: String) throws -> Day {
        guard let day = Day(storedNumber: number) else { throw TallyError.storage("\(what) has an invalid date \(number)") }
        return day
    }
}
