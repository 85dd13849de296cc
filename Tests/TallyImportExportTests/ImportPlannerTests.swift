import Testing
import TallyCore
@testable import TallyImportExport

struct ImportPlannerTests {
    private func plan(_ text: String, options: CSVImportOptions = CSVImportOptions(), chunkSize: Int = .max) throws(TallyError) -> ImportPlan {
        try ImportPlanner.plan(.bytes(Array(text.utf8), chunkSize: chunkSize), format: .csv, options: options, bufferSize: chunkSize == .max ? 1 << 20 : 16)
    }

    private func rows(_ plan: ImportPlan) throws(TallyError) -> [ImportedExpense] {
        var rows: [ImportedExpense] = []
        try ImportPlanner.forEachExpense(in: plan) { rows.append($0) }
        return rows
    }

    private static let defaultFile = [
        "date,budget,name,amount,quantity,tags",
        #"2024-01-02,Food,"Bread, rye",2.50,2,bakery;Weekly"#,
        "2024-01-03,food,Milk,1.20,,",
        #"2024-01-04,Transport,"Bus ""12""",3.00,1,"#,
        "",
        "2024-01-05,Café,Espresso,-4.00,,",
        "2024-01-06,cafe,Latte,0.00,,",
        "",
    ].joined(separator: "\n")

    @Test func defaultHeaderSummary() throws {
        let plan = try plan(Self.defaultFile)
        #expect(plan.summary.budgets == [.init(name: "Food", expenseCount: 2), .init(name: "Transport", expenseCount: 1)])
        #expect(plan.summary.skipped == [.blankLine: 1, .incoming: 1, .zeroAmount: 1])
        #expect(plan.summary.expenseCount == 3)
        #expect(plan.summary.budgetNames == ["Food", "Transport"])
        #expect(plan.summary.fingerprint.count == 64)
    }

    @Test func secondPassYieldsValidatedExpenses() throws {
        let rows = try rows(try plan(Self.defaultFile))
        #expect(rows.map(\.line) == [2, 3, 4])
        #expect(rows.map(\.budgetName) == ["Food", "food", "Transport"])
        let bread = try #require(rows.first).expense
        #expect(bread.name == "Bread, rye")
        #expect(bread.amount == Money(cents: 250))
        #expect(bread.quantity == 2)
        #expect(bread.date == (try Day(year: 2024, month: 1, day: 2)))
        #expect(bread.tags == ["bakery", "weekly"])
        #expect(rows[1].expense.quantity == 1)
        #expect(rows[2].expense.name == "Bus \"12\"")
    }

    @Test func smallChunksPlanTheSame() throws {
        let whole = try plan(Self.defaultFile)
        let pieces = try plan(Self.defaultFile, chunkSize: 3)
        #expect(whole.summary == pieces.summary)
        #expect(try rows(whole) == rows(pieces))
    }

    @Test func badRowInTheMiddleNamesLineColumnAndValue() {
        // Unknown columns such as `note` are ignored, but their line breaks still count.
        var text = "date,budget,name,amount,note\n"
        for day in 1...20 { text += "2024-01-\(day < 10 ? "0" : "")\(day),Food,Bread,1.00,\n" }
        text += "2024-01-21,Food,Jam,1.00,\"multi\nline\"\n2024-01-22,Food,Bread,12.5x,\n2024-01-23,Food,Bread,1.00,\n"
        #expect(throws: TallyError.importRow(line: 24, column: "amount", value: "12.5x", reason: "use an amount like 12.50, optionally signed, at most 1,000,000,000.00")) {
            try plan(text)
        }
    }

    @Test(arguments: [
        ("2024-01-02,Food,Bread,1.00,0,", "quantity", "0"),
        ("2024-01-02,Food,Bread,1.00,x,", "quantity", "x"),
        ("2024-02-30,Food,Bread,1.00,,", "date", "2024-02-30"),
        ("2024-01-02,Food,   ,1.00,,", "name", "   "),
        ("2024-01-02,Food,Bread,1.00,,a;b,c", "tags", "a;b,c"),
        ("2024-01-02,Food,Bread,1000000000.01,,", "amount", "1000000000.01"),
    ])
    func rowErrorsNameTheirColumn(row: String, column: String, value: String) {
        let text = "date,budget,name,amount,quantity,tags\n" + (row.hasSuffix("a;b,c") ? "2024-01-02,Food,Bread,1.00,,\"a;b,c\"" : row) + "\n"
        do {
            _ = try plan(text)
            Issue.record("no error for \(row)")
        } catch {
            guard case .importRow(let line, let errorColumn, let errorValue, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(line == 2)
            #expect(errorColumn == column)
            #expect(errorValue == value)
        }
    }

    @Test func rowWithTheWrongFieldCount() {
        #expect(throws: TallyError.importFile(line: 3, reason: "the row has 3 fields but the header has 4")) {
            try plan("date,budget,name,amount\n2024-01-02,Food,Bread,1.00\n2024-01-02,Food,Bread\n")
        }
    }

    @Test func syntaxErrorsBecomeImportFileErrors() {
        #expect(throws: TallyError.importFile(line: 2, reason: "a quoted field is not closed before the end of the file")) {
            try plan("date,budget,name,amount\n\"2024-01-02,Food,Bread,1.00\n")
        }
        #expect(throws: TallyError.importFile(line: nil, reason: "the file is empty; it needs at least a header line")) { try plan("") }
    }

    @Test func rowsWithoutABudgetFindOneThroughRulesThenTheFallbackOrFailTheFileCounted() throws {
        let text = "date,name,amount\n2024-01-02,Bread,1.00\n2024-01-03,Milk,2.00\n2024-01-04,Bakery bread,3.00\n2024-01-05,Tea,1.00\n"
        #expect(throws: TallyError.rowsWithoutBudget(count: 4, names: ["Bread", "Milk", "Bakery bread", "Tea"])) { try plan(text) }
        // An empty budget cell is no budget either.
        #expect(throws: TallyError.rowsWithoutBudget(count: 1, names: ["Bread"])) {
            try plan("date,budget,name,amount\n2024-01-02,Food,Milk,1.00\n2024-01-02, ,Bread,1.00\n")
        }
        let rules = [ImportRule(id: 1, pattern: "bread", budget: "Food", tags: ["daily"]), ImportRule(id: 2, pattern: "/^milk$/", budget: "Dairy")]
        #expect(throws: TallyError.rowsWithoutBudget(count: 1, names: ["Tea"])) { try plan(text, options: CSVImportOptions(rules: rules)) }

        let planned = try plan(text, options: CSVImportOptions(defaultBudget: " Inbox ", tagsFallbackUncategorized: true, rules: rules))
        #expect(planned.summary.budgets == [.init(name: "Dairy", expenseCount: 1), .init(name: "Food", expenseCount: 2), .init(name: "Inbox", expenseCount: 1)])
        #expect(planned.summary.assignments.byRule == [1: 2, 2: 1])
        #expect(planned.summary.assignments.uncategorized == 1)
        var tags: [String: [String]] = [:]
        try ImportPlanner.forEachExpense(in: planned) { (row: ImportedExpense) throws(TallyError) in tags[row.expense.name] = row.expense.tags }
        #expect(tags == ["Bread": ["daily"], "Milk": [], "Bakery bread": ["daily"], "Tea": ["uncategorized"]])
    }

    @Test func quotedNamesWithLineBreaksAndTabsFoldToOneLine() throws {
        let text = "date,budget,name,amount\n2024-01-02,Food,\"Bakery\r\n  Müller\tBerlin \",1.00\n2024-01-03,Food,Plain,1.00\n"
        let planned = try plan(text)
        #expect(planned.summary.assignments.foldedNames == 1)
        var names: [String] = []
        try ImportPlanner.forEachExpense(in: planned) { (row: ImportedExpense) throws(TallyError) in names.append(row.expense.name) }
        #expect(names == ["Bakery Müller Berlin", "Plain"])
    }

    @Test func bankExportWithColumnsDateFormatAndNegativeExpenses() throws {
        let text = "\u{FEFF}" + [
            "Buchungstag,Empfänger,Verwendungszweck,Betrag,Saldo",
            #"03.01.2024,REWE,"Einkauf, Filiale 12",-23.45,976.55"#,
            "04.01.2024,Arbeitgeber GmbH,Gehalt,+2500.00,3476.55",
            #"5.1.2024,Deutsche Bahn,"Ticket ""Sparpreis""",-49.90,3426.65"#,
            "06.01.2024,Bank,Info,0.00,3426.65",
            "07.01.2024,Tankstelle,Benzin,60.00-,3366.65",
            "",
        ].joined(separator: "\r\n")
        let options = CSVImportOptions(
            columns: try ColumnMapping(parsing: "date=buchungstag,name=Empfänger,amount=BETRAG"),
            dateFormat: try DateFormat(pattern: "d.M.yyyy"), defaultBudget: "Household", expenseSign: .negative)
        let planned = try plan(text, options: options)
        #expect(planned.summary.budgets == [.init(name: "Household", expenseCount: 3)])
        #expect(planned.summary.skipped == [.incoming: 1, .zeroAmount: 1])
        let rows = try rows(planned)
        #expect(rows.map(\.expense.name) == ["REWE", "Deutsche Bahn", "Tankstelle"])
        #expect(rows.map(\.expense.amount.cents) == [2345, 4990, 6000])
        #expect(rows.map(\.expense.date.isoString) == ["2024-01-03", "2024-01-05", "2024-01-07"])
        #expect(rows.map(\.line) == [2, 4, 6])
    }

    @Test func positiveSignSkipsNegativeRows() throws {
        let planned = try plan("date,budget,name,amount\n2024-01-02,Food,Refund,-5.00\n2024-01-02,Food,Bread,+5.00\n")
        #expect(planned.summary.skipped == [.incoming: 1])
        #expect(planned.summary.expenseCount == 1)
    }

    @Test func badDefaultBudgetIsAnOptionError() {
        #expect(throws: TallyError.invalidImportOption(.defaultBudget, value: "  ", reason: "budget name must not be empty")) {
            try plan("date,name,amount\n", options: CSVImportOptions(defaultBudget: "  "))
        }
    }

    @Test func changedFileFailsTheSecondPass() throws {
        let first = try plan("date,budget,name,amount\n2024-01-02,Food,Bread,1.00\n")
        let changed = ImportPlan(
            input: .bytes(Array("date,budget,name,amount\n2024-01-02,Food,Bread,1.00\n2024-01-02,Food,Jam,2.00\n".utf8)),
            format: .csv, options: first.options, summary: first.summary, document: nil, bufferSize: 1 << 20)
        #expect(throws: TallyError.importFile(line: nil, reason: "'input' changed while it was being imported")) {
            try ImportPlanner.forEachExpense(in: changed) { _ in }
        }
    }

    @Test func fingerprintIsStableAndContentSensitive() throws {
        let text = "date,budget,name,amount\n2024-01-02,Food,Bread,1.00\n"
        let first = try plan(text).summary
        #expect(try plan(text, chunkSize: 5).summary.fingerprint == first.fingerprint)
        #expect(try plan(text + "\n").summary.fingerprint != first.fingerprint)
        #expect(first.byteCount == UInt64(text.utf8.count))
        var hasher = Fingerprinter()
        hasher.update(Array(text.utf8))
        #expect(first.fingerprint == hasher.finalize())
    }

    @Test func formatFromExtension() {
        #expect(ImportFormat(path: "/tmp/Export.CSV") == .csv)
        #expect(ImportFormat(path: "backup.json") == .json)
        #expect(ImportFormat(path: "notes.txt") == nil)
    }
}

struct OnePassImportTests {
    @Test func yieldsTheSameRowsAndSummaryAsTwoPasses() throws {
        let text = "date,budget,name,amount,tags\n2024-01-02,Food,Bread,1.00,a;;b;\n2024-01-03,Fun,Film,-2.00,\n2024-01-04,food,Jam,3.00,\n"
        var streamed: [ImportedExpense] = []
        let onePass = try ImportPlanner.importInOnePass(.bytes(Array(text.utf8)), format: .csv) { streamed.append($0) }
        let twoPass = try ImportPlanner.plan(.bytes(Array(text.utf8)), format: .csv)
        var replayed: [ImportedExpense] = []
        try ImportPlanner.forEachExpense(in: twoPass) { replayed.append($0) }
        #expect(onePass.summary == twoPass.summary)
        #expect(streamed == replayed)
        #expect(streamed.first?.expense.tags == ["a", "b"])
        #expect(onePass.summary.budgets == [.init(name: "Food", expenseCount: 2)])
    }
}
