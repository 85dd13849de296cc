import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

struct LedgerDocumentTests {
    private let epoch = Date(timeIntervalSince1970: 0)

    private func sampleExpenses() throws -> [(Expense, String)] {
        [
            (Expense(id: 1, name: "Bread \"rye\", sliced", amount: Money(cents: 250), quantity: 2, date: try Day(parsing: "2024-01-02"),
                budgetID: 1, tags: ["bakery", "weekly"], createdAt: epoch), "Food"),
            (Expense(id: 2, name: "Café\\au lait", amount: Money(cents: 120), date: try Day(parsing: "2024-01-03"), budgetID: 2, createdAt: epoch), "Fun"),
        ]
    }

    private func export(budgets: [Budget], expenses: [(Expense, String)]) throws -> MemorySink {
        let sink = MemorySink()
        let writer = JSONExportWriter(sink: sink)
        try writer.begin(budgets: budgets)
        for (expense, budget) in expenses { try writer.write(expense, budgetName: budget) }
        try writer.finish()
        return sink
    }

    @Test func streamingExportDecodesToTheSameDTOs() throws {
        let budgets = [Budget(id: 1, name: "Food", limit: Money(cents: 40000), createdAt: epoch), Budget(id: 2, name: "Fun", limit: Money(cents: 5000), createdAt: epoch)]
        let expenses = try sampleExpenses()
        let sink = try export(budgets: budgets, expenses: expenses)
        let document = try LedgerDocument.decode(Data(sink.bytes))
        #expect(document.version == 1)
        let created = "1970-01-01T00:00:00.000Z"
        #expect(document.budgets == [
            BudgetDTO(name: "Food", limit: "400.00", period: "monthly", created: created),
            BudgetDTO(name: "Fun", limit: "50.00", period: "monthly", created: created),
        ])
        #expect(document.expenses == (try expenses.map { try ExpenseDTO($0.0, budgetName: $0.1) }))
        #expect(document.expenses[0].total == "5.00")
        #expect(try document.validatedBudgets().map(\.name) == ["Food", "Fun"])
        let imported = try document.expenses.enumerated().map { try $0.element.importedExpense(index: $0.offset) }
        // The store assigns budget ids; the import carries budget names.
        #expect(imported.map(\.expense) == expenses.map { expense, _ in
            var draft = expense
            draft.budgetID = 0
            return draft
        })
        #expect(imported.map(\.budgetName) == ["Food", "Fun"])
    }

    @Test func exportLayout() throws {
        let sink = try export(budgets: [Budget(name: "Food", limit: Money(cents: 100), createdAt: epoch)], expenses: [try sampleExpenses()[0]])
        #expect(sink.string == """
            {
              "version": 1,
              "settings": {"monthStart": 1},
              "budgets": [
                {"name": "Food", "limit": "1.00", "period": "monthly", "created": "1970-01-01T00:00:00.000Z"}
              ],
              "expenses": [
                {"id": 1, "name": "Bread \\"rye\\", sliced", "amount": "2.50", "quantity": 2, "total": "5.00", "date": "2024-01-02", "budget": "Food", "tags": ["bakery", "weekly"]}
              ]
            }

            """)
    }

    @Test func emptyExportIsValid() throws {
        let sink = try export(budgets: [], expenses: [])
        #expect(try LedgerDocument.decode(Data(sink.bytes))
            == LedgerDocument(version: 1, settings: SettingsDTO(monthStart: 1), budgets: [], expenses: []))
    }

    @Test func encoderAndDecoderAgree() throws {
        let document = LedgerDocument(
            budgets: [BudgetDTO(name: "Food", limit: "1.00", period: "monthly")],
            expenses: [ExpenseDTO(id: nil, name: "x\u{1}", amount: "1.00", quantity: 1, total: "1.00", date: "2024-01-01", budget: "Food", tags: [])])
        #expect(try LedgerDocument.decode(try JSONEncoder().encode(document)) == document)
    }

    /// Version 12: a rule's split lines and refund mark, written only when a rule has one, read
    /// back into the same rule; a version-11 document's rules still read.
    @Test func splitAndRefundRulesMakeVersion12AndComeBack() throws {
        var split = ImportRule(pattern: "costco", budget: "")
        split.split = [NamedLine(budget: "Groceries", share: .percent(7_000), name: "Food", tags: ["bulk"]), NamedLine(budget: "Home", share: .rest)]
        var refund = ImportRule(pattern: "refund", budget: "Home")
        refund.refund = true
        let plain = ImportRule(pattern: "bakery", budget: "Groceries")
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings(), rules: [plain]) == 4)
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings(), rules: [plain, refund]) == 12)
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings(), rules: [split]) == 12)
        let document = LedgerDocument(version: 12, budgets: [], rules: [RuleDTO(split), RuleDTO(refund), RuleDTO(plain)], expenses: [])
        let decoded = try LedgerDocument.decode(try JSONEncoder().encode(document))
        let rules = try decoded.validatedRules()
        #expect(rules.map(\.split) == [try split.validated().split, [], []])
        #expect(rules.map(\.refund) == [false, true, false])
        #expect(rules.first?.budget == "Groceries")
        let text = String(decoding: try JSONEncoder().encode(RuleDTO(plain)), as: UTF8.self)
        #expect(!text.contains("split") && !text.contains("refund"))
        let old = #"{"version": 11, "budgets": [], "rules": [{"pattern": "x", "budget": "Food", "tags": [], "priority": 100}], "expenses": []}"#
        #expect(try LedgerDocument.decode(Data(old.utf8)).validatedRules().map(\.refund) == [false])
        let broken = #"{"version": 12, "budgets": [], "rules": [{"pattern": "x", "tags": [], "priority": 100, "refund": true, "split": [{"budget": "A", "share": "rest"}, {"budget": "B", "share": "rest"}]}], "expenses": []}"#
        #expect(throws: TallyError.self) { try LedgerDocument.decode(Data(broken.utf8)).validatedRules() }
    }

    @Test func rejectsUnknownVersionsAndNonDocuments() {
        #expect(throws: TallyError.importFile(line: nil, reason: "unsupported document version 14; this Tally reads versions 1 to 13")) {
            try LedgerDocument.decode(Data(#"{"version": 14, "budgets": [], "expenses": []}"#.utf8))
        }
        #expect(throws: TallyError.importFile(line: nil, reason: "not a Tally JSON document: it has no \"version\"")) {
            try LedgerDocument.decode(Data("{}".utf8))
        }
        #expect(throws: TallyError.importFile(line: nil, reason: "not a Tally JSON document: missing expenses")) {
            try LedgerDocument.decode(Data(#"{"version": 1, "budgets": []}"#.utf8))
        }
        #expect(throws: TallyError.self) { try LedgerDocument.decode(Data("not json".utf8)) }
    }

    @Test func invalidEntriesNameTheirPlace() {
        let dto = ExpenseDTO(id: 3, name: "Bread", amount: "2.50", quantity: 2, total: "4.00", date: "2024-01-02", budget: "Food", tags: [])
        #expect(throws: TallyError.importFile(line: nil, reason: "expenses[4].total '4.00': is not amount × quantity (5.00)")) {
            try dto.importedExpense(index: 4)
        }
        var bad = dto
        bad.date = "02.01.2024"
        #expect(throws: TallyError.self) { try bad.importedExpense(index: 0) }
        #expect(throws: TallyError.self) { try BudgetDTO(name: "Food", limit: "0.00", period: "monthly").budget(index: 0) }
        #expect(throws: TallyError.self) { try BudgetDTO(name: "Food", limit: "1.00", period: "weekly").budget(index: 0) }
    }

    /// Version 8 carries a budget's target; an older reader would drop it, so only a ledger
    /// with a target writes 8, and older documents read as before (no target).
    @Test func budgetTargetsMakeVersion8AndComeBack() throws {
        let holiday = Budget(
            id: 1, name: "Holiday", limit: Money(cents: 10_000), rollover: .surplus, start: try Month(parsing: "2026-07"),
            target: BudgetTarget(amount: Money(cents: 120_000), by: try Month(parsing: "2027-06")), createdAt: epoch)
        let car = Budget(id: 2, name: "Car", limit: Money(cents: 10_000), target: BudgetTarget(amount: Money(cents: 15_000)), createdAt: epoch)
        let document = try LedgerDocument.decode(Data(try export(budgets: [holiday, car], expenses: []).bytes))
        #expect(document.version == 8)
        #expect(document.budgets.map(\.target) == ["1200.00", "150.00"])
        #expect(document.budgets.map(\.targetBy) == ["2027-06", nil])
        #expect(try document.validatedBudgets().map(\.target) == [holiday.target, car.target])
        var plain = car
        plain.target = nil
        #expect(try LedgerDocument.decode(Data(try export(budgets: [plain], expenses: []).bytes)).version == 1)

        let noTarget = BudgetDTO(name: "Car", limit: "100.00", period: "monthly", targetBy: "2027-01")
        #expect(throws: TallyError.importFile(
            line: nil, reason: "budgets[0].targetBy '2027-01': a budget without \"target\" has no target to date or place")) { try noTarget.budget(index: 0) }
        let unknownAccount = BudgetDTO(name: "Car", limit: "100.00", period: "monthly", target: "150.00", targetAccount: "Savings")
        #expect(throws: TallyError.importFile(line: nil, reason: "budgets[0].targetAccount 'Savings': the document has no account of that name")) {
            try unknownAccount.budget(index: 0)
        }
        let zero = BudgetDTO(name: "Car", limit: "100.00", period: "monthly", target: "0.00")
        #expect(throws: TallyError.importFile(line: nil, reason: "budgets[0].target '0.00': budget target 0.00 must be greater than 0")) {
            try zero.budget(index: 0)
        }
    }

    @Test func jsonImportPlan() throws {
        let sink = try export(budgets: [Budget(name: "Food", limit: Money(cents: 100), createdAt: epoch)], expenses: try sampleExpenses())
        let plan = try ImportPlanner.plan(.bytes(sink.bytes), format: .json)
        #expect(plan.summary.budgets == [.init(name: "Food", expenseCount: 1), .init(name: "Fun", expenseCount: 1)])
        #expect(plan.summary.declaredBudgets.map(\.name) == ["Food"])
        var names: [String] = []
        try ImportPlanner.forEachExpense(in: plan) { names.append($0.expense.name) }
        #expect(names == ["Bread \"rye\", sliced", "Café\\au lait"])
    }
}
