import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore
import TallyInMemory
@testable import TallySQLite

@Suite(.ownThreads) struct SchemaFixtureTests {
    @Test(arguments: ["schema-v1.sqlite", "schema-v2.sqlite", "schema-v3.sqlite", "schema-v4.sqlite", "schema-v5.sqlite", "schema-v7.sqlite", "schema-v9.sqlite", "schema-v10.sqlite", "schema-v11.sqlite", "schema-v12.sqlite", "schema-v13.sqlite", "schema-v14.sqlite", "schema-v15.sqlite", "schema-v16.sqlite", "schema-v17.sqlite", "schema-v18.sqlite", "schema-v19.sqlite", "schema-v20.sqlite"])
    func everyFixtureOpensWithEveryRowAndFigure(name: String) throws {
        let path = try copiedFixture(name)
        let store = try SQLiteStore(path: path)

        let clock = TestClock()
        let expected = InMemoryStore(clock: { clock() })
        let fill = try #require(SchemaFixtures.fills[name])
        try fill(expected, clock)
        #expect(try Snapshot(store) == Snapshot(expected))
        #expect(try store.settings() == expected.settings())
        #expect(try store.cacheMismatches() == [])
        for text in ["2025-12", "2026-01", "2026-02"] {
            let month = try Month(parsing: text)
            #expect(try store.budgetStatuses(for: month) == expected.budgetStatuses(for: month))
            for status in try expected.budgetStatuses(for: month) {
                #expect(try store.status(of: status.budget, in: month) == status)
            }
            #expect(try store.spendingByDay(in: month.days) == expected.spendingByDay(in: month.days))
            #expect(try store.spendingByTag(in: month.days) == expected.spendingByTag(in: month.days))
        }
        // Why over's groups, which `v19` filled from the expenses.
        let ids = Set(try expected.budgets().compactMap(\.id))
        for months in [try Month(parsing: "2025-12")...Month(parsing: "2026-03"), try Month(parsing: "2026-02")...Month(parsing: "2026-02")] {
            let groups = try store.spendingGroups(ofBudgets: ids, in: months)
            #expect(Set(groups) == Set(try expected.spendingGroups(ofBudgets: ids, in: months)) && !groups.isEmpty)
        }
        for tag in ["daily", "coffee", "oops", "home"] {
            #expect(try store.expenses(ExpenseQuery(tag: tag)) == expected.expenses(ExpenseQuery(tag: tag)))
        }

        // Figures written out by hand, so a change to the fill function cannot hide a lost row.
        #expect(try store.budgets().map(\.name) == ["Café", "Food", "Rent"])
        #expect(try store.countExpenses(ExpenseQuery()) == 7)
        let february = try store.budgetStatuses(for: Month(parsing: "2026-02"))
        #expect(february.map(\.spent.cents) == [3_560, 0, 120_050])
        #expect(february.map(\.budget.limit.cents) == [4_000, 30_000, 125_000])
        #expect(try store.spendingByTag(in: Month(parsing: "2026-02").days)["daily"] == Money(cents: 3_560))
        #expect(try store.expense(id: 4).tags == ["coffee", "daily"])
        expectError(.expenseNotFound(7)) { () throws(TallyError) in try store.expense(id: 7) }

        // Expenses saved before `by` record no one, and the report has no one to list.
        #expect(try store.expenses(ExpenseQuery()).allSatisfy { $0.by.isEmpty })
        #expect(try store.countExpenses(ExpenseQuery(by: "")) == 7)
        #expect(try store.spendingByPerson(in: Month(parsing: "2026-02").days) == [PersonSpending(by: "", spent: Money(cents: 123_610), expenses: 3)])
        #expect(try store.pragma("user_version") == String(Schema.version))
        #expect(try store.budgets().filter { $0.target != nil }.map(\.name) == (["schema-v18.sqlite", "schema-v19.sqlite", "schema-v20.sqlite"].contains(name) ? ["Food"] : []))
        if ["schema-v14.sqlite", "schema-v15.sqlite", "schema-v16.sqlite", "schema-v17.sqlite", "schema-v18.sqlite", "schema-v19.sqlite", "schema-v20.sqlite"].contains(name) {
            // Balances read `accountDay`, which `v15` filled from the incomes and transfers.
            let book = try store.accountBook()
            #expect(book.accounts.map(\.name) == ["Checking", "Visa"])
            let end = try Day(parsing: "2026-01-31")
            #expect(try book.accounts.map { try book.balance(of: $0, through: end) } == [Money(cents: 12_000), Money(cents: -500)])
            #expect(try book.brokenAssertions().isEmpty)
            #expect(book.reconciledThrough(try book.account(named: "checking")) == end)
        } else {
            #expect(try store.accountBook().accounts.isEmpty)
            #expect(try store.incomes().isEmpty)
        }

        // The migrated file accepts new rows, with fresh ids, and records who spent them.
        let added = try store.addExpense(Expense(name: "New", amount: Money(cents: 1), date: Day(parsing: "2026-03-01"), budgetID: 1, by: "Anna"))
        #expect(added.id == 9)
        #expect(try store.expense(id: 9).by == "Anna")
        #expect(try store.importRecord(fingerprint: "fixture-fingerprint")?.expenseCount == 1)
        #expect(try store.importRecord(fingerprint: "fixture-fingerprint") == expected.importRecord(fingerprint: "fixture-fingerprint"))
        #expect(try store.expense(id: 1).foreign?.original.minorUnits == (name == "schema-v20.sqlite" ? 7_400 : nil))
        // Every expense of an older file is plain; the migrated file takes a split and a refund.
        #expect(try store.expenses(ExpenseQuery()).allSatisfy { $0.lines.isEmpty && !$0.isRefund })
        let foodInMarch = try store.status(of: store.budget(named: "Food"), in: Month(parsing: "2026-03")).spent.cents
        let split = try store.addSplitExpense(
            Expense(name: "Market", amount: Money(cents: 1_000), date: Day(parsing: "2026-03-02"), budgetID: 0),
            lines: [NamedLine(budget: "Food", share: .percent(3_000)), NamedLine(budget: "Café", share: .rest)])
        #expect(split.statuses.map(\.spent.cents) == [foodInMarch + 300, 700])
        #expect(try store.cacheMismatches() == [])
    }

    /// The v15 file's profile opens as it was saved (`v16` adds only an empty column), then keeps
    /// the lines to skip it is given.
    @Test func aV15ProfileOpensAndTakesSkip() throws {
        let path = try copiedFixture("schema-v15.sqlite", as: "v15.sqlite")
        let store = try SQLiteStore(path: path)
        let bank = ImportProfile(name: "Bank", dateFormat: "dd.MM.yyyy", expenseSign: "negative")
        #expect(try store.profiles() == [bank])
        var skipping = bank
        skipping.skip = 6
        _ = try store.saveProfile(skipping)
        #expect(try store.profiles() == [skipping])
        // SQLite itself refuses a count past the bound.
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE importProfile SET skip = 1001") }
    }

    /// The v16 file's accounts open without a number (`v17` adds only an empty column), then keep
    /// the one they are given; SQLite itself refuses a number past an IBAN's length.
    @Test func aV16AccountOpensAndTakesANumber() throws {
        let path = try copiedFixture("schema-v16.sqlite", as: "v16.sqlite")
        let store = try SQLiteStore(path: path)
        var checking = try store.accountBook().account(named: "Checking")
        #expect(checking.number == nil)
        checking.number = "DE89 3704 0044 0532 0130 00"
        checking = try store.updateAccount(checking)
        #expect(try store.accountBook().account(named: "Checking").number == "DE89370400440532013000")
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE account SET number = '\(String(repeating: "1", count: 35))'") }
        // The rules table was rebuilt: its rule keeps its id and budget, and takes a transfer rule beside it.
        let rules = try store.rules()
        #expect(rules.map(\.pattern) == ["bakery"] && rules.map(\.budget) == ["Food"] && rules.map(\.id) == [1])
        let transfer = try store.addRule(ImportRule(pattern: "SAVINGS PLAN", budget: "", transferTo: "checking"))
        #expect(transfer.transferTo == "Checking" && transfer.id == 2)
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE importRule SET budgetId = 1 WHERE id = 2") }
    }

    /// The v17 file's budgets open without a target (`v18` adds only empty columns) and every
    /// figure stays; a budget then keeps the target it is given, its account too, and SQLite
    /// itself refuses a target of zero or a date without an amount.
    @Test func aV17BudgetOpensAndTakesATarget() throws {
        let path = try copiedFixture("schema-v17.sqlite", as: "v17.sqlite")
        let store = try SQLiteStore(path: path)
        #expect(try store.pragma("user_version") == String(Schema.version))
        var food = try store.budget(named: "Food")
        #expect(food.target == nil)
        let before = try store.budgetStatuses(for: Month(parsing: "2026-02"))
        let checking = try store.accountBook().account(named: "Checking")
        food.target = BudgetTarget(amount: Money(cents: 50_000), by: try Month(parsing: "2026-12"), accountID: checking.id)
        _ = try store.updateBudget(food)
        #expect(try store.budget(named: "Food").target == food.target)
        let after = try store.budgetStatuses(for: Month(parsing: "2026-02"))
        #expect(after.map(\.spent) == before.map(\.spent) && after.map(\.available) == before.map(\.available))
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE budget SET targetCents = 0 WHERE name = 'Food'") }
        #expect(throws: (any Error).self) { try store.executeUnchecked("UPDATE budget SET targetBy = 202612 WHERE name = 'Rent'") }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TALLY_MAKE_FIXTURES"] == "1"))
    func makeFixtures() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, fill) in SchemaFixtures.fills {
            let path = folder.appendingPathComponent(name).path
            // A released fixture is never remade; only a new version's file is written.
            guard !FileManager.default.fileExists(atPath: path) else { continue }
            do {
                let clock = TestClock()
                try fill(SQLiteStore(path: path, clock: { clock() }), clock)
                let store = try SQLiteStore(path: path)
                if let downgrade = SchemaFixtures.downgrades[name] { try store.executeUnchecked(downgrade) }
                try store.executeUnchecked("VACUUM")
                try store.close()
            }
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the fixture is checkpointed")
        }
    }
}
