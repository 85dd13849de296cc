import Foundation
import GRDB
import TallyCore

// Import rules and row keys (`Schema.v7`), each method one transaction. Rules point at their budget by id,
// so a renamed budget keeps its rules; reads answer the budget's current name.
extension SQLiteStore {
    /// Saves a validated profile inside the caller's transaction, replacing one of the same name key.
    static func save(_ profile: ImportProfile, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO importProfile (
                    name, nameKey, columns, dateFormat, expenseSign, delimiter, fallbackBudget, uncategorized, decimalComma, currency, encoding,
                    skip)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (nameKey) DO UPDATE SET name = excluded.name, columns = excluded.columns,
                    dateFormat = excluded.dateFormat, expenseSign = excluded.expenseSign, delimiter = excluded.delimiter,
                    fallbackBudget = excluded.fallbackBudget, uncategorized = excluded.uncategorized,
                    decimalComma = excluded.decimalComma, currency = excluded.currency, encoding = excluded.encoding,
                    skip = excluded.skip
                """,
            arguments: [
                profile.name, profile.nameKey, profile.columns, profile.dateFormat, profile.expenseSign, profile.delimiter,
                profile.fallbackBudget, profile.uncategorized, profile.decimalComma, profile.currency, profile.encoding,
                profile.skip,
            ])
    }

    /// Every profile by name key, inside the caller's transaction.
    static func profiles(_ db: Database) throws -> [ImportProfile] {
        try Row.fetchAll(db, sql: "SELECT * FROM importProfile ORDER BY nameKey").map { row in
            ImportProfile(
                name: row["name"], columns: row["columns"], dateFormat: row["dateFormat"], expenseSign: row["expenseSign"],
                delimiter: row["delimiter"], fallbackBudget: row["fallbackBudget"], uncategorized: row["uncategorized"],
                decimalComma: row["decimalComma"], currency: row["currency"], encoding: row["encoding"],
                skip: row["skip"])
        }
    }

    /// Saves a validated rule for budget `budgetID` (a transfer rule for its account) inside the
    /// caller's transaction.
    static func insert(_ rule: ImportRule, budgetID: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO importRule (pattern, budgetId, tags, rename, priority, transferAccountId, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                rule.pattern, rule.transferAccountID == nil ? budgetID : nil, rule.tags.joined(separator: ";"), rule.rename, rule.priority,
                rule.transferAccountID, rule.storedDetail,
            ])
    }

    /// Every rule in import order, inside the caller's transaction.
    static func rules(_ db: Database) throws -> [ImportRule] {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT importRule.id, pattern, budget.name, tags, rename, priority, account.id, account.name, detail
            FROM importRule LEFT JOIN budget ON budget.id = importRule.budgetId LEFT JOIN account ON account.id = importRule.transferAccountId
            ORDER BY priority, importRule.id
            """)
        var rules: [ImportRule] = []
        var budgetNames: [Int64: String]?
        while let row = try rows.next() {
            let tags: String = row[3]
            var rule = ImportRule(
                id: row[0], pattern: row[1], budget: row[2] ?? "", tags: tags.isEmpty ? [] : tags.split(separator: ";").map(String.init),
                rename: row[4], priority: row[5], transferTo: row[7])
            rule.transferAccountID = row[6]
            try rule.restoreDetail(row[8])
            if !rule.split.isEmpty {
                if budgetNames == nil { budgetNames = Dictionary(try allBudgets(db).map { ($0.id ?? 0, $0.name) }, uniquingKeysWith: { first, _ in first }) }
                for (index, id) in rule.splitBudgetIDs.enumerated() { rule.split[index].budget = budgetNames?[id] ?? "" }
            }
            rules.append(rule)
        }
        return rules
    }
}
