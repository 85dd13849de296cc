import Foundation
import TallyCore
import TallyImportExport
import TallyInMemory
import TallyStores
import TallyUseCases
import Testing

@Suite struct ImportExportUseCaseTests {
    static let csv = """
        date,budget,name,amount,quantity,tags
        2026-03-01,Food,Bread,2.50,,daily
        2026-03-02,food,Milk,1.20,2,daily
        2026-03-03,Fun,Cinema,12.00,1,night
        """

    func file(_ text: String, name: String = "in.csv") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("TallyUseCasesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func importResolvesNamesCreatesBudgetsAndRefusesARepeat() throws {
        let (ledger, store) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        let path = try file(Self.csv)
        #expect(throws: TallyError.unknownBudgets(["Fun"])) { try ImportFile(path: path, format: .csv).run(in: ledger) }
        #expect(try store.countExpenses(ExpenseQuery()) == 0)

        let preview = try ImportFile(path: path, format: .csv, missingBudgetLimit: money("50")).dryRun(in: ledger)
        #expect(preview.summary.expenseCount == 3 && preview.createdBudgets == ["Fun"])
        #expect(try store.budgets().map(\.name) == ["Food"], "a dry run writes nothing")

        var rows = 0
        let result = try ImportFile(path: path, format: .csv, missingBudgetLimit: money("50")).run(in: ledger) { rows += 1 }
        #expect(result.outcome.importedCount == 3 && result.outcome.createdBudgets == ["Fun"] && rows == 3)
        #expect(try ListBudgets(month: month("2026-03")).run(in: ledger).statuses.map(\.spent) == [try money("4.90"), try money("12")])

        do {
            _ = try ImportFile(path: path, format: .csv, missingBudgetLimit: money("50")).dryRun(in: ledger)
            Issue.record("a dry run of a repeated file must fail as the import would")
        } catch let error as TallyError {
            guard case .alreadyImported(_, _, let count) = error else { throw error }
            #expect(count == 3)
        }
        _ = try ImportFile(path: path, format: .csv, force: true).run(in: ledger)
        #expect(try store.countExpenses(ExpenseQuery()) == 6)
    }

    @Test func aFailingImportIntoANewLedgerCreatesNoDatabase() throws {
        let path = try absentDatabasePath()
        let ledger = Ledger(location: StoreLocation(path))
        #expect(throws: TallyError.unknownBudgets(["Food", "Fun"])) { try ImportFile(path: file(Self.csv), format: .csv).run(in: ledger) }
        let broken = try file("{\"budgets\": [}", name: "in.json")
        #expect(throws: (any Error).self) { try ImportFile(path: broken, format: .json).run(in: ledger) }
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try ImportFile(path: file(Self.csv), format: .csv, missingBudgetLimit: money("50")).run(in: ledger)
        #expect(FileManager.default.fileExists(atPath: path))
        ledger.close()
    }

    @Test func aJSONExportImportsIntoAnEmptyLedgerAndExportsIdentically() throws {
        let (ledger, _) = memoryLedger()
        _ = try AddBudget(name: "Food", limit: money("100")).run(in: ledger)
        _ = try AddBudget(name: "Empty", limit: money("5")).run(in: ledger)
        _ = try ImportFile(path: file(Self.csv), format: .csv, missingBudgetLimit: money("50")).run(in: ledger)
        for format in ImportFormat.allCases {
            let sink = MemorySink()
            #expect(try ExportLedger(format: format).run(in: ledger, to: sink) == 3)
            let (copy, copyStore) = memoryLedger()
            if format == .csv {
                for budget in ["Food", "Fun"] { _ = try AddBudget(name: budget, limit: money("1")).run(in: copy) }
            }
            _ = try ImportFile(path: file(sink.string, name: "export.\(format.rawValue)"), format: format).run(in: copy)
            let again = MemorySink()
            _ = try ExportLedger(format: format).run(in: copy, to: again)
            #expect(again.string == sink.string, "\(format)")
            if format == .json { #expect(try copyStore.budgets().map(\.name) == ["Empty", "Food", "Fun"]) }
        }
        let foodOnly = MemorySink()
        #expect(try ExportLedger(format: .csv, budget: "FOOD", month: month("2026-03")).run(in: ledger, to: foodOnly) == 2)
    }
}
