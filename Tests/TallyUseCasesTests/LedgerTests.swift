import Foundation
import TallyCore
import TallyStores
import TallyUseCases
import TallyTestSupport
import Testing

/// A ledger that does not exist yet is built beside its path and appears there only when the
/// use case succeeds.
@Suite(.ownThreads) struct LedgerTests {
    @Test func aFailingUseCaseLeavesNoFileAtAllInTheFolder() throws {
        let path = try absentDatabasePath()
        let folder = (path as NSString).deletingLastPathComponent
        let ledger = Ledger(location: StoreLocation(path))
        #expect(throws: TallyError.budgetNotFound("Food")) {
            try AddExpense(Expense(name: "Bread", amount: money("2"), date: day("2026-03-01"), budgetID: 0), budget: "Food").run(in: ledger)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aSucceedingUseCasePublishesTheWholeLedgerAndNothingElse() throws {
        let path = try absentDatabasePath()
        let folder = (path as NSString).deletingLastPathComponent
        let ledger = Ledger(location: StoreLocation(path))
        _ = try AddBudget(name: "Food", limit: money("10")).run(in: ledger)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tally.sqlite"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let reopened = Ledger(location: StoreLocation(path))
        #expect(try ListBudgets(month: month("2026-03")).run(in: reopened).statuses.map(\.budget.name) == ["Food"])
        reopened.close()
    }

    @Test func whenAnotherProcessCreatesTheLedgerMeanwhileTheUseCaseRunsAgainThere() throws {
        let path = try absentDatabasePath()
        let ledger = Ledger(location: StoreLocation(path))
        var runs = 0
        let names = try ledger.perform { (store: any DataAccess) throws(TallyError) -> [String] in
            runs += 1
            if runs == 1 {
                // Another process creates the ledger while this one works on its staged copy.
                let other = Ledger(location: StoreLocation(path))
                _ = try AddBudget(name: "Theirs", limit: Money(cents: 100)).run(in: other)
                other.close()
            }
            _ = try store.addBudget(Budget(name: "Mine", limit: Money(cents: 100)))
            return try store.budgets().map(\.name)
        }
        #expect(runs == 2)
        #expect(names == ["Mine", "Theirs"])
        ledger.close()
    }
}
