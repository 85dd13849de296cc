import Foundation
import TallyCore
import TallyImportExport
import TallyInMemory
import TallyStores
import TallyUseCases
import TallyTestSupport
import Testing

/// The whole import-with-rules path, on an in-memory ledger and on an SQLite file.
@Suite(.ownThreads) struct RuleUseCaseTests {
    enum Kind: String, CaseIterable { case memory, sqlite }

    func ledger(_ kind: Kind) throws -> Ledger {
        switch kind {
        case .memory: Ledger(store: InMemoryStore())
        case .sqlite: Ledger(location: StoreLocation(try absentDatabasePath()))
        }
    }

    func file(_ text: String) throws -> String {
        let folder = temporaryRoot.appendingPathComponent("TallyRuleTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("bank.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A bank export: no budget column, negative expenses, one salary, a name with a line break.
    static let bank = """
        Date,Description,Amount
        2026-03-01,REWE 0451 Berlin,-45.99
        2026-03-02,"Café Crème
        Bar",-3.20
        2026-03-02,Salary,2500.00
        2026-03-03,CAFE AU LAIT,-2.80
        2026-03-04,Kiosk,-1.50
        2026-03-05,Unknown shop,-9.99
        """

    static var bankOptions: CSVImportOptions {
        get throws { CSVImportOptions(columns: try ColumnMapping(parsing: "date=Date,name=Description,amount=Amount"), expenseSign: .negative) }
    }

    func setUp(_ ledger: Ledger) throws {
        for name in ["Groceries", "Coffee", "Inbox", "Treats"] { _ = try AddBudget(name: name, limit: money("500")).run(in: ledger) }
        _ = try AddRule(ImportRule(pattern: "/^rewe\\s+\\d+/", budget: "groceries", rename: "REWE")).run(in: ledger)
        _ = try AddRule(ImportRule(pattern: "cafe", budget: "Coffee", tags: ["daily"])).run(in: ledger)
        // Same pattern, lower priority number: tried first.
        _ = try AddRule(ImportRule(pattern: "café crème", budget: "Treats", priority: 50)).run(in: ledger)
    }

    @Test(arguments: Kind.allCases)
    func rulesDecideThenTheFallbackAndEveryRowIsCounted(kind: Kind) throws {
        let ledger = try ledger(kind)
        try setUp(ledger)
        var options = try Self.bankOptions
        options.defaultBudget = "Inbox"
        let result = try ImportFile(path: file(Self.bank), format: .csv, options: options).run(in: ledger)
        #expect(result.outcome.importedCount == 5)
        #expect(result.skipped == [.incoming: 1])
        #expect(result.assignments.byRule == [1: 1, 2: 1, 3: 1])
        #expect(result.assignments.fallback == 2)
        #expect(result.assignments.foldedNames == 1)

        let expenses = try ListExpenses().run(in: ledger)
        let byName = Dictionary(uniqueKeysWithValues: expenses.expenses.map { ($0.name, $0) })
        let names = expenses.budgetNames
        #expect(names[byName["REWE"]?.budgetID ?? 0] == "Groceries")
        #expect(names[byName["Café Crème Bar"]?.budgetID ?? 0] == "Treats", "priority 50 beats 100")
        #expect(byName["Café Crème Bar"]?.tags == [])
        #expect(names[byName["CAFE AU LAIT"]?.budgetID ?? 0] == "Coffee", "accents and case are ignored")
        #expect(byName["CAFE AU LAIT"]?.tags == ["daily"])
        #expect(names[byName["Kiosk"]?.budgetID ?? 0] == "Inbox")
    }

    @Test(arguments: Kind.allCases)
    func uncategorizedRowsAreTaggedAndWithoutAFallbackNothingIsImported(kind: Kind) throws {
        let ledger = try ledger(kind)
        try setUp(ledger)
        let path = try file(Self.bank)
        #expect(throws: TallyError.rowsWithoutBudget(count: 2, names: ["Kiosk", "Unknown shop"])) {
            try ImportFile(path: path, format: .csv, options: try Self.bankOptions).run(in: ledger)
        }
        #expect(try ListExpenses().run(in: ledger).expenses.isEmpty, "all or nothing")
        #expect(throws: TallyError.rowsWithoutBudget(count: 2, names: ["Kiosk", "Unknown shop"])) {
            try ImportFile(path: path, format: .csv, options: try Self.bankOptions).dryRun(in: ledger)
        }

        var options = try Self.bankOptions
        options.defaultBudget = "inbox"
        options.tagsFallbackUncategorized = true
        let result = try ImportFile(path: path, format: .csv, options: options).run(in: ledger)
        #expect(result.assignments.uncategorized == 2 && result.assignments.fallback == 0)
        let inbox = try ListExpenses(tag: "uncategorized").run(in: ledger).expenses
        #expect(inbox.map(\.name).sorted() == ["Kiosk", "Unknown shop"])
    }

    @Test(arguments: Kind.allCases)
    func rulesAreEditedTestedAndRemoved(kind: Kind) throws {
        let ledger = try ledger(kind)
        try setUp(ledger)
        #expect(try TestRules(text: "Café crème à emporter").run(in: ledger)?.id == 3)
        #expect(try TestRules(text: "tea").run(in: ledger) == nil)
        let (before, after) = try EditRule(id: 3, priority: 200).run(in: ledger)
        #expect(before.priority == 50 && after.priority == 200)
        #expect(try TestRules(text: "Café crème à emporter").run(in: ledger)?.id == 2)
        _ = try EditRule(id: 2, rename: .some("Coffee"), priority: 1).run(in: ledger)
        #expect(try ListRules().run(in: ledger).first?.rename == "Coffee")
        _ = try EditRule(id: 2, rename: .some(nil)).run(in: ledger)
        #expect(try ListRules().run(in: ledger).first?.rename == nil)
        #expect(throws: TallyError.ruleNotFound(9)) { try EditRule(id: 9, priority: 1).run(in: ledger) }
        #expect(throws: TallyError.budgetNotFound("Nowhere")) { try EditRule(id: 2, budget: "Nowhere").run(in: ledger) }
        try RemoveRule(id: 2).run(in: ledger)
        #expect(try ListRules().run(in: ledger).map(\.id) == [1, 3])
        #expect(throws: TallyError.ruleNotFound(2)) { try RemoveRule(id: 2).run(in: ledger) }
    }

    @Test(arguments: Kind.allCases)
    func suggestionsComeFromNamesThatAlwaysWentToOneBudget(kind: Kind) throws {
        let ledger = try ledger(kind)
        for name in ["Groceries", "Transport"] { _ = try AddBudget(name: name, limit: money("500")).run(in: ledger) }
        let history: [(String, String)] = [
            ("SPAR 0412 12/03", "Groceries"), ("Spar 0977 01/04", "Groceries"), ("SPAR 1200 **** 4411", "Groceries"),
            ("BVG Ticket 2026-03-01", "Transport"), ("BVG Ticket 2026-03-08", "Transport"), ("BVG Ticket 2026-03-15", "Transport"),
            ("Kiosk 1", "Groceries"), ("Kiosk 2", "Transport"), ("Kiosk 3", "Groceries"), ("Kiosk 4", "Groceries"),
            ("Bakery", "Groceries"), ("Bakery", "Groceries"),
        ]
        for (name, budget) in history {
            _ = try AddExpense(Expense(name: name, amount: money("1"), date: day("2026-03-01"), budgetID: 0), budget: budget).run(in: ledger)
        }
        let suggestions = try SuggestRules().run(in: ledger)
        #expect(suggestions.map(\.pattern) == ["bvg ticket", "spar"])
        #expect(suggestions.map(\.budget) == ["Transport", "Groceries"])
        #expect(try SuggestRules(minimum: 2).run(in: ledger).map(\.pattern) == ["bvg ticket", "spar", "bakery"])
        // A name a rule already sends somewhere is not proposed again.
        _ = try AddRule(ImportRule(pattern: "bvg", budget: "Transport")).run(in: ledger)
        #expect(try SuggestRules().run(in: ledger).map(\.pattern) == ["spar"])
    }
}
