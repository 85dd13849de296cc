import Foundation
import TallyCore
import TallyImportExport
import TallyInMemory
import TallyStores
import TallyUseCases
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct ImportExportUseCaseTests {
    static let csv = """
        date,budget,name,amount,quantity,tags
        2026-03-01,Food,Bread,2.50,,daily
        2026-03-02,food,Milk,1.20,2,daily
        2026-03-03,Fun,Cinema,12.00,1,night
        """

    func file(_ text: String, name: String = "in.csv") throws -> String {
        let folder = temporaryRoot.appendingPathComponent("TallyUseCasesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func importResolvesNamesCreatesBudgetsAndImportsNothingNewOnARepeat() throws {
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

        // Every row is already there: nothing new, said as much.
        let again = try ImportFile(path: path, format: .csv).dryRun(in: ledger)
        #expect(again.duplicateCount == 3 && again.rows.map(\.outcome) == [.duplicate, .duplicate, .duplicate])
        let repeated = try ImportFile(path: path, format: .csv).run(in: ledger)
        #expect(repeated.outcome.importedCount == 0 && repeated.duplicateCount == 3)
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

    /// Tally's own CSV of a split, a refund and an expense in another currency, on the in-memory
    /// store: each split whole, the refund below zero, the file exported back unchanged.
    @Test func aCSVExportOfSplitsRefundsAndOtherCurrenciesImportsBackWhole() throws {
        let csv = """
            date,budget,name,amount,quantity,tags,by,account,to,id,line amount,share,line name,line tags,refund of,original,currency,rate,rate source,kind
            2026-03-08,Eating Out,Dinner,27.86,1,trip,,,,1,,,,,,4500,JPY,0.006190417234,table,expense
            2026-03-10,Groceries,Costco,120.00,1,bulk,,,,2,72.00,60%,,,,,,,,expense
            2026-03-10,Household,Costco,120.00,1,bulk,,,,2,48.00,rest,Pans,kitchen,,,,,,expense
            2026-03-12,Household,Returned pan,10.00,1,,,,,3,,,,,2,,,,,refund

            """
        let (ledger, store) = memoryLedger()
        for budget in ["Groceries", "Household", "Eating Out"] { _ = try AddBudget(name: budget, limit: money("100")).run(in: ledger) }
        let result = try ImportFile(path: file(csv), format: .csv).run(in: ledger)
        #expect(result.outcome.importedCount == 3)
        let expenses = try store.expenses(ExpenseQuery(sort: .date))
        #expect(expenses.map(\.lines.count) == [0, 2, 0])
        #expect(expenses[1].lines.map(\.name) == ["", "Pans"] && expenses[1].lines.map(\.tags) == [[], ["kitchen"]])
        #expect(expenses[2].isRefund && expenses[2].refundOf == expenses[1].id)
        let dinner = try money("27.86")
        #expect(expenses[0].foreign?.source == .table && expenses[0].amount == dinner)
        let spent = try ListBudgets(month: month("2026-03")).run(in: ledger).statuses.map(\.spent)
        #expect(spent == [try money("27.86"), try money("72"), try money("38")])
        let sink = MemorySink()
        _ = try ExportLedger(format: .csv).run(in: ledger, to: sink)
        #expect(sink.string == csv)
    }

    /// A budget's figures, without what a restore changes on purpose (ids, `updatedAt`).
    struct Figures: Equatable {
        var name: String, month: Month, days: DayInterval, limit: Money, carried: Money, available: Money
        var spent: Money, remaining: Money, expenseCount: Int

        init(_ status: BudgetStatus) {
            (name, month, days, limit) = (status.budget.name, status.month, status.days, status.limit)
            (carried, available, spent, remaining, expenseCount) =
                (status.carried, status.available, status.spent, status.remaining, status.expenseCount)
        }
    }

    /// A budget as a restore should give it back: the same in every field but its id and when it
    /// was last written.
    func comparable(_ budget: Budget) -> Budget {
        var budget = budget
        budget.id = nil
        budget.updatedAt = budget.createdAt
        return budget
    }

    @Test func aJSONBackupRestoresPeriodsRolloverCapsRangesLimitHistoryAndTheMonthStart() throws {
        // Created on 2025-06-10, in the pay-day year 2025; its first expense is in 2026.
        let created = Date(timeIntervalSince1970: 1_749_556_800.25)
        let store = InMemoryStore(clock: { created })
        let ledger = Ledger(store: store)
        let payDay = LedgerSettings(calendar: try PeriodCalendar(monthStart: 25))
        _ = try store.updateSettings(payDay)
        let holiday = try store.addBudget(Budget(
            name: "Holiday", limit: money("2000"), period: .yearly, rollover: .surplus, cap: money("3000"),
            limitChanges: [LimitChange(from: month("2026-01"), limit: money("1500"))]))
        let trip = try store.addBudget(Budget(
            name: "Trip", limit: money("900"), period: .once, range: DayInterval(first: day("2026-03-20"), last: day("2026-04-05"))))
        let food = try store.addBudget(Budget(name: "Food", limit: money("300"), rollover: .both, start: month("2026-01")))
        let rows: [(String, Budget, String, Int64, String)] = [
            ("Flights", holiday, "800", 1, "2026-02-01"), ("Museum", holiday, "40", 1, "2026-07-30"),
            ("Hotel", trip, "450", 1, "2026-03-25"), ("Train", trip, "60.50", 2, "2026-04-05"),
            ("Groceries", food, "420", 1, "2026-02-24"), ("Market", food, "80", 1, "2026-02-25"),
        ]
        // In date order, the order an import adds them in, so that their ids come back too.
        for (name, budget, amount, quantity, date) in rows.sorted(by: { $0.4 < $1.4 }) {
            _ = try store.addExpense(Expense(
                name: name, amount: money(amount), quantity: quantity, date: day(date), budgetID: budget.id ?? 0, tags: ["trip"]))
        }

        let backup = MemorySink()
        #expect(try ExportLedger(format: .json).run(in: ledger, to: backup) == 6)
        #expect(backup.string.contains(#""version": 2"#) && backup.string.contains(#""settings": {"monthStart": 25}"#))
        let (copy, copyStore) = memoryLedger()
        let result = try ImportFile(path: file(backup.string, name: "backup.json"), format: .json).run(in: copy)
        #expect(result.outcome.importedCount == 6 && result.outcome.createdBudgets == ["Food", "Holiday", "Trip"])

        #expect(try copyStore.settings() == payDay)
        #expect(try copyStore.budgets().map(comparable) == store.budgets().map(comparable))
        #expect(try copyStore.budget(named: "Holiday").limitChanges == [LimitChange(from: month("2026-01"), limit: money("1500"))])
        for text in ["2025-12", "2026-01", "2026-02", "2026-03", "2026-04", "2026-07", "2026-12", "2027-01"] {
            let figures = try ListBudgets(month: month(text)).run(in: ledger).statuses.map(Figures.init)
            #expect(try ListBudgets(month: month(text)).run(in: copy).statuses.map(Figures.init) == figures, "\(text)")
        }
        // Food's period 2026-01 ends on the 24th of February and overspent by 120, which 2026-02
        // carries; Holiday's year 2025 left all of its 2000 to 2026, whose 1500 it tops up to
        // the cap: the backup kept the budget's creation in 2025.
        let february = try ListBudgets(month: month("2026-02")).run(in: copy).statuses
        #expect(try february.map(\.available) == [money("180"), money("3000"), money("900")])
        #expect(try february.map(\.spent) == [money("80"), money("800"), money("571")])

        // And the copy's backup is the same file.
        let again = MemorySink()
        _ = try ExportLedger(format: .json).run(in: copy, to: again)
        #expect(again.string == backup.string)
    }

    /// A backup the previous version wrote: no settings, no creation times, plain budgets.
    @Test func aVersionOneBackupImportsAsBefore() throws {
        let now = Date(timeIntervalSince1970: 1_780_000_000.5)
        let store = InMemoryStore(clock: { now })
        let ledger = Ledger(store: store)
        let tenth = LedgerSettings(calendar: try PeriodCalendar(monthStart: 10))
        _ = try store.updateSettings(tenth)
        let document = """
            {
              "version": 1,
              "budgets": [
                {"name": "Food", "limit": "400.00", "period": "monthly"},
                {"name": "Empty", "limit": "5.00", "period": "monthly"}
              ],
              "expenses": [
                {"id": 1, "name": "Bread", "amount": "2.50", "quantity": 2, "total": "5.00", "date": "2026-03-09", "budget": "Food", "tags": ["daily"]},
                {"id": 2, "name": "Milk", "amount": "1.20", "quantity": 1, "total": "1.20", "date": "2026-03-10", "budget": "food", "tags": []}
              ]
            }

            """
        let result = try ImportFile(path: file(document, name: "old.json"), format: .json).run(in: ledger)
        #expect(result.outcome.importedCount == 2 && result.outcome.createdBudgets == ["Food", "Empty"])
        #expect(try store.settings() == tenth, "an old backup carries no settings: the ledger keeps its own")
        #expect(try store.budgets() == [
            Budget(id: 2, name: "Empty", limit: money("5"), createdAt: now),
            Budget(id: 1, name: "Food", limit: money("400"), createdAt: now),
        ])
        // Under the ledger's own month start: the 9th is in period 2026-02, the 10th in 2026-03.
        #expect(try ListBudgets(month: month("2026-03")).run(in: ledger).statuses.map(\.spent) == [.zero, money("1.20")])
    }

    @Test func aDryRunRefusesARowOutsideAOnceBudgetsRangeAsTheImportWould() throws {
        let (ledger, store) = memoryLedger()
        let range = DayInterval(first: try day("2026-07-01"), last: try day("2026-07-14"))
        _ = try AddBudget(Budget(name: "Trip", limit: money("900"), period: .once, range: range)).run(in: ledger)
        let path = try file("date,budget,name,amount\n2026-07-03,Trip,Hotel,80\n2026-07-20,trip,Souvenir,5\n")
        let refusal = TallyError.expenseOutsideRange(budget: "Trip", day: try day("2026-07-20"), range: range)
        #expect(throws: refusal) { try ImportFile(path: path, format: .csv).dryRun(in: ledger) }
        #expect(throws: refusal) { try ImportFile(path: path, format: .csv).run(in: ledger) }
        #expect(try store.countExpenses(ExpenseQuery()) == 0)
    }

    /// On the in-memory store too: accounts and their entries restore from a backup, which
    /// exports again byte for byte, and one undo takes the restore back whole.
    @Test func aBackupWithAccountsRestoresAndUndoesAsOneChange() throws {
        let (ledger, store) = memoryLedger()
        _ = try store.addAccount(Account(name: "Visa", kind: .credit, opening: money("300"), openingDate: day("2026-10-15")))
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: Money(cents: -2_050)))
        _ = try store.addIncome(Income(name: "Bonus", amount: money("100"), date: day("2026-11-20"), accountID: 0, tags: ["job"]), toAccountNamed: "checking")
        _ = try store.addIncome(Income(name: "Salary", amount: money("3200"), date: day("2026-11-02"), accountID: 0, by: "Anna"), toAccountNamed: "Checking")
        _ = try store.addTransfer(Transfer(amount: money("250.50"), date: day("2026-11-06"), from: 0, to: 0, name: "Card"), from: "Checking", to: "visa")
        #expect(try store.reconcile(accountNamed: "Visa", balance: money("49.50"), on: day("2026-11-30")).matches)
        let backup = MemorySink()
        _ = try ExportLedger(format: .json).run(in: ledger, to: backup)
        #expect(backup.string.contains(#""version": 7"#))

        let (copy, copyStore) = memoryLedger()
        _ = try ImportFile(path: file(backup.string, name: "backup.json"), format: .json).run(in: copy)
        let again = MemorySink()
        _ = try ExportLedger(format: .json).run(in: copy, to: again)
        #expect(again.string == backup.string)
        let book = try copyStore.accountBook()
        #expect(book.incomes.map(\.name) == ["Salary", "Bonus"] && book.incomes.map(\.id) == [1, 2])
        #expect(try book.balance(of: book.account(named: "visa"), through: day("2026-11-30")) == money("49.50"))
        _ = try copyStore.undo(nil, dryRun: false)
        #expect(try copyStore.accountBook().accounts.isEmpty && copyStore.accountBook().incomes.isEmpty)
    }
}
