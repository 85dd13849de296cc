import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore
@testable import TallySQLite

/// Bulk writes (`ExpenseBatchWriter`: imports, `addExpenses`, `db copy`) run with the schema's
/// CHECKs off and trust Swift's validation instead. These tests hold that trust: whatever
/// `Expense.validated()` and `Budget.validated()` accept, the CHECKs accept too (one row at a
/// time, with them on), a bulk write leaves no row the CHECKs would refuse (`integrity_check`
/// reads every row against them), and the CHECKs are on again after a bulk write however it ends.
@Suite(.ownThreads) struct SchemaChecksTests {
    /// Pieces of text at the edges of what names, tags and people may hold.
    private static let pieces = [
        "a", "Bread", " ", "  ", "\t", "\u{A0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}", "\u{2028}", "\u{2029}", "\u{200B}",
        "e\u{301}", "é", "日本", "👩‍👩‍👧", "☕️", ";", ",", "'", "\"", "\\", "%", "_", "*", "[", "?", "-", "0", "\u{FEFF}",
    ]

    /// Mostly printable pieces, each of the others now and then.
    private func text(_ random: inout SeededGenerator) -> String {
        var text = Int.random(in: 0..<4, using: &random) == 0 ? "" : "Item"
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            text += Int.random(in: 0..<3, using: &random) == 0 ? Self.pieces.randomElement(using: &random) ?? "" : " word"
        }
        if Int.random(in: 0..<8, using: &random) == 0 {
            text += String(repeating: Self.pieces.randomElement(using: &random) ?? "x", count: Int.random(in: 40...260, using: &random))
        }
        return text
    }

    private func expense(_ random: inout SeededGenerator, budgetID: Int64) throws -> Expense {
        let maximum = Money.maximumInput.cents
        let cents = Int.random(in: 0..<4, using: &random) == 0
            ? [0, -1, 1, maximum - 1, maximum, maximum + 1].randomElement(using: &random) ?? 1 : Int64.random(in: 1...maximum, using: &random)
        let quantity = Int.random(in: 0..<4, using: &random) == 0
            ? [0, 1, Expense.maximumQuantity, Expense.maximumQuantity + 1].randomElement(using: &random) ?? 1 : Int64.random(in: 1...50, using: &random)
        let date = try Day(year: Int.random(in: 1...9999, using: &random), month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))
        let tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) }
        return Expense(
            name: text(&random), amount: Money(cents: cents), quantity: quantity, date: date, budgetID: budgetID, tags: tags,
            by: Int.random(in: 0..<3, using: &random) == 0 ? "" : text(&random))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func whatSwiftAcceptsTheChecksAcceptAndBulkWritesKeepThemTrue(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folder = try temporaryFolder()
        let oneByOne = try SQLiteStore(path: folder.appendingPathComponent("checked.sqlite").path)
        let bulk = try SQLiteStore(path: folder.appendingPathComponent("bulk.sqlite").path)
        let budget = try oneByOne.addBudget(Budget(name: "Food", limit: Money(cents: 100)))
        _ = try bulk.addBudget(Budget(name: "Food", limit: Money(cents: 100)))

        var accepted: [Expense] = []
        var refused = 0
        for _ in 0..<1_500 {
            let candidate = try expense(&random, budgetID: budget.id ?? 0)
            guard let valid = try? candidate.validated() else {
                refused += 1
                continue
            }
            // With the CHECKs on: a storage error here is a row Swift let through and SQLite would not.
            _ = try oneByOne.addExpense(valid)
            accepted.append(valid)
        }
        #expect(accepted.count >= 100 && refused >= 100, "the generator reaches both sides: \(accepted.count) accepted, \(refused) refused")
        #expect(try bulk.addExpenses(accepted) == accepted.count)

        // Budgets an import creates from the names in its rows.
        var names: [String] = []
        for _ in 0..<300 {
            let name = text(&random)
            guard let valid = try? Budget(name: name, limit: Money(cents: 1)).validated(), !names.contains(where: { NameKey.make($0) == NameKey.make(valid.name) })
            else { continue }
            _ = try oneByOne.addBudget(valid)
            names.append(valid.name)
        }
        #expect(names.count >= 20, "\(names.count) budget names accepted")
        let row = Expense(name: "Row", amount: Money(cents: 1), date: try Day(parsing: "2026-01-01"), budgetID: 0)
        let rows = names.map { (row, $0) }
        _ = try bulk.importExpenses(ImportRequest(source: "names.csv", missingBudgetLimit: Money(cents: 1))) { (insert: ImportInsert) throws(TallyError) -> String? in
            for (expense, name) in rows { try insert(expense, name) }
            return nil
        }
        // One budget for each name: names that differ only by a zero-width space are two.
        #expect(try bulk.budgets().count == names.count + 1)

        // `integrity_check` checks every row against the CHECKs.
        let bulkCheck = try bulk.pragma("integrity_check") ?? ""
        let oneCheck = try oneByOne.pragma("integrity_check") ?? ""
        #expect(bulkCheck == "ok")
        #expect(oneCheck == "ok")
        #expect(try bulk.cacheMismatches() == [])
    }

    /// A bulk write that succeeds, and one that fails half way, leave the CHECKs on.
    @Test func theChecksAreOnAgainAfterABulkWrite() throws {
        let store = try SQLiteStore(path: temporaryFolder().appendingPathComponent("tally.sqlite").path)
        let budget = try store.addBudget(Budget(name: "Food", limit: Money(cents: 100)))
        let id = budget.id ?? 0
        let bad = "INSERT INTO expense (budgetId, name, nameKey, amountCents, quantity, date, createdAt, updatedAt) VALUES (\(id), 'Free', 'free', 0, 1, 20260101, 0, 0)"
        let bread = Expense(name: "Bread", amount: Money(cents: 250), date: try Day(parsing: "2026-01-02"), budgetID: id)
        #expect(try store.addExpenses(Array(repeating: bread, count: 3_000)) == 3_000)
        #expect(throws: (any Error).self) { try store.executeUnchecked(bad) }

        expectError(.storage("the file ends here")) { () throws(TallyError) in
            try store.importExpenses(ImportRequest(source: "broken.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
                for _ in 0..<2_500 { try insert(bread, "Food") }
                throw .storage("the file ends here")
            }
        }
        #expect(try store.countExpenses(ExpenseQuery()) == 3_000)
        #expect(throws: (any Error).self) { try store.executeUnchecked(bad) }
        #expect(try store.pragma("ignore_check_constraints") == "0")
    }
}
