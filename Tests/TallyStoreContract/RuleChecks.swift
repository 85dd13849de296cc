import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Import rules

extension StoreContract {
    static func rulesAreAddedListedInImportOrderEditedAndRemoved(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Café", limit: money("40")))
        _ = try store.addBudget(Budget(name: "Groceries", limit: money("300")))

        let first = try store.addRule(ImportRule(pattern: "  coffee ", budget: "CAFE", tags: ["Daily", "daily"]))
        #expect(first.id != nil)
        #expect(first.budget == "Café")
        #expect(first.tags == ["daily"])
        let second = try store.addRule(ImportRule(pattern: "/^rewe/", budget: "groceries", rename: " REWE ", priority: 10))
        #expect(second.rename == "REWE")
        let third = try store.addRule(ImportRule(pattern: "market", budget: "Groceries", priority: 10))
        // Priority first, then id.
        #expect(try store.rules().map(\.id) == [second.id, third.id, first.id])
        #expect(try store.rules().first == second)

        var edited = first
        edited.priority = 5
        edited.budget = "groceries"
        edited.tags = []
        let saved = try store.updateRule(edited)
        #expect(saved.budget == "Groceries")
        #expect(try store.rules().map(\.id) == [first.id, second.id, third.id])
        #expect(try store.rules().first == saved)

        try store.removeRule(id: third.id ?? 0)
        #expect(try store.rules().map(\.id) == [first.id, second.id])
    }

    static func brokenRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("40")))
        let rule = try store.addRule(ImportRule(pattern: "bakery", budget: "Food"))

        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in try store.addRule(ImportRule(pattern: "x", budget: "Nowhere")) }
        expectError(.invalidRulePattern("", reason: "it is empty")) { () throws(TallyError) in
            try store.addRule(ImportRule(pattern: "", budget: "Food"))
        }
        expectError(.invalidRulePriority(-1)) { () throws(TallyError) in
            try store.addRule(ImportRule(pattern: "x", budget: "Food", priority: -1))
        }
        #expect(throws: TallyError.self) { try store.addRule(ImportRule(pattern: "/(a+)+$/", budget: "Food")) }
        expectError(.ruleNotFound(99)) { () throws(TallyError) in
            try store.updateRule(ImportRule(id: 99, pattern: "x", budget: "Food"))
        }
        var moved = rule
        moved.budget = "Nowhere"
        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in try store.updateRule(moved) }
        expectError(.ruleNotFound(99)) { () throws(TallyError) in try store.removeRule(id: 99) }
        #expect(try store.rules() == [rule])
    }

    static func aRenamedBudgetKeepsItsRulesAndARemovedOneTakesThem(_ stores: Stores) throws {
        let store = try stores.make()
        var food = try store.addBudget(Budget(name: "Food", limit: money("40")))
        _ = try store.addBudget(Budget(name: "Fun", limit: money("40")))
        _ = try store.addRule(ImportRule(pattern: "bakery", budget: "Food"))
        let cinema = try store.addRule(ImportRule(pattern: "cinema", budget: "Fun"))
        food.name = "Groceries"
        _ = try store.updateBudget(food)
        #expect(try store.rules().map(\.budget) == ["Groceries", "Fun"])
        try store.removeBudget(named: "Groceries", includingExpenses: false)
        #expect(try store.rules() == [cinema])
    }
}

// MARK: - Row keys

extension StoreContract {
    /// Feeds `rows` through `keys` as the import use case does: known rows are left out.
    static func feed(_ rows: [(Int64, Expense)], keys: ImportRowKeys, fingerprint: String) -> (ImportInsert) throws(TallyError) -> String? {
        { (insert: ImportInsert) throws(TallyError) -> String? in
            for (key, expense) in rows where keys.admit(key) { try insert(expense, "Food") }
            return fingerprint
        }
    }

    static func rowKeysAreRememberedOnlyByImportsThatCommit(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        let bread = Expense(name: "Bread", amount: try money("2.50"), date: try day("2026-03-01"), budgetID: 0)

        let first = ImportRowKeys()
        let outcome = try store.importExpenses(ImportRequest(source: "a.csv", rowKeys: first), rows: feed([(1, bread), (2, bread)], keys: first, fingerprint: "a"))
        #expect(outcome.importedCount == 2)
        #expect(try store.importedRowKeys() == [1, 2])

        // An overlapping file: the store hands its keys in before the rows are read.
        let second = ImportRowKeys()
        let overlap = try store.importExpenses(ImportRequest(source: "b.csv", rowKeys: second), rows: feed([(2, bread), (3, bread)], keys: second, fingerprint: "b"))
        #expect(overlap.importedCount == 1 && second.duplicateCount == 1)
        #expect(try store.importedRowKeys() == [1, 2, 3])

        // A rolled-back import remembers nothing.
        let failing = ImportRowKeys()
        #expect(throws: TallyError.unknownBudgets(["Nowhere"])) {
            try store.importExpenses(ImportRequest(source: "c.csv", rowKeys: failing)) { (insert: ImportInsert) throws(TallyError) -> String? in
                if failing.admit(4) { try insert(bread, "Food") }
                if failing.admit(5) { try insert(bread, "Nowhere") }
                return "c"
            }
        }
        #expect(try store.importedRowKeys() == [1, 2, 3])
        #expect(try store.countExpenses(ExpenseQuery()) == 3)

        // The same file again: every row already there, nothing new, no error.
        let again = ImportRowKeys()
        #expect(try store.importExpenses(ImportRequest(source: "a.csv", rowKeys: again), rows: feed([(1, bread), (2, bread)], keys: again, fingerprint: "a")).importedCount == 0)
        #expect(again.duplicateCount == 2)
        // A recorded file with rows the keys do not know was imported before rows had keys: refused whole.
        let old = ImportRowKeys()
        #expect(throws: TallyError.self) {
            try store.importExpenses(ImportRequest(source: "a.csv", rowKeys: old), rows: feed([(1, bread), (9, bread)], keys: old, fingerprint: "a"))
        }
        // Forced, known rows come in again and new keys are remembered.
        let forced = ImportRowKeys(admitsDuplicates: true)
        let all = try store.importExpenses(
            ImportRequest(source: "a.csv", force: true, rowKeys: forced), rows: feed([(1, bread), (9, bread)], keys: forced, fingerprint: "a"))
        #expect(all.importedCount == 2)
        #expect(try store.importedRowKeys() == [1, 2, 3, 9])
    }
}

// MARK: - Import profiles

extension StoreContract {
    static func profilesAreSavedByNameKeyListedAndRemoved(_ stores: Stores) throws {
        let store = try stores.make()
        let saved = try store.saveProfile(ImportProfile(
            name: " Sparkasse ", columns: "date=Buchungstag,name=Verwendungszweck,amount=Betrag", dateFormat: "dd.MM.yyyy",
            expenseSign: "negative", delimiter: ";", fallbackBudget: "Inbox", uncategorized: true, decimalComma: true, currency: "EUR",
            encoding: "latin1", skip: 6))
        #expect(saved.name == "Sparkasse" && saved.skip == 6)
        _ = try store.saveProfile(ImportProfile(name: "Amex"))
        #expect(try store.profiles() == [ImportProfile(name: "Amex"), saved])

        // Saving under the same name ignoring case and accents replaces it.
        let replaced = try store.saveProfile(ImportProfile(name: "SPARKASSE", expenseSign: "positive"))
        #expect(try store.profiles() == [ImportProfile(name: "Amex"), replaced])

        expectError(.emptyName(.profile)) { () throws(TallyError) in try store.saveProfile(ImportProfile(name: "  ")) }
        expectError(.profileNotFound("Nope")) { () throws(TallyError) in try store.removeProfile(named: "Nope") }
        try store.removeProfile(named: "sparkasse")
        #expect(try store.profiles() == [ImportProfile(name: "Amex")])
    }
}
